"""posenc's .npy, CSV and JSON read back with numpy.load, pandas.read_csv and json.load,
the way users load them, and equal to each scheme's formula computed here with numpy.
The formulas are written from docs/encodings/*.md and the reference implementations
(tensor2tensor's get_timing_signal_1d, fairseq's SinusoidalPositionalEmbedding), not from
posenc's code. Tolerances: float64 within 1e-12, float32 within 1e-6 (absolute)."""
import json
import math
import os
import pty
import subprocess
import tempfile

import numpy as np
import pandas as pd

from harness import POSENC, expect, finish
from learned_reference import learned



def posenc(*args):
    subprocess.run([POSENC, *args], check=True, stderr=subprocess.DEVNULL)


# --- formulas -----------------------------------------------------------------------------

def paper_sinusoidal(n, d, base=10000.0):
    # Vaswani et al. 2017: PE[t, 2k] = sin(t / base^(2k/d)), PE[t, 2k+1] = cos(same)
    t = np.arange(n, dtype=np.float64)[:, None]
    w = base ** (-np.arange(0, d, 2, dtype=np.float64) / d)
    pe = np.empty((n, d))
    pe[:, 0::2] = np.sin(t * w)
    pe[:, 1::2] = np.cos(t * w)
    return pe


def concat_sin_cos(t, w, d):
    pe = np.concatenate([np.sin(t * w), np.cos(t * w)], axis=1)
    if d % 2:  # both pad an odd width with one zero column
        pe = np.concatenate([pe, np.zeros((pe.shape[0], 1))], axis=1)
    return pe


def tensor2tensor(n, d, base=10000.0):
    # get_timing_signal_1d(length, channels, min_timescale=1, max_timescale=base)
    k = d // 2
    inc = math.log(base) / max(k - 1, 1)
    w = np.exp(-np.arange(k, dtype=np.float64) * inc)
    return concat_sin_cos(np.arange(n, dtype=np.float64)[:, None], w, d)


def fairseq(n, d, padding_idx=1):
    # SinusoidalPositionalEmbedding.get_embedding: half = d // 2, exp(-k ln(10000)/(half-1)),
    # cat(sin, cos); make_positions numbers real tokens from padding_idx + 1
    half = d // 2
    w = np.exp(-np.arange(half, dtype=np.float64) * math.log(10000.0) / (half - 1))
    t = (np.arange(n, dtype=np.float64) + padding_idx + 1)[:, None]
    return concat_sin_cos(t, w, d)


def sine(n, d, frequencies="pow2"):
    i = np.arange(d, dtype=np.float64)
    w = 2.0 ** -i if frequencies == "pow2" else (10000.0 ** (-i / (d - 1)) if d > 1 else np.ones(1))
    return np.sin(np.arange(n, dtype=np.float64)[:, None] * w)


def binary(n, d, order="msb"):
    t = np.arange(n)[:, None]
    b = (d - 1 - np.arange(d)) if order == "msb" else np.arange(d)
    return ((t >> b) & 1).astype(np.float64)


def integer(n, d):
    return np.repeat(np.arange(n, dtype=np.float64)[:, None], d, axis=1)


def normalized(n, d):
    return np.repeat((np.arange(n, dtype=np.float64) / (n - 1))[:, None], d, axis=1)


