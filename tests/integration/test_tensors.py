"""posenc tensors and --input FILE.safetensors:NAME on checkpoints written here with numpy the
way the format is defined (8 bytes little-endian header length, a JSON header, then each
array's ndarray.tobytes(); huggingface/safetensors README "Format"): a single file, a sharded
folder with model.safetensors.index.json, and hostile files. The listing is compared with the
header Python wrote, the values with numpy's arrays (bfloat16 made by keeping the high 16 bits
of float32, read back by shifting them up again), the cosine similarity with numpy's."""
import io
import json
import os
import struct
import tempfile

import numpy as np

from harness import expect, finish, run

DTYPES = {np.dtype("float64"): "F64", np.dtype("float32"): "F32", np.dtype("float16"): "F16",
          np.dtype("int64"): "I64", np.dtype("int8"): "I8", np.dtype("uint16"): "BF16"}


def save(path, arrays, metadata=None, trailing=b""):
    """Writes a safetensors file; uint16 arrays are stored as BF16 bits. Returns the header dict."""
    header, data = {}, b""
    if metadata is not None:
        header["__metadata__"] = metadata
    for name, a in arrays.items():
        raw = np.ascontiguousarray(a).astype(a.dtype.newbyteorder("<")).tobytes()
        header[name] = {"dtype": DTYPES[a.dtype], "shape": list(a.shape), "data_offsets": [len(data), len(data) + len(raw)]}
        data += raw
    text = json.dumps(header).encode()
    text += b" " * (-len(text) % 8)  # pad to 8 bytes, as the Rust writer does
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)) + text + data + trailing)
    return header


def bf16_bits(a):
    return (a.astype(np.float32).view(np.uint32) >> 16).astype(np.uint16)


def bf16_values(bits):
    return (bits.astype(np.uint32) << 16).view(np.float32)


def read_back(tmp, source, *extra):
    """posenc generate --input SOURCE --dtype float64: (array, completed process)."""
    out = os.path.join(tmp, "back.npy")
    if os.path.exists(out):
        os.remove(out)
    r = run("generate", "--input", source, *extra, "--dtype", "float64", "-o", out, text=True)
    return (np.load(out) if r.returncode == 0 else None), r


