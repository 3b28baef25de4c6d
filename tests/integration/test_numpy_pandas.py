"""posenc's .npy and CSV read back with numpy.load and pandas.read_csv, the way
users load them, and equal to the paper's formula computed here with numpy."""
import os
import subprocess
import sys
import tempfile

import numpy as np
import pandas as pd

POSENC = sys.argv[1]


def posenc(*args):
    subprocess.run([POSENC, *args], check=True)


def paper_sinusoidal(n, d, base=10000.0):
    # Vaswani et al. 2017: PE[t, 2k] = sin(t / base^(2k/d)), PE[t, 2k+1] = cos(same)
    t = np.arange(n, dtype=np.float64)[:, None]
    w = base ** (-np.arange(0, d, 2, dtype=np.float64) / d)
    pe = np.empty((n, d))
    pe[:, 0::2] = np.sin(t * w)
    pe[:, 1::2] = np.cos(t * w)
    return pe


def main():
    with tempfile.TemporaryDirectory() as tmp:
        ref = paper_sinusoidal(50, 128)

        npy64 = os.path.join(tmp, "pe64.npy")
        posenc("generate", "sinusoidal", "--len", "50", "--dim", "128", "--dtype", "float64", "-o", npy64)
        a = np.load(npy64)
        assert a.dtype == np.float64 and a.shape == (50, 128), (a.dtype, a.shape)
        assert np.max(np.abs(a - ref)) < 1e-12, np.max(np.abs(a - ref))

        npy32 = os.path.join(tmp, "pe32.npy")
        posenc("generate", "sinusoidal", "--len", "50", "--dim", "128", "-o", npy32)
        b = np.load(npy32)
        assert b.dtype == np.float32 and b.shape == (50, 128)
        # float32 output comes from the fast float path: within 1.6e-7 of the double formula
        # (numpy's own float32 recipe is off by far more at large positions)
        assert np.max(np.abs(b.astype(np.float64) - ref)) <= 1.6e-7, np.max(np.abs(b - ref))

        csv = os.path.join(tmp, "pe.csv")
        posenc("generate", "sinusoidal", "--len", "50", "--dim", "128", "-o", csv)
        df = pd.read_csv(csv, float_precision="round_trip")
        assert df.columns[0] == "position" and df.shape == (50, 129), (df.columns[0], df.shape)
        assert list(df["position"]) == list(range(50))
        # float32 CSV prints the same floats as the float32 .npy (the fast float path), as
        # shortest round-trip text: it reads back bit-exactly, within 1.6e-7 of the formula
        c = df.iloc[:, 1:].to_numpy().astype(np.float32)
        assert np.array_equal(c, b)
        assert np.max(np.abs(c.astype(np.float64) - ref)) <= 1.6e-7, np.max(np.abs(c - ref))

        csv64 = os.path.join(tmp, "pe64.csv")
        posenc("generate", "sinusoidal", "--len", "50", "--dim", "128", "--dtype", "float64", "-o", csv64)
        df64 = pd.read_csv(csv64, float_precision="round_trip")
        assert np.array_equal(df64.iloc[:, 1:].to_numpy(), a)

        # A user's own table goes through --input unchanged.
        rng = np.random.default_rng(0)
        mine = rng.normal(size=(7, 5))
        src = os.path.join(tmp, "mine.npy")
        np.save(src, mine)
        back = os.path.join(tmp, "back.npy")
        posenc("generate", "--input", src, "--dtype", "float64", "-o", back)
        assert np.array_equal(np.load(back), mine)
        src32 = os.path.join(tmp, "mine32.npy")
        np.save(src32, mine.astype(np.float32))
        posenc("generate", "--input", src32, "-o", back)
        assert np.array_equal(np.load(back), mine.astype(np.float32))
        pd.DataFrame(mine, columns=[f"d{i}" for i in range(5)]).to_csv(os.path.join(tmp, "mine.csv"), index=False)
        posenc("generate", "--input", os.path.join(tmp, "mine.csv"), "--dtype", "float64", "-o", back)
        assert np.allclose(np.load(back), mine, rtol=0, atol=1e-15)
    print("1 passed, 0 failed")


if __name__ == "__main__":
    main()
