#!/usr/bin/env python3
"""Writes the seed corpus of fuzz_safetensors (tests/fuzz/corpus/safetensors/) from the format
(8 bytes little-endian header length, JSON header, data section): every dtype posenc decodes,
metadata, padding, a scalar, an empty tensor, a dtype it lists but does not decode, and an index."""
import json
import os
import struct
import sys

out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "corpus", "safetensors")
os.makedirs(out, exist_ok=True)


def st(tensors, metadata=None, pad=0):
    header, data = {}, b""
    if metadata is not None:
        header["__metadata__"] = metadata
    for name, dtype, shape, raw in tensors:
        header[name] = {"dtype": dtype, "shape": shape, "data_offsets": [len(data), len(data) + len(raw)]}
        data += raw
    text = json.dumps(header, separators=(",", ":")).encode() + b" " * pad
    return struct.pack("<Q", len(text)) + text + data


seeds = {
    "f32": st([("wpe.weight", "F32", [2, 3], struct.pack("<6f", 0, 1, 2, 3, 4, 5))], {"format": "pt"}, pad=5),
    "every_dtype": st([
        ("f64", "F64", [2], struct.pack("<2d", 1.5, -2)),
        ("f16", "F16", [3], struct.pack("<3H", 0x3C00, 0x0001, 0x7C00)),
        ("bf16", "BF16", [2], struct.pack("<2H", 0x3F80, 0xFF80)),
        ("e4m3", "F8_E4M3", [4], bytes([0x7E, 0x01, 0x7F, 0x38])),
        ("e5m2", "F8_E5M2", [4], bytes([0x7B, 0x01, 0x7C, 0x7D])),
        ("i8", "I8", [2], bytes([0xFF, 0x7F])), ("u8", "U8", [1], b"\xff"),
        ("i16", "I16", [1], struct.pack("<h", -2)), ("u16", "U16", [1], struct.pack("<H", 65535)),
        ("i32", "I32", [1], struct.pack("<i", -3)), ("u32", "U32", [1], struct.pack("<I", 7)),
        ("i64", "I64", [1], struct.pack("<q", -1)), ("u64", "U64", [1], struct.pack("<Q", 2**63)),
        ("b", "BOOL", [2], b"\x00\x01"),
    ]),
    "scalar_empty": st([("s", "F32", [], struct.pack("<f", 3.0)), ("e", "F16", [0, 4], b"")]),
    "undecoded": st([("scales", "F8_E8M0", [2], b"\x7f\x80"), ("c", "C64", [1], struct.pack("<2f", 1, 2))]),
    "empty": struct.pack("<Q", 8) + b"{}      ",
    "index": json.dumps({"metadata": {"total_size": 24},
                         "weight_map": {"a": "model-00001-of-00002.safetensors",
                                        "b": "model-00002-of-00002.safetensors"}}).encode(),
}
for name, data in seeds.items():
    with open(os.path.join(out, name), "wb") as f:
        f.write(data)
print(f"wrote {len(seeds)} seeds to {out}")
