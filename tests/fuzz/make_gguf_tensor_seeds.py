#!/usr/bin/env python3
"""Writes the seed corpus of fuzz_gguf_tensors (tests/fuzz/corpus/gguf_tensors/seed-*.gguf) from the
GGUF specification (ggml docs/gguf.md) and ggml's block sizes (ggml-common.h): for each type posenc
dequantises, a small file with a 2-row tensor of deterministic pseudo-random blocks and an F32
tensor after it; a big-endian file, one with general.alignment 64, one with a 0-element tensor.
Every file is under 4096 bytes (run.sh's -max_len). Run from the repository root."""
import os
import random
import struct

STR, U32 = 8, 4
# ggml_type id: (name, elements per block, bytes per block)
TYPES = {0: ("f32", 1, 4), 1: ("f16", 1, 2), 2: ("q4_0", 32, 18), 3: ("q4_1", 32, 20), 6: ("q5_0", 32, 22),
         7: ("q5_1", 32, 24), 8: ("q8_0", 32, 34), 12: ("q4_k", 256, 144), 13: ("q5_k", 256, 176),
         14: ("q6_k", 256, 210), 20: ("iq4_nl", 32, 18), 23: ("iq4_xs", 256, 136), 30: ("bf16", 1, 2),
         39: ("mxfp4", 32, 17)}


def gguf(tensors, big=False, alignment=32):
    e = ">" if big else "<"

    def s(text):
        b = text.encode()
        return struct.pack(e + "Q", len(b)) + b

    kvs = [s("general.architecture") + struct.pack(e + "I", STR) + s("llama")]
    if alignment != 32:
        kvs.append(s("general.alignment") + struct.pack(e + "II", U32, alignment))
    out = b"GGUF" + struct.pack(e + "IQQ", 3, len(tensors), len(kvs)) + b"".join(kvs)
    data = b""
    for name, ne, type_id, blob in tensors:
        out += s(name) + struct.pack(e + "I", len(ne)) + struct.pack(e + "%dQ" % len(ne), *ne)
        out += struct.pack(e + "IQ", type_id, len(data))
        data += blob + b"\0" * (-len(blob) % alignment)
    out += b"\0" * (-len(out) % alignment)
    return out + data


rng = random.Random(28)


def blob(n):
    return bytes(rng.randrange(256) for _ in range(n))


f32 = ("norm.weight", [4], 0, struct.pack("<4f", 1.0, -2.0, 0.5, 3.0))
seeds = {}
for type_id, (name, block, size) in TYPES.items():
    per_row = 1 if block > 1 else 8
    seeds[name] = gguf([("w", [block * per_row, 2], type_id, blob(size * per_row * 2)), f32])
seeds["q8_0-be"] = gguf([("w", [32, 2], 8, blob(68)), ("norm.weight", [4], 0, struct.pack(">4f", 1, 2, 3, 4))], big=True)
seeds["q4_k-align64"] = gguf([("a", [256], 12, blob(144)), ("b", [32], 39, blob(17))], alignment=64)
seeds["empty-tensor"] = gguf([("z", [0, 4], 2, b""), f32])
os.makedirs("tests/fuzz/corpus/gguf_tensors", exist_ok=True)
for name, data in seeds.items():
    assert len(data) < 4096, name
    with open("tests/fuzz/corpus/gguf_tensors/seed-%s.gguf" % name, "wb") as f:
        f.write(data)
