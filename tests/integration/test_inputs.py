"""--input files as numpy and pandas write them: every .npy byte order, float16, Fortran
order, bfloat16 (ml_dtypes' '<V2' and 'bfloat16' headers), .npz (np.savez, savez_compressed),
pandas' re-saved CSVs (index columns), other separators, posenc's long-form CSV, stdin, pipes
and FIFOs. What posenc reads is compared with what numpy reads from the same file (exactly:
every value posenc writes back with --dtype float64 must equal numpy's, float16 and bfloat16
widened to float64 exactly)."""
import os
import pty
import struct
import subprocess
import tempfile
import threading

import numpy as np
import pandas as pd

from harness import POSENC, expect, finish, run


def read_back(tmp, *args, stdin=None, name="back.npy"):
    """posenc generate ARGS --dtype float64 -o back.npy: (the array, the completed process)."""
    out = os.path.join(tmp, name)
    if os.path.exists(out):
        os.remove(out)
    r = subprocess.run([POSENC, "generate", *args, "--dtype", "float64", "-o", out], capture_output=True, text=True,
                       input=stdin)
    return (np.load(out) if r.returncode == 0 else None), r


def same(a, b):
    return a is not None and a.shape == b.shape and np.array_equal(a, b, equal_nan=True)


def one_error(r, *needles):
    err = r.stderr
    return (r.returncode == 2 and err.count("\n") == 1 and err.startswith("posenc: error: ")
            and all(n.lower() in err.lower() for n in needles))


def npy_bytes(descr, shape, data, fortran=False):
    """An .npy written by hand (for descrs numpy cannot make here: ml_dtypes' bfloat16)."""
    h = "{'descr': '%s', 'fortran_order': %s, 'shape': %s, }" % (descr, fortran, repr(tuple(shape)))
    h = h.encode() + b" " * (64 - (10 + len(h) + 1) % 64) + b"\n"
    return b"\x93NUMPY\x01\x00" + struct.pack("<H", len(h)) + h + data


def bfloat16_of(bits):
    """bfloat16 bits (uint16) as float64: the upper half of a float32."""
    return (bits.astype(np.uint32) << 16).view(np.float32).astype(np.float64)


def test_npy(tmp):
    rng = np.random.default_rng(1)
    x = rng.normal(size=(6, 5)) * 100
    for dtype in ("<f4", ">f4", "<f8", ">f8", "<f2", ">f2", ">i4", ">u2", ">i8"):
        for order in ("C", "F"):
            a = np.asarray(x.astype(dtype), order=order)
            p = os.path.join(tmp, "x.npy")
            np.save(p, a)
            back, r = read_back(tmp, "--input", p)
            expect(same(back, np.load(p).astype(np.float64)), f"npy {dtype} order {order}: {r.stderr}")
    # float16 specials: subnormals, infinities, NaN, -0
    h = np.array([[0.0, -0.0, 6e-8, 6.1e-5], [65504.0, -np.inf, np.inf, np.nan]], dtype="<f2")
    p = os.path.join(tmp, "h.npy")
    np.save(p, h)
    back, r = read_back(tmp, "--input", p)
    expect(same(back, h.astype(np.float64)) and np.signbit(back[0, 1]), f"float16 specials: {r.stderr}")
    # 3-D Fortran order (H x N x M), through check and generate
    heads = np.asfortranarray(np.stack([-m * np.abs(np.arange(5)[:, None] - np.arange(5)[None, :])
                                        for m in (0.5, 0.25, 0.125)]))
    p = os.path.join(tmp, "heads.npy")
    np.save(p, heads)
    back, r = read_back(tmp, "--input", p)
    expect(same(back, heads), f"generate --input 3-D Fortran-order heads: {r.stderr}")
    r = run("check", "--input", p, text=True)
    expect(r.returncode == 0 and "bias-relative" in r.stdout, f"check --input 3-D Fortran: {r.stdout}{r.stderr}")
    # bfloat16: ml_dtypes' arrays are saved by np.save with descr '<V2' (jax-ml/ml_dtypes#41);
    # the usual work-around writes str(arr.dtype), 'bfloat16'
    bits = np.array([[0x3F80, 0xC000, 0x3EAB], [0x7F80, 0x0001, 0x8000]], dtype="<u2")
    for descr in ("<V2", "|V2"):
        p = os.path.join(tmp, "bf.npy")
        with open(p, "wb") as f:
            f.write(npy_bytes(descr, bits.shape, bits.tobytes()))
        expect(np.load(p).dtype == np.dtype("V2"), "numpy reads '<V2' as raw 2-byte values")
        _, r = read_back(tmp, "--input", p)
        expect(one_error(r, descr, "--input-dtype bfloat16", "astype"), f"{descr} without --input-dtype: {r.stderr}")
        back, r = read_back(tmp, "--input", p, "--input-dtype", "bfloat16")
        expect(same(back, bfloat16_of(bits)), f"{descr} --input-dtype bfloat16: {r.stderr}")
        back, r = read_back(tmp, "--input", p, "--input-dtype", "float16")
        expect(same(back, bits.view("<f2").astype(np.float64)), f"{descr} --input-dtype float16: {r.stderr}")
    with open(p, "wb") as f:
        f.write(npy_bytes("bfloat16", bits.shape, bits.tobytes()))
    back, r = read_back(tmp, "--input", p)
    expect(same(back, bfloat16_of(bits)), f"descr 'bfloat16': {r.stderr}")
    expect(back is not None and back[0, 0] == 1.0 and back[0, 1] == -2.0 and back[1, 0] == np.inf,
           "bfloat16 0x3F80 = 1, 0xC000 = -2, 0x7F80 = inf")


