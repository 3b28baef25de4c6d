"""Dequantisation throughput (issue 28): posenc's GGUF tensor reader against gguf-py's numpy
dequantiser, on Q4_K, Q6_K and Q8_0 tensors of random blocks (finite f16 scales).

Columns, in GB/s of input (the quantised bytes) on one core:
- posenc read: formats::read_gguf_tensor, pread of the tensor from the page cache and decode into a
  new float32 array (what a caller gets), through the test-only tool gguf_tensor_dump --time;
- posenc decode: dequantize_ggml over the tensor held in memory, 64 KiB of output at a time into
  one reused buffer (the decoding alone, without the new array's page faults);
- gguf-py: gguf.quants.dequantize(array, type) on the tensor's bytes already in memory (a new
  float32 array, as posenc read), the fastest of the same number of runs.
- floor: numpy filling a new float32 array of the tensor's values (np.empty + fill), the cost of
  the result's fresh pages alone, which bounds any reader that returns a new array.
The ratio is gguf-py seconds / posenc read seconds. A small tensor of each type is also dequantised
by both and compared bit for bit. gguf-py is pure Python + numpy: GGUF_PY names the folder that
holds its `gguf` package (llama.cpp's gguf-py/); only gguf.constants, gguf.lazy and gguf.quants are
imported (its __init__ pulls in sentencepiece and yaml). Without it the peer columns are blank.
Usage: python3 dequant.py GGUF_TENSOR_DUMP [MiB per tensor, default 64]   (BENCH_REPS: runs, 5)
"""
import os
import struct
import subprocess
import sys
import tempfile
import time
import types

import numpy as np

TYPES = [("Q4_K", 12, 256, 144, [0, 2]), ("Q6_K", 14, 256, 210, [208]), ("Q8_0", 8, 32, 34, [0])]


def gguf_file(ne, type_id, blob):
    """A GGUF v3 file with one tensor 'w' (ggml ne, type, data); returns (bytes, data offset)."""
    def s(text):
        b = text.encode()
        return struct.pack("<Q", len(b)) + b

    out = b"GGUF" + struct.pack("<IQQ", 3, 1, 1) + s("general.architecture") + struct.pack("<I", 8) + s("llama")
    out += s("w") + struct.pack("<I", len(ne)) + struct.pack("<%dQ" % len(ne), *ne) + struct.pack("<IQ", type_id, 0)
    out += b"\0" * (-len(out) % 32)
    return out + blob, len(out)


def random_blocks(rng, n_blocks, size, half_fields):
    b = rng.integers(0, 256, size=(n_blocks, size), dtype=np.uint8)
    for at in half_fields:
        b[:, at + 1] &= 0xFB  # f16 exponent never 31: finite scales
    return b


def load_gguf_py(folder):
    if not folder:
        return None
    pkg = types.ModuleType("gguf")
    pkg.__path__ = [os.path.join(folder, "gguf")]
    sys.modules["gguf"] = pkg
    from gguf import quants  # noqa: E402  (gguf.constants and gguf.lazy come with it)
    from gguf.constants import GGMLQuantizationType
    return quants, GGMLQuantizationType


def main():
    tool = os.path.abspath(sys.argv[1])
    mib = int(sys.argv[2]) if len(sys.argv) > 2 else 64
    reps = int(os.environ.get("BENCH_REPS", "5"))
    peer = load_gguf_py(os.environ.get("GGUF_PY", ""))
    rng = np.random.default_rng(28)
    print("| type | input MB | posenc read GB/s | posenc decode GB/s | floor GB/s | gguf-py GB/s "
          "| ratio (gguf-py s / posenc read s) | goal >= 1 GB/s/core (read) | same bits as gguf-py |")
    print("|---|---:|---:|---:|---:|---:|---:|---|---|")
    with tempfile.TemporaryDirectory(prefix="posenc-dequant-") as tmp:
        for name, type_id, block, size, halves in TYPES:
            cols = 4096
            row_bytes = cols // block * size
            rows = (mib << 20) // row_bytes
            blocks = random_blocks(rng, rows * cols // block, size, halves)
            data, offset = gguf_file([cols, rows], type_id, blocks.tobytes())
            path = os.path.join(tmp, name + ".gguf")
            with open(path, "wb") as f:
                f.write(data)
            del data
            r = subprocess.run([tool, "--time", path, "w", str(reps)], capture_output=True, text=True, check=True)
            _, read_s, _, decode_s, nbytes = r.stdout.split()
            read_s, decode_s, nbytes = float(read_s), float(decode_s), int(nbytes)
            floor_s = 1e300
            for _ in range(reps):
                start = time.perf_counter()
                fresh = np.empty(rows * cols, dtype=np.float32)
                fresh.fill(1.0)
                floor_s = min(floor_s, time.perf_counter() - start)
                del fresh
            peer_s, same = None, "—"
            if peer is not None:
                quants, qt = peer
                arr = blocks.reshape(rows, row_bytes)
                best = 1e300
                for _ in range(reps):
                    start = time.perf_counter()
                    out = quants.dequantize(arr, qt[name])  # noqa: F841 (freed after the clock stops)
                    best = min(best, time.perf_counter() - start)
                    del out
                peer_s = best
                # Bit-for-bit agreement on 64 rows.
                small, _ = gguf_file([cols, 64], type_id, blocks[: 64 * cols // block].tobytes())
                small_path = os.path.join(tmp, name + "-small.gguf")
                with open(small_path, "wb") as f:
                    f.write(small)
                out_dir = os.path.join(tmp, name + "-out")
                os.mkdir(out_dir)
                subprocess.run([tool, small_path, out_dir], capture_output=True, check=True)
                mine = np.fromfile(os.path.join(out_dir, "0.f32"), dtype="<f4")
                theirs = quants.dequantize(blocks[: 64 * cols // block].reshape(64, row_bytes), qt[name]).reshape(-1)
                same = "yes" if np.array_equal(mine.view(np.uint32), theirs.view(np.uint32)) else "NO"
            gbs = lambda s: nbytes / s / 1e9  # noqa: E731
            decode, read = gbs(decode_s), gbs(read_s)
            print(f"| {name} | {nbytes / 1e6:.1f} | {read:.2f} | {decode:.2f} | {gbs(floor_s):.2f} | "
                  f"{'—' if peer_s is None else f'{gbs(peer_s):.3f}'} | "
                  f"{'—' if peer_s is None else f'{peer_s / read_s:.1f}x'} | "
                  f"{'met' if read >= 1 else 'NOT met'} | {same} |", flush=True)
    print(f"\nbest of {reps} runs each; one core (posenc and numpy both single-threaded here); "
          f"load average at the end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