def recurrent(n, d, base=10000.0):
    # p_0 = (0, 1, 0, 1, ...); (s, c) <- (s cos w + c sin w, c cos w - s sin w), interleaved
    w = base ** (-np.arange(0, d, 2, dtype=np.float64) / d)
    cw, sw = np.cos(w), np.sin(w)
    s, c = np.zeros(d // 2), np.ones(d // 2)
    out = np.empty((n, d))
    for t in range(n):
        out[t, 0::2], out[t, 1::2] = s, c
        s, c = s * cw + c * sw, c * cw - s * sw
    return out


# --- checks -------------------------------------------------------------------------------

def max_diff(a, b):
    return float(np.max(np.abs(np.asarray(a, dtype=np.float64) - b))) if a.shape == b.shape else float("inf")


def check_scheme(tmp, label, args, ref, first_position=0):
    """npy (float32 and float64), CSV (pandas) and JSON (json.load) of one scheme against `ref`."""
    n = ref.shape[0]
    for dtype, tol in (("float32", 1e-6), ("float64", 1e-12)):
        npy = os.path.join(tmp, f"{label}-{dtype}.npy")
        posenc("generate", *args, "--dtype", dtype, "-o", npy)
        a = np.load(npy)
        expect(a.dtype == np.dtype(dtype), f"{label} npy {dtype}: dtype {a.dtype}")
        expect(max_diff(a, ref) <= tol, f"{label} npy {dtype}: shape {a.shape} vs {ref.shape}, diff {max_diff(a, ref)}")

        csv = os.path.join(tmp, f"{label}-{dtype}.csv")
        posenc("generate", *args, "--dtype", dtype, "-o", csv)
        df = pd.read_csv(csv, index_col=0, float_precision="round_trip")
        expect(list(df.index) == list(range(first_position, first_position + n)), f"{label} csv {dtype}: positions")
        expect(max_diff(df.to_numpy(), ref) <= tol, f"{label} csv {dtype}: diff {max_diff(df.to_numpy(), ref)}")
        # the CSV prints the npy's values, shortest round-trip text of each float32/float64
        expect(np.array_equal(df.to_numpy().astype(a.dtype), a), f"{label} csv {dtype}: differs from the npy")

        js = os.path.join(tmp, f"{label}-{dtype}.json")
        posenc("generate", *args, "--dtype", dtype, "-o", js)
        with open(js) as f:
            j = json.load(f)
        data = np.array(j["data"], dtype=np.float64)
        expect(j["shape"] == list(ref.shape) and j["dtype"] == dtype, f"{label} json {dtype}: {j['shape']} {j['dtype']}")
        expect(j["scheme"] == args[0] and isinstance(j["params"], dict), f"{label} json {dtype}: scheme/params")
        expect(j.get("first_position", 0) == first_position, f"{label} json {dtype}: first_position")
        expect(max_diff(data, ref) <= tol, f"{label} json {dtype}: diff {max_diff(data, ref)}")
    return j


def binary_to_terminal():
    """Binary formats are refused when stdout is a terminal (a pty here)."""
    for args in (["generate", "integer", "--format", "npy"], ["generate", "integer", "--format", "png"],
                 ["generate", "integer", "--format", "npy", "-o", "/dev/stdout"]):
        master, slave = pty.openpty()
        r = subprocess.run([POSENC, *args], stdout=slave, stderr=subprocess.PIPE, timeout=60)
        os.close(slave)
        os.set_blocking(master, False)
        try:
            written = os.read(master, 4096)
        except (BlockingIOError, OSError):
            written = b""
        os.close(master)
        err = r.stderr.decode()
        expect(r.returncode == 2 and err.startswith("posenc: error: refusing to write binary") and "terminal" in err,
               f"{args} to a terminal: exit {r.returncode} {err!r}")
        expect(written == b"", f"{args} to a terminal wrote {written[:40]!r}")
    # text formats are fine on a terminal
    master, slave = pty.openpty()
    r = subprocess.run([POSENC, "generate", "integer", "--len", "2"], stdout=slave, stderr=subprocess.PIPE, timeout=60)
    os.close(slave)
    os.close(master)
    expect(r.returncode == 0, f"csv to a terminal: exit {r.returncode} {r.stderr!r}")


def main():
    # The hand-written generator reproduces the check values docs/encodings/learned.md gives.
    row0 = learned(2, 4)
    expect(abs(row0[0, 0] - 0.019755114385360643) < 1e-18 and abs(row0[0, 2] + 0.02292184320468276) < 1e-18
           and abs(row0[1, 0] + 0.008715019515426393) < 1e-18, f"learned check values: {row0}")

    with tempfile.TemporaryDirectory() as tmp:
        check_scheme(tmp, "paper", ["sinusoidal", "--len", "50", "--dim", "128"], paper_sinusoidal(50, 128))
        check_scheme(tmp, "t2t", ["sinusoidal", "--convention", "tensor2tensor", "--len", "40", "--dim", "64"],
                     tensor2tensor(40, 64))
        check_scheme(tmp, "t2t-odd", ["sinusoidal", "--convention", "tensor2tensor", "--len", "10", "--dim", "7"],
                     tensor2tensor(10, 7))
        check_scheme(tmp, "fairseq", ["sinusoidal", "--convention", "fairseq", "--len", "40", "--dim", "64"],
                     fairseq(40, 64), first_position=2)
        check_scheme(tmp, "fairseq-pad5", ["sinusoidal", "--convention", "fairseq", "--padding-idx", "5", "--len", "8",
                                           "--dim", "9"], fairseq(8, 9, padding_idx=5), first_position=6)
        check_scheme(tmp, "sine", ["sine", "--len", "30", "--dim", "16"], sine(30, 16))
        check_scheme(tmp, "sine-paper", ["sine", "--frequencies", "paper", "--len", "30", "--dim", "16"],
                     sine(30, 16, "paper"))
        check_scheme(tmp, "binary", ["binary", "--len", "64", "--dim", "8"], binary(64, 8))
        check_scheme(tmp, "binary-lsb", ["binary", "--bit-order", "lsb", "--len", "20", "--dim", "5"],
                     binary(20, 5, "lsb"))
        check_scheme(tmp, "integer", ["integer", "--len", "30", "--dim", "3"], integer(30, 3))
        check_scheme(tmp, "normalized", ["normalized", "--len", "7", "--dim", "2"], normalized(7, 2))
        check_scheme(tmp, "learned", ["learned", "--len", "20", "--dim", "9", "--seed", "3", "--std", "0.5"],
                     learned(20, 9, seed=3, std=0.5))
        rec = check_scheme(tmp, "recurrent", ["recurrent", "--len", "200", "--dim", "16", "--base", "100"],
                           recurrent(200, 16, base=100.0))
        # ... and its reported drift is the largest difference of its table from the closed form
        table = np.load(os.path.join(tmp, "recurrent-float64.npy"))
        drift = float(np.max(np.abs(table - paper_sinusoidal(200, 16, base=100.0))))
        expect(abs(rec["results"]["max_drift"] - drift) <= 1e-15 and drift < 1e-12,
               f"recurrent drift {rec['results']['max_drift']} vs {drift}")

        # A user's own table goes through --input unchanged.
        rng = np.random.default_rng(0)
        mine = rng.normal(size=(7, 5))
        src = os.path.join(tmp, "mine.npy")
        np.save(src, mine)
        back = os.path.join(tmp, "back.npy")
        posenc("generate", "--input", src, "--dtype", "float64", "-o", back)
        expect(np.array_equal(np.load(back), mine), "--input npy float64 round trip")
        src32 = os.path.join(tmp, "mine32.npy")
        np.save(src32, mine.astype(np.float32))
        posenc("generate", "--input", src32, "-o", back)
        expect(np.array_equal(np.load(back), mine.astype(np.float32)), "--input npy float32 round trip")
        # pandas' own CSV (unnamed index, default integer labels) reads back exactly
        pd.DataFrame(mine).to_csv(os.path.join(tmp, "mine.csv"))
        posenc("generate", "--input", os.path.join(tmp, "mine.csv"), "--dtype", "float64", "-o", back)
        expect(np.allclose(np.load(back), mine, rtol=0, atol=1e-15), "--input pandas csv")
    binary_to_terminal()
    finish()


if __name__ == "__main__":
    main()