def test_npz(tmp):
    rng = np.random.default_rng(2)
    a, b = rng.normal(size=(4, 3)), rng.normal(size=(7, 2)).astype(np.float32)
    for save in (np.savez, np.savez_compressed):
        p = os.path.join(tmp, "t.npz")
        save(p, pe=a, other=b)
        with np.load(p) as z:
            files = z.files
            first = z[files[0]]
        back, r = read_back(tmp, "--input", p)
        expect(same(back, first.astype(np.float64)) and "--npz-key" in r.stderr and "note" in r.stderr,
               f"{save.__name__}: the first array, with a note: {r.stderr}")
        for key in ("other", "other.npy"):
            back, r = read_back(tmp, "--input", p, "--npz-key", key)
            expect(same(back, b.astype(np.float64)) and r.stderr == "", f"{save.__name__} --npz-key {key}: {r.stderr}")
        _, r = read_back(tmp, "--input", p, "--npz-key", "missing")
        expect(one_error(r, "--npz-key", "'missing'", "'pe'", "'other'"), f"--npz-key missing: {r.stderr}")
        # a single positional array (arr_0): no note
        save(p, a.T.copy())
        back, r = read_back(tmp, "--input", p)
        expect(same(back, a.T) and r.stderr == "", f"{save.__name__} arr_0: {r.stderr}")
    # big-endian float16 inside a compressed archive, and a 3-D member for check
    p = os.path.join(tmp, "h.npz")
    np.savez_compressed(p, h=np.arange(12, dtype=">f2").reshape(3, 4) / 8)
    back, r = read_back(tmp, "--input", p)
    expect(same(back, np.arange(12).reshape(3, 4) / 8), f"npz of >f2: {r.stderr}")
    # a 3-D member through check, from stdin (the zip magic sniffed)
    np.savez_compressed(p, heads=alibi(4, 6))
    r = subprocess.run([POSENC, "check", "--input", "-"], input=open(p, "rb").read(), capture_output=True)
    expect(r.returncode == 0 and b"bias-relative" in r.stdout, f"check --input - of a 3-D .npz: {r.stdout}{r.stderr}")
    # hostile: a truncated archive, a flipped byte in the deflated data (CRC), not a zip
    np.savez_compressed(p, pe=a)
    data = open(p, "rb").read()
    for label, bad in (("truncated", data[: len(data) // 2]), ("flipped", data[:60] + bytes([data[60] ^ 0xFF]) + data[61:]),
                       ("not zip", b"PK\x03\x04" + b"\0" * 40)):
        q = os.path.join(tmp, "bad.npz")
        with open(q, "wb") as f:
            f.write(bad)
        _, r = read_back(tmp, "--input", q)
        expect(one_error(r, "bad.npz"), f"npz {label}: {r.stderr}")


def test_pandas(tmp):
    pe_csv = os.path.join(tmp, "pe.csv")
    subprocess.run([POSENC, "generate", "sinusoidal", "--len", "40", "--dim", "8", "--dtype", "float64", "-o", pe_csv],
                   check=True)
    pe = pd.read_csv(pe_csv, index_col=0).to_numpy()
    # pd.read_csv(...).to_csv(...): pandas' unnamed index, then posenc's position column
    re_csv = os.path.join(tmp, "re.csv")
    pd.read_csv(pe_csv).to_csv(re_csv)
    r = run("check", "--input", re_csv, text=True)
    expect(r.returncode == 0 and "note" in r.stderr and "pandas' unnamed index" in r.stderr and "'position'" in r.stderr,
           f"check --input re-saved csv: exit {r.returncode} {r.stderr}")
    back, r = read_back(tmp, "--input", re_csv)
    expect(same(back, pe), "re-saved csv reads the 8 data columns")
    # saved twice: 'Unnamed: 0' (read_csv's name for the index) is an index too
    re2 = os.path.join(tmp, "re2.csv")
    pd.read_csv(re_csv).to_csv(re2)
    expect("Unnamed: 0" in open(re2).readline(), "pandas names the index 'Unnamed: 0'")
    back, r = read_back(tmp, "--input", re2)
    expect(same(back, pe) and "Unnamed: 0" in r.stderr, f"twice re-saved csv: {r.stderr}")
    # every 2nd position: refused (rows are read as consecutive positions)
    half = os.path.join(tmp, "half.csv")
    pd.read_csv(pe_csv).iloc[::2].to_csv(half)
    for cmd in (["check"], ["generate"]):
        r = run(*cmd, "--input", half, text=True)
        expect(one_error(r, "not consecutive", "--index-col", "--no-index") and not r.stdout,
               f"{cmd} every 2nd position: {r.stderr}")
    back, r = read_back(tmp, "--input", half, "--index-col", "0")
    expect(back is not None and back.shape == (20, 9) and "note" in r.stderr, f"--index-col 0: {r.stderr}")
    back, r = read_back(tmp, "--input", half, "--index-col", "position")
    # as pandas' index_col: only that column is the index, the unnamed one is data
    expect(same(back, pd.read_csv(half, index_col="position").to_numpy(dtype=np.float64)),
           f"--index-col position: {r.stderr}")
    back, r = read_back(tmp, "--input", half, "--no-index")
    expect(same(back, pd.read_csv(half).to_numpy(dtype=np.float64)), f"--no-index: every column {r.stderr}")
    # other separators, as pandas writes them
    df = pd.read_csv(pe_csv, index_col=0)
    for sep, flag in ((";", ";"), ("\t", "tab"), ("|", "|")):
        p = os.path.join(tmp, "sep.csv")
        df.to_csv(p, sep=sep)
        back, r = read_back(tmp, "--input", p, "--delimiter", flag)
        expect(same(back, pe), f"--delimiter {flag!r}: {r.stderr}")
        if sep != "|":
            _, r = read_back(tmp, "--input", p)
            expect(one_error(r, "--delimiter"), f"a {flag} file without --delimiter says to give it: {r.stderr}")
    p = os.path.join(tmp, "pe.tsv")
    df.to_csv(p, sep="\t")
    back, r = read_back(tmp, "--input", p)
    expect(same(back, pe), f".tsv: tab by default {r.stderr}")


def alibi(heads, n):
    # Press et al.: slopes 2^(-8(h+1)/H) for a power-of-two H, bias -m|i - j|
    m = 2.0 ** (-8.0 * np.arange(1, heads + 1) / heads)
    d = np.abs(np.arange(n)[:, None] - np.arange(n)[None, :])
    return -m[:, None, None] * d[None]


def test_long_form(tmp):
    al = os.path.join(tmp, "al.csv")
    subprocess.run([POSENC, "generate", "alibi", "--heads", "4", "--len", "5", "--dtype", "float64", "-o", al], check=True)
    expect(open(al).readline().strip() == "head,i,j,bias", "alibi's CSV is long form")
    r = run("check", "--input", al, text=True)
    expect(r.returncode == 0 and "bias-relative" in r.stdout and "4 x 5 x 5" in r.stderr,
           f"check --input al.csv reads the 4x5x5 array: {r.stdout}{r.stderr}")
    back, r = read_back(tmp, "--input", al)
    expect(back is not None and np.allclose(back, alibi(4, 5), rtol=0, atol=1e-15), f"al.csv as 3-D: {r.stderr}")
    # written back in the same long form
    out = os.path.join(tmp, "al2.csv")
    subprocess.run([POSENC, "generate", "--input", al, "--dtype", "float64", "-o", out], check=True,
                   capture_output=True)
    expect(open(out).read() == open(al).read(), "long form written back byte for byte")
    for cmd in (["similarity"], ["project"], ["decay"]):
        r = run(*cmd, "--input", al, text=True)
        expect(one_error(r, "long form", "4 x 5 x 5"), f"{cmd} refuses a 3-D long form in one line: {r.stderr}")
    # pandas re-saved long form: its index, then head,i,j,bias
    re = os.path.join(tmp, "al_re.csv")
    pd.read_csv(al).to_csv(re)
    back, r = read_back(tmp, "--input", re)
    expect(back is not None and np.allclose(back, alibi(4, 5), rtol=0, atol=1e-15), f"re-saved long form: {r.stderr}")
    # generate --input of the 3-D array generate alibi writes
    heads = os.path.join(tmp, "heads.npy")
    subprocess.run([POSENC, "generate", "alibi", "--heads", "8", "--len", "6", "--dtype", "float64", "-o", heads],
                   check=True)
    back, r = read_back(tmp, "--input", heads)
    expect(back is not None and np.allclose(back, alibi(8, 6), rtol=0, atol=1e-15), f"generate --input heads.npy: {r.stderr}")
    png = os.path.join(tmp, "heads.png")
    r = run("generate", "--input", heads, "-o", png)
    expect(r.returncode == 0 and open(png, "rb").read(8) == b"\x89PNG\r\n\x1a\n", "generate --input heads.npy -o png")


def test_every_scheme_reads_back(tmp):
    """What each scheme writes as CSV (wide, or alibi's long form) reads back as the array its
    .npy holds (numpy's np.load of the .npy is the reference)."""
    for scheme in ("integer", "normalized", "binary", "sine", "sinusoidal", "learned", "recurrent", "rope", "alibi", "t5",
                   "mrope", "axial-rope", "nope", "deberta"):
        csv, npy = os.path.join(tmp, f"{scheme}.csv"), os.path.join(tmp, f"{scheme}.npy")
        for out in (csv, npy):
            subprocess.run([POSENC, "generate", scheme, "--len", "6", "--dtype", "float64", "-o", out], check=True,
                           capture_output=True)
        back, r = read_back(tmp, "--input", csv)
        expect(same(back, np.load(npy)), f"{scheme}: its CSV read back equals its .npy ({r.stderr})")


def test_streams(tmp):
    x = np.arange(12, dtype=np.float64).reshape(4, 3) / 3
    p = os.path.join(tmp, "s.npy")
    np.save(p, x)
    raw = open(p, "rb").read()
    c = os.path.join(tmp, "s.csv")
    pd.DataFrame(x).to_csv(c)
    text = open(c).read()
    # --input - : stdin, its format sniffed or given
    r = subprocess.run([POSENC, "generate", "--input", "-", "--dtype", "float64", "-o", os.path.join(tmp, "o.npy")],
                       input=raw, capture_output=True)
    expect(r.returncode == 0 and same(np.load(os.path.join(tmp, "o.npy")), x), f"--input - (npy sniffed): {r.stderr}")
    back, r = read_back(tmp, "--input", "-", stdin=text)
    expect(same(back, x), f"--input - (csv sniffed): {r.stderr}")
    back, r = read_back(tmp, "--input", "-", "--input-format", "csv", stdin=text)
    expect(same(back, x), f"--input - --input-format csv: {r.stderr}")
    back, r = read_back(tmp, "--input", "/dev/stdin", stdin=text)
    expect(same(back, x), f"--input /dev/stdin: {r.stderr}")
    r = subprocess.run([POSENC, "generate", "--input", "-", "--input-format", "npy", "-o", "-"], input=text.encode(),
                       capture_output=True)
    expect(r.returncode == 2 and b"bad magic" in r.stderr, f"--input-format npy of CSV text: {r.stderr}")
    # stdin a terminal: refused at once rather than waiting for typed input
    master, slave = pty.openpty()
    r = subprocess.run([POSENC, "generate", "--input", "-"], stdin=slave, capture_output=True, text=True, timeout=20)
    os.close(master)
    os.close(slave)
    expect(one_error(r, "--input -", "terminal"), f"--input - from a terminal: {r.stderr}")
    # bash's <(cat file): a pipe under /dev/fd
    out = os.path.join(tmp, "p.npy")
    r = subprocess.run(["bash", "-c", f'"{POSENC}" generate --input <(cat "{p}") --dtype float64 -o "{out}"'],
                       capture_output=True)
    expect(r.returncode == 0 and same(np.load(out), x), f"--input <(cat s.npy): {r.stderr}")
    # a FIFO without an extension
    fifo = os.path.join(tmp, "fifo")
    os.mkfifo(fifo)
    writer = threading.Thread(target=lambda: open(fifo, "w").write(text))
    writer.start()
    back, r = read_back(tmp, "--input", fifo)
    writer.join()
    expect(same(back, x), f"--input FIFO: {r.stderr}")
    # an extension posenc does not know is still refused, naming --input-format
    t = os.path.join(tmp, "table.txt")
    with open(t, "w") as f:
        f.write(text)
    _, r = read_back(tmp, "--input", t)
    expect(one_error(r, ".txt", "--input-format"), f".txt: {r.stderr}")
    back, r = read_back(tmp, "--input", t, "--input-format", "csv")
    expect(same(back, x), f".txt --input-format csv: {r.stderr}")


def test_project_nan(tmp):
    x = np.random.default_rng(3).normal(size=(10, 4))
    x[3, 2] = np.nan
    p = os.path.join(tmp, "nan.npy")
    np.save(p, x)
    r = run("project", "--input", p, "--format", "csv", text=True)
    expect(one_error(r, "finite", "position 3", "column 2", "nan") and not r.stdout and "zero" not in r.stderr,
           f"project --input with a NaN row: {r.stderr}")
    x[3, 2] = np.inf
    np.save(p, x)
    r = run("project", "--input", p, "--pca", "3", "--format", "csv", text=True)
    expect(one_error(r, "finite", "inf"), f"project --input with an inf: {r.stderr}")
    # --dims copies columns: the NaN stays in its row, with the usual warning
    x[3, 2] = np.nan
    np.save(p, x)
    r = run("project", "--input", p, "--dims", "0,1", "--format", "csv", text=True)
    expect(r.returncode == 0, f"project --dims of finite columns: {r.stderr}")


def test_rows(tmp):
    """--rows A:B (issue 26 item 18): part of an --input table, as numpy's a[A:B]."""
    a = np.random.default_rng(7).standard_normal((50, 8))
    path = os.path.join(tmp, "mid.npy")
    np.save(path, a)
    for rows, part in (("10:20", a[10:20]), ("-3:", a[-3:]), (":5", a[:5])):
        back, r = read_back(tmp, "--input", path, "--rows", rows)
        expect(back is not None and same(back, part), f"generate --input --rows {rows} is a[{rows}] ({r.stderr.strip()})")
    # similarity of rows 10..19: cosine of numpy's slice, labelled from position 10
    out = os.path.join(tmp, "sim.csv")
    r = subprocess.run([POSENC, "similarity", "--input", path, "--rows", "10:20", "--metric", "cosine", "-o", out],
                       capture_output=True, text=True)
    part = a[10:20]
    unit = part / np.linalg.norm(part, axis=1, keepdims=True)
    got = pd.read_csv(out, index_col=0) if r.returncode == 0 else None
    expect(got is not None and np.allclose(got.to_numpy(), unit @ unit.T, rtol=0, atol=1e-6)
           and list(got.index) == list(range(10, 20)), f"similarity --rows 10:20 = cosine of a[10:20] ({r.stderr.strip()})")
    r = subprocess.run([POSENC, "similarity", "--input", path, "--len", "20"], capture_output=True, text=True)
    expect(r.returncode == 2 and "--rows :N" in r.stderr, f"--len with --input points at --rows ({r.stderr.strip()})")
    r = subprocess.run([POSENC, "generate", "--input", path, "--rows", "40:60"], capture_output=True, text=True)
    expect(r.returncode == 2 and "--rows 40:60" in r.stderr and "50 rows" in r.stderr, f"--rows past the end ({r.stderr.strip()})")


def main():
    with tempfile.TemporaryDirectory() as tmp:
        for test in (test_npy, test_npz, test_pandas, test_long_form, test_every_scheme_reads_back, test_streams,
                     test_project_nan, test_rows):
            test(tmp)
    finish()


if __name__ == "__main__":
    main()