with tempfile.TemporaryDirectory() as tmp:
    rng = np.random.default_rng(7)
    wpe = (rng.standard_normal((16, 8)) * 0.02).astype(np.float32)
    f16 = np.array([1.0, -2.5, 6.1035156e-05, 5.9604645e-08, 65504.0], np.float16)  # incl. subnormal, max
    bf = bf16_bits(rng.standard_normal((3, 4)))
    ids = np.arange(6, dtype=np.int64).reshape(1, 6)
    cube = np.arange(24, dtype=np.float64).reshape(2, 3, 4) * 0.5
    single = os.path.join(tmp, "model.safetensors")
    header = save(single, {"transformer.wpe.weight": wpe, "ln_f.bias": f16, "rot.bf16": bf,
                           "position_ids": ids, "stack": cube}, {"format": "pt"})

    # posenc tensors, JSON: the names, dtypes, shapes and byte counts Python wrote.
    r = run("tensors", single, "--format", "json", text=True)
    expect(r.returncode == 0, f"tensors --format json exits 0: {r.stderr}")
    j = json.loads(r.stdout) if r.returncode == 0 else {"tensors": [], "metadata": {}}
    listed = {t["name"]: t for t in j["tensors"]}
    for name, h in header.items():
        if name == "__metadata__":
            continue
        t = listed.get(name, {})
        expect(t.get("dtype") == h["dtype"] and t.get("shape") == h["shape"]
               and t.get("bytes") == h["data_offsets"][1] - h["data_offsets"][0]
               and t.get("file") == "model.safetensors", f"tensors lists {name} as written: {t}")
    expect(j["metadata"] == {"format": "pt"}, f"tensors metadata: {j['metadata']}")
    expect([t["name"] for t in j["tensors"]] == [k for k in header if k != "__metadata__"], "header order kept")

    # Text, with --filter.
    r = run("tensors", single, "--filter", "*.w*", text=True)
    lines = r.stdout.splitlines()
    expect(r.returncode == 0 and "5 tensors in 1 file" in lines[0] and "(1 shown)" in lines[0],
           f"tensors text summary: {r.stdout}")
    expect(any(line.split() == ["transformer.wpe.weight", "F32", "[16,", "8]", "512", "model.safetensors"]
               for line in lines), f"tensors text row: {r.stdout}")
    expect("  format = pt" in lines, "tensors text metadata")

    # --input FILE:NAME against numpy, exactly (float64 out).
    back, r = read_back(tmp, single + ":transformer.wpe.weight")
    expect(back is not None and np.array_equal(back, wpe.astype(np.float64)), f"--input F32 table: {r.stderr}")
    back, r = read_back(tmp, single + ":ln_f.bias")
    expect(back is not None and back.shape == (5, 1) and np.array_equal(back[:, 0], f16.astype(np.float64)),
           f"--input F16 vector as one column: {back} {r.stderr}")
    back, r = read_back(tmp, single + ":rot.bf16")
    expect(back is not None and np.array_equal(back, bf16_values(bf).astype(np.float64)), f"--input BF16: {r.stderr}")
    back, r = read_back(tmp, single + ":position_ids")
    expect(back is not None and np.array_equal(back, ids.astype(np.float64)), f"--input I64: {r.stderr}")
    back, r = read_back(tmp, single + ":stack[1]")
    expect(back is not None and np.array_equal(back, cube[1]), f"--input NAME[1] slice: {r.stderr}")
    back, r = read_back(tmp, single + ":stack[0,2]")
    expect(back is not None and np.array_equal(back[:, 0], cube[0, 2]), f"--input NAME[0,2]: {r.stderr}")
    back, r = read_back(tmp, single + ":transformer.wpe.weight", "--rows", "4:9")
    expect(back is not None and np.array_equal(back, wpe[4:9].astype(np.float64)), f"--input with --rows: {r.stderr}")
    r = run("generate", "--input", single + ":stack", "-o", os.path.join(tmp, "x.npy"), text=True)
    expect(r.returncode == 2 and r.stderr.count("\n") == 1 and "'stack' is 3-D [2, 3, 4]" in r.stderr
           and "stack[0]' (a [3, 4] table)" in r.stderr, f"a 3-D tensor is refused with the selector: {r.stderr}")
    expect(not os.path.exists(os.path.join(tmp, "x.npy")), "nothing written for a refused tensor")

    # float32 out, read as it is written: every F16 and every BF16 bit pattern, and F32 with
    # signalling and quiet NaNs, against numpy's astype(float32) (BF16 as bits << 16): the same
    # bits for every number; a NaN stays a NaN of its sign (posenc writes the quiet NaN).
    every = np.arange(65536, dtype=np.uint32).astype(np.uint16)
    f32 = np.array([0x7f800001, 0xff800001, 0x7fc00001, 0x7f800000, 0x00000001, 0x80000000, 0x3f800000],
                   np.uint32).view(np.float32)
    allbits = os.path.join(tmp, "bits.safetensors")
    save(allbits, {"half": every.view(np.float16).reshape(256, 256), "bf": every.reshape(256, 256), "single": f32})
    out32 = os.path.join(tmp, "f32.npy")
    for name, want in (("half", every.view(np.float16).astype(np.float32).reshape(256, 256)),
                       ("bf", bf16_values(every).reshape(256, 256)), ("single", f32.reshape(7, 1))):
        r = run("generate", "--input", f"{allbits}:{name}", "--dtype", "float32", "-o", out32, text=True)
        got = np.load(out32) if r.returncode == 0 else np.zeros(0, np.float32)
        nan = np.isnan(want)
        expect(got.shape == want.shape and got.dtype == np.float32
               and np.array_equal(got[~nan].view(np.uint32), want[~nan].view(np.uint32))
               and np.isnan(got[nan]).all() and np.array_equal(np.signbit(got[nan]), np.signbit(want[nan])),
               f"--input {name} --dtype float32: numpy's float32 bits ({r.stderr})")
        expect("holds nan values" in r.stderr, f"{name}: the nan warning ({r.stderr})")

    # The analyses: cosine similarity against numpy, and each command runs.
    r = run("similarity", "--input", single + ":transformer.wpe.weight", "--metric", "cosine", "--dtype", "float64",
            "--format", "npy", "-o", "-")
    unit = wpe.astype(np.float64) / np.linalg.norm(wpe.astype(np.float64), axis=1, keepdims=True)
    sim = np.load(io.BytesIO(r.stdout)) if r.returncode == 0 else None
    expect(sim is not None and np.allclose(sim, unit @ unit.T, atol=1e-12), "similarity --input FILE:NAME = numpy cosine")
    for args in (["decay", "--max-offset", "8", "--format", "csv"], ["project", "--format", "csv"], ["check"]):
        r = run(*args, "--input", single + ":transformer.wpe.weight", text=True)
        expect(r.returncode in (0, 1) and r.stdout, f"{args[0]} --input FILE:NAME: exit {r.returncode} {r.stderr}")

    # A sharded checkpoint: a folder with model.safetensors.index.json, and the index itself.
    shards = os.path.join(tmp, "sharded")
    os.mkdir(shards)
    names = ["model-00001-of-00002.safetensors", "model-00002-of-00002.safetensors"]
    save(os.path.join(shards, names[0]), {"wpe": wpe}, {"format": "pt"})
    save(os.path.join(shards, names[1]), {"bias": f16}, {"format": "pt"})
    index = os.path.join(shards, "model.safetensors.index.json")
    with open(index, "w") as f:
        json.dump({"metadata": {"total_size": wpe.nbytes + f16.nbytes}, "weight_map": {"wpe": names[0], "bias": names[1]}}, f)
    r = run("tensors", shards, "--format", "json", text=True)
    j = json.loads(r.stdout) if r.returncode == 0 else {"tensors": []}
    expect([(t["name"], t["file"]) for t in j["tensors"]] == [("wpe", names[0]), ("bias", names[1])]
           and j.get("files") == 2 and j["metadata"].get("total_size") == str(wpe.nbytes + f16.nbytes),
           f"tensors of a sharded folder: {r.stdout}{r.stderr}")
    back, r = read_back(tmp, shards + ":bias")
    expect(back is not None and np.array_equal(back[:, 0], f16.astype(np.float64)), f"--input FOLDER:NAME: {r.stderr}")
    back, r = read_back(tmp, index + ":wpe")
    expect(back is not None and np.array_equal(back, wpe.astype(np.float64)), f"--input INDEX:NAME: {r.stderr}")

    # Hostile files: exit 2, one line naming the file, the byte and the tensor; nothing on stdout.
    bad = os.path.join(tmp, "trailing.safetensors")
    save(bad, {"a": wpe}, trailing=b"PK")
    r = run("tensors", bad, text=True)
    expect(r.returncode == 2 and r.stderr.count("\n") == 1 and "trailing.safetensors': byte " in r.stderr
           and "2 trailing bytes after the last tensor ('a')" in r.stderr and not r.stdout,
           f"trailing bytes refused: {r.stderr}")
    with open(index, "w") as f:
        json.dump({"weight_map": {"wpe": "../" + names[0], "bias": names[1]}}, f)
    r = run("tensors", shards, text=True)
    expect(r.returncode == 2 and "shard '../model-00001-of-00002.safetensors' is not a plain file name" in r.stderr,
           f"a shard path with ../ refused: {r.stderr}")
    pt = os.path.join(tmp, "pytorch_model.bin")
    with open(pt, "wb") as f:
        f.write(b"PK\x03\x04" + bytes(30))
    for args in (["tensors", pt], ["generate", "--input", pt + ":wpe"], ["generate", "--input", pt]):
        r = run(*args, text=True)
        expect(r.returncode == 2 and r.stderr.count("\n") == 1 and "is a PyTorch checkpoint" in r.stderr
               and "save_file" in r.stderr, f"{args}: a .bin is refused with the conversion command: {r.stderr}")

finish()
