#!/usr/bin/env python3
"""Writes the seed corpus of fuzz_gguf (tests/fuzz/corpus/gguf/seed-*.gguf) from the GGUF
specification (ggml docs/gguf.md): small files of each version and byte order, every value type,
arrays, general.alignment and F32 frequency tensors. Run from the repository root."""
import os
import struct

U8, I8, U16, I16, U32, I32, F32, BOOL, STR, ARR, U64, I64, F64 = range(13)
FMT = {U8: "B", I8: "b", U16: "H", I16: "h", U32: "I", I32: "i", F32: "f", BOOL: "?", U64: "Q", I64: "q", F64: "d"}


def gguf(kvs, tensors=(), version=3, big=False, alignment=32):
    e = ">" if big else "<"
    n = "I" if version == 1 else "Q"

    def s(text):
        b = text.encode()
        return struct.pack(e + n, len(b)) + b

    def value(t, v):
        if t == STR:
            return s(v)
        if t == ARR:
            et, items = v
            return struct.pack(e + "I" + n, et, len(items)) + b"".join(value(et, x) for x in items)
        return struct.pack(e + FMT[t], v)

    out = b"GGUF" + struct.pack(e + "I" + n + n, version, len(tensors), len(kvs))
    for key, t, v in kvs:
        out += s(key) + struct.pack(e + "I", t) + value(t, v)
    data = b""
    for name, values in tensors:
        out += s(name) + struct.pack(e + "I" + n + "IQ", 1, len(values), 0, len(data))
        data += struct.pack(e + "%df" % len(values), *values)
        data += b"\0" * (-len(data) % alignment)
    if tensors:
        out += b"\0" * (-len(out) % alignment)
    return out + data


llama = [("general.architecture", STR, "llama"), ("llama.context_length", U32, 131072),
         ("llama.embedding_length", U32, 4096), ("llama.attention.head_count", U32, 32),
         ("llama.rope.freq_base", F32, 500000.0), ("llama.rope.dimension_count", U32, 128)]
seeds = {
    "llama3-v3": gguf(llama, [("rope_freqs.weight", [1.0] * 4 + [2.0] * 4)]),
    "llama3-be": gguf(llama, [("rope_freqs.weight", [1.0, 8.0])], big=True),
    "v2": gguf(llama + [("llama.x", U64, 7), ("llama.y", I64, -7), ("llama.z", F64, 0.5)], version=2),
    "v1": gguf([(k, t, v) for k, t, v in llama], version=1),
    "types": gguf([("a", U8, 1), ("b", I8, -1), ("c", U16, 2), ("d", I16, -2), ("e", I32, -3), ("f", BOOL, True),
                   ("g", ARR, (I32, [16, 24, 24, 0])), ("h", ARR, (STR, ["x", "yz"])), ("i", ARR, (F32, [0.5]))]),
    "align64": gguf([("general.alignment", U32, 64), ("general.architecture", STR, "phi3")],
                    [("rope_factors_long.weight", [1.0, 1.5]), ("rope_factors_short.weight", [1.0, 1.01])], alignment=64),
    "yarn": gguf([("general.architecture", STR, "qwen2"), ("qwen2.rope.scaling.type", STR, "yarn"),
                  ("qwen2.rope.scaling.factor", F32, 4.0), ("qwen2.rope.scaling.original_context_length", U32, 32768)]),
}
os.makedirs("tests/fuzz/corpus/gguf", exist_ok=True)
for name, data in seeds.items():
    with open("tests/fuzz/corpus/gguf/seed-%s.gguf" % name, "wb") as f:
        f.write(data)
