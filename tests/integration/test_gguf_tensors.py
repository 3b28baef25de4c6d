"""GGUF tensor data: random blocks of every type posenc dequantises, written into GGUF files by the
small writer below (from ggml docs/gguf.md), read by the library through the test-only tool
gguf_tensor_dump (tests/tools; POSENC_GGUF_TENSOR_DUMP), and compared bit for bit with
ggml_reference.py, an independent numpy transcription of ggml's dequantize_row_*. Also: the shape
in PyTorch order, a file with 64-byte alignment, non-finite scales, and hostile files refused in one
line (exit 2) naming the file, the tensor and the byte. Skips (77) when the tool was not built."""
import os
import struct
import subprocess
import sys
import tempfile

import numpy as np

from harness import expect, finish
import ggml_reference as ref

TOOL = os.environ.get("POSENC_GGUF_TENSOR_DUMP", "")
if not TOOL or not os.path.exists(TOOL):
    print("gguf_tensor_dump not built (POSENC_GGUF_TENSOR_DUMP): skipped")
    sys.exit(77)

STR, U32 = 8, 4


def gguf_bytes(tensors, alignment=32, offsets=None):
    """A GGUF v3 file: general.architecture (and general.alignment when not 32), then the tensors
    [(name, ne list (ggml order), type id, data bytes)], each padded to the alignment."""
    def s(text):
        b = text.encode()
        return struct.pack("<Q", len(b)) + b

    kvs = [s("general.architecture") + struct.pack("<I", STR) + s("llama")]
    if alignment != 32:
        kvs.append(s("general.alignment") + struct.pack("<II", U32, alignment))
    out = b"GGUF" + struct.pack("<IQQ", 3, len(tensors), len(kvs)) + b"".join(kvs)
    data = b""
    for i, (name, ne, type_id, blob) in enumerate(tensors):
        offset = len(data) if offsets is None else offsets[i]
        out += s(name) + struct.pack("<I", len(ne)) + struct.pack("<%dQ" % len(ne), *ne)
        out += struct.pack("<IQ", type_id, offset)
        data += blob + b"\0" * (-len(blob) % alignment)
    out += b"\0" * (-len(out) % alignment)
    return out + data


def random_blocks(rng, type_id, n_blocks, finite=True):
    """Random bytes of n_blocks blocks; with finite=True every f16 scale field is made finite
    (exponent below 31) so that every value is a number."""
    block, size = ref.BLOCKS[type_id]
    b = rng.integers(0, 256, size=(n_blocks, size), dtype=np.uint8)
    half_fields = {2: [0], 3: [0, 2], 6: [0], 7: [0, 2], 8: [0], 12: [0, 2], 13: [0, 2], 14: [208], 20: [0],
                   23: [0]}.get(type_id, [])
    if finite:
        for at in half_fields:
            b[:, at + 1] &= 0xFB  # exponent bits 14..10: bit 12 cleared, so never 31
    return b.tobytes()


def run_dump(path, out_dir):
    return subprocess.run([TOOL, path, out_dir], capture_output=True, text=True)


def same_bits(got, want):
    return got.shape == want.shape and np.array_equal(got.view(np.uint32), want.view(np.uint32))


def same_or_both_nan(got, want):
    g, w = got.view(np.uint32), want.view(np.uint32)
    return got.shape == want.shape and bool(np.all((g == w) | (np.isnan(got) & np.isnan(want))))


def read_dump(out_dir, i):
    return np.fromfile(os.path.join(out_dir, "%d.f32" % i), dtype="<f4")


rng = np.random.default_rng(28)
with tempfile.TemporaryDirectory(prefix="posenc_gguf_tensors_") as tmp:
    # Every type: a matrix of 24 rows (ggml ne = [cols, 24]) of random blocks, and for the block
    # types a second tensor of one block with non-finite scales allowed.
    tensors, expected = [], []
    for type_id, (block, size) in sorted(ref.BLOCKS.items()):
        cols = block * (4 if block > 1 else 96)
        blob = random_blocks(rng, type_id, cols // block * 24)
        tensors.append((ref.NAMES[type_id].lower() + ".weight", [cols, 24], type_id, blob))
        expected.append((ref.NAMES[type_id], (24, cols), ref.dequantize(type_id, blob), True))
    for type_id in (2, 3, 6, 7, 8, 12, 13, 14, 20, 23):
        blob = random_blocks(rng, type_id, 64, finite=False)
        blocks = np.frombuffer(blob, dtype=np.uint8).reshape(64, -1).copy()
        blocks[:8, 1] |= 0x7C  # the first f16 field of 8 blocks: exponent 31 (inf or NaN)
        if type_id == 14:
            blocks[:8, 209] |= 0x7C
        blob = blocks.tobytes()
        tensors.append((ref.NAMES[type_id].lower() + ".nonfinite", [ref.BLOCKS[type_id][0] * 64], type_id, blob))
        expected.append((ref.NAMES[type_id], (ref.BLOCKS[type_id][0] * 64,), ref.dequantize(type_id, blob), False))
    for alignment in (32, 64):
        path = os.path.join(tmp, "random-%d.gguf" % alignment)
        with open(path, "wb") as f:
            f.write(gguf_bytes(tensors, alignment))
        out_dir = os.path.join(tmp, "out-%d" % alignment)
        os.mkdir(out_dir)
        r = run_dump(path, out_dir)
        expect(r.returncode == 0, "dump of %s: exit %d, %s" % (path, r.returncode, r.stderr))
        lines = r.stdout.splitlines()
        expect(len(lines) == len(tensors), "one line per tensor (%d lines)" % len(lines))
        for i, (line, (name, shape, want, finite)) in enumerate(zip(lines, expected)):
            fields = line.split("\t")
            expect(fields[2] == name and tuple(int(x) for x in fields[3].split(",")) == shape,
                   "tensor %d: dtype %s shape %s, want %s %s" % (i, fields[2], fields[3], name, shape))
            got = read_dump(out_dir, i)
            if finite:
                ok = same_bits(got, want)
                expect(ok, "%s (alignment %d): %d of %d values differ from ggml_reference" %
                       (tensors[i][0], alignment, int(np.sum(got.view(np.uint32) != want.view(np.uint32)))
                        if got.shape == want.shape else -1, want.size))
            else:
                # Where two NaN operands meet (Q4_1: q * d + m with d and m NaN), which payload wins
                # depends on the operand order the compiler picks, in ggml as here: NaN both sides.
                expect(same_or_both_nan(got, want), "%s: non-finite scales differ from ggml_reference" % tensors[i][0])
                expect(bool(np.isnan(got).any() or np.isinf(got).any()), "%s: a non-finite value" % tensors[i][0])

    # Hostile files: exit 2, one line on stderr naming the file, the tensor and the byte.
    a = random_blocks(rng, 8, 4)
    cases = [
        ("unsupported.gguf", gguf_bytes([("q2", [256], 10, bytes(84))]), "tensor 'q2' has type Q2_K, which posenc"),
        ("unknown.gguf", gguf_bytes([("u", [32], 36, bytes(18))]), "tensor 'u' has ggml type 36, which ggml does not"),
        ("row.gguf", gguf_bytes([("r", [48, 2], 8, bytes(102))]), "ne[0] = 48 is not a multiple of the block size 32"),
        ("order.gguf", gguf_bytes([("a", [128], 8, a), ("b", [128], 8, a)], offsets=[160, 0]),
         "tensor 'b' data (offset 0, 136 bytes) starts before the end of tensor 'a'"),
        ("overlap.gguf", gguf_bytes([("a", [128], 8, a), ("b", [128], 8, a)], offsets=[0, 128]),
         "tensor 'b' data (offset 128, 136 bytes) starts before the end of tensor 'a'"),
        ("past.gguf", gguf_bytes([("p", [128], 8, a[:100])]), "tensor 'p' data (bytes 128 + 0 + 136) runs past the end"),
        ("overflow.gguf", gguf_bytes([("o", [1 << 62], 0, b"")]), "tensor 'o' byte size overflows"),
    ]
    for name, data, message in cases:
        path = os.path.join(tmp, name)
        with open(path, "wb") as f:
            f.write(data)
        out_dir = os.path.join(tmp, "out-" + name)
        os.mkdir(out_dir)
        r = run_dump(path, out_dir)
        err = r.stderr.strip()
        expect(r.returncode == 2 and len(err.splitlines()) == 1 and path in err and message in err and "byte " in err,
               "%s: exit %d, stderr %r (want %r)" % (name, r.returncode, err, message))
        expect(not os.listdir(out_dir), "%s: nothing written" % name)

# --input FILE.gguf:NAME through the real posenc (argv[1]): an F32 table exactly, a Q8_0 table as
# ggml_reference dequantises it, NAME[i] selecting a row block, and a missing tensor refused.
POSENC = os.path.abspath(sys.argv[1])
with tempfile.TemporaryDirectory() as tmp:
    rng = np.random.default_rng(11)
    f32 = np.arange(6, dtype=np.float32).reshape(2, 3)  # PyTorch [2, 3] = ggml ne [3, 2]
    q8 = random_blocks(rng, 8, 4)  # ne [64, 2]: two rows of two blocks
    path = os.path.join(tmp, "t.gguf")
    with open(path, "wb") as fh:
        fh.write(gguf_bytes([("pe", [3, 2], 0, f32.tobytes()), ("w", [64, 2], 8, q8)]))

    def table(name, *extra):
        r = subprocess.run([POSENC, "generate", "--input", f"{path}:{name}", "--dtype", "float64", "--format", "csv",
                            *extra], capture_output=True, text=True)
        if r.returncode != 0:
            return None, r
        rows = [line.split(",")[1:] for line in r.stdout.splitlines()[1:]]
        return np.array(rows, dtype=np.float64), r

    got, r = table("pe")
    expect(got is not None and np.array_equal(got, f32.astype(np.float64)), f"--input t.gguf:pe is the F32 table ({r.stderr})")
    want = ref.q8_0(np.frombuffer(q8, dtype=np.uint8).reshape(4, 34)).reshape(2, 64).astype(np.float64)
    got, r = table("w")
    expect(got is not None and same_bits(got.astype(np.float32), want.astype(np.float32)),
           f"--input t.gguf:w is ggml's Q8_0 dequantisation ({r.stderr})")
    r = subprocess.run([POSENC, "generate", "--input", f"{path}:nope"], capture_output=True, text=True)
    expect(r.returncode == 2 and r.stderr.count("\n") == 1 and "no tensor 'nope'" in r.stderr, f"missing tensor: {r.stderr}")

    # The streamed float32 .npy (generate reads the tensor block by block as it writes): a Q4_K
    # table, --rows on it, and single values of a 1-D Q4_0 vector cut out of the middle of their
    # blocks (NAME[i]: the block is decoded aside), each against ggml_reference bit for bit.
    q4k = random_blocks(rng, 12, 6)  # ne [512, 3]: three rows of two blocks
    q40 = random_blocks(rng, 2, 3)  # ne [96]
    with open(path, "wb") as fh:
        fh.write(gguf_bytes([("k", [512, 3], 12, q4k), ("v", [96], 2, q40)]))
    want_k = ref.dequantize(12, q4k).reshape(3, 512)
    want_v = ref.dequantize(2, q40)

    def npy(name, *extra):
        out = os.path.join(tmp, "s.npy")
        r = subprocess.run([POSENC, "generate", "--input", f"{path}:{name}", "--dtype", "float32", "-o", out, *extra],
                           capture_output=True, text=True)
        return (np.load(out) if r.returncode == 0 else None), r

    got, r = npy("k")
    expect(got is not None and same_or_both_nan(got, want_k), f"streamed Q4_K table = ggml's ({r.stderr})")
    got, r = npy("k", "--rows", "1:3")
    expect(got is not None and same_or_both_nan(got, want_k[1:3]), f"streamed Q4_K --rows 1:3 ({r.stderr})")
    picks = [0, 31, 32, 45, 95]
    got = [npy(f"v[{i}]")[0] for i in picks]
    expect(all(g is not None and g.shape == (1, 1) for g in got)
           and same_or_both_nan(np.array([g[0, 0] for g in got], np.float32), want_v[picks]),
           f"Q4_0 values cut out of their blocks: {got} want {want_v[picks]}")

finish()
