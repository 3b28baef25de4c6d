"""The analysis commands through the real binary: check's exit codes from a shell's
point of view, decay CSV and similarity .npy read with pandas and numpy and compared
with formulas computed here, and the ALiBi H x N x N .npy."""
import json
import os
import tempfile

import numpy as np
import pandas as pd

from harness import expect, finish, run as run_bytes


def run(*args):
    return run_bytes(*args, text=True)





def paper_omega(d, base=10000.0):
    return base ** (-np.arange(0, d, 2, dtype=np.float64) / d)


def main():
    # check: 0 all hold, 1 one fails, 2 does not apply / bad input.
    for argv, code in [
        (["check", "sinusoidal", "--len", "200", "--dim", "32"], 0),
        (["check", "learned", "--len", "100", "--dim", "16", "--identity", "shift-linear"], 1),
        (["check", "sine", "--dim", "2", "--len", "1000", "--identity", "unique"], 1),
        (["check", "alibi", "--form", "causal"], 0),
        (["check", "t5", "--len", "300"], 0),
        (["check", "rope", "--dim", "64", "--identity", "dot-symmetric"], 1),
        (["check", "rope", "--dim", "64", "--identity", "dot-symmetric", "--qk", "same"], 0),
        # RoPE identities that fail for real: float32 angles at long range.
        (["check", "rope", "--dim", "64", "--len", "4096", "--identity", "rope-relative"], 0),
        (["check", "rope", "--dim", "64", "--len", "4096", "--precision", "f32", "--identity", "rope-relative"], 1),
        (["check", "rope", "--dim", "64", "--len", "4096", "--identity", "dot-shift-invariant"], 0),
        (["check", "rope", "--dim", "64", "--len", "4096", "--precision", "f32", "--identity", "dot-shift-invariant"], 1),
        (["check", "rope", "--dim", "64", "--identity", "rope-norm"], 0),
        (["check", "rope", "--dim", "64", "--scaling", "yarn", "--factor", "4", "--original-max-position-embeddings",
          "2048", "--identity", "rope-norm"], 0),  # the attention factor is divided out
        (["check", "rope", "--dim", "64", "--precision", "f32", "--len", "100000", "--tol", "0",
          "--identity", "rope-forms-agree"], 0),
        (["check", "rope", "--dim", "64", "--tol", "1e-15", "--identity", "layouts-agree"], 0),
        (["check", "alibi", "--identity", "unique"], 2),
        (["check", "learned", "--identity", "shift-linear"], 2),
    ]:
        r = run(*argv)
        expect(r.returncode == code, f"{argv}: exit {r.returncode}, want {code}; {r.stderr!r}")
        if code == 2:
            expect(r.stderr.count("\n") == 1 and r.stderr.startswith("posenc: error:"), f"{argv}: stderr {r.stderr!r}")

    r = run("check", "integer", "--len", "10", "--format", "json")
    j = json.loads(r.stdout)
    expect(j["all_hold"] is False and {"name", "holds", "max_error", "tolerance", "worst"} <= set(j["identities"][0]),
           "check json keys")

    with tempfile.TemporaryDirectory() as tmp:
        # decay: Σ_k cos(w_k Δ) in pandas.
        path = os.path.join(tmp, "decay.csv")
        r = run("decay", "sinusoidal", "--dim", "64", "--max-offset", "300", "--dtype", "float64", "-o", path)
        expect(r.returncode == 0, f"decay: {r.stderr!r}")
        df = pd.read_csv(path)
        want = np.cos(np.outer(df["offset"].to_numpy(), paper_omega(64))).sum(axis=1)
        expect(list(df.columns) == ["offset", "dot"], f"decay columns {list(df.columns)}")
        expect(np.allclose(df["dot"].to_numpy(), want, atol=1e-9), "decay values")

        # similarity: the cosine matrix of the paper's table, via numpy.
        path = os.path.join(tmp, "sim.npy")
        r = run("similarity", "sinusoidal", "--len", "40", "--dim", "16", "--dtype", "float64", "-o", path)
        expect(r.returncode == 0, f"similarity: {r.stderr!r}")
        s = np.load(path)
        t = np.arange(40.0)[:, None] * paper_omega(16)
        pe = np.empty((40, 16))
        pe[:, 0::2], pe[:, 1::2] = np.sin(t), np.cos(t)
        norms = np.linalg.norm(pe, axis=1)
        expect(s.shape == (40, 40) and np.allclose(s, pe @ pe.T / np.outer(norms, norms), atol=1e-9), "similarity")

        # alibi: H x N x N with slopes 1/2 ... 1/256 and -m|i-j|.
        path = os.path.join(tmp, "alibi.npy")
        r = run("generate", "alibi", "--len", "5", "--heads", "8", "--dtype", "float64", "-o", path)
        expect(r.returncode == 0, f"alibi: {r.stderr!r}")
        a = np.load(path)
        i = np.arange(5)
        m = 2.0 ** -np.arange(1, 9)
        expect(a.shape == (8, 5, 5) and np.array_equal(a, -m[:, None, None] * np.abs(i[:, None] - i[None, :])), "alibi")

        # check --input: a NaN fails every identity (exit 1) at its cell; an H x N x N ALiBi .npy
        # from numpy is checked per head.
        table = np.sin(np.arange(40.0)[:, None] * paper_omega(8))
        table[6, 3] = np.nan
        path = os.path.join(tmp, "nan.npy")
        np.save(path, table)
        r = run("check", "--input", path, "--format", "json")
        j = json.loads(r.stdout)
        expect(r.returncode == 1 and all(i["worst"] == {"t": 6, "dim": 3} and i["max_error"] is None
                                         for i in j["identities"]), f"nan check: {r.returncode} {r.stdout[:300]!r}")
        i5 = np.arange(5)
        heads = -(2.0 ** -np.arange(1, 5))[:, None, None] * np.abs(i5[:, None] - i5[None, :])
        path = os.path.join(tmp, "heads.npy")
        np.save(path, heads)
        r = run("check", "--input", path)
        expect(r.returncode == 0 and "4 head(s) of 5 x 5" in r.stdout, f"3-D check: {r.returncode} {r.stdout!r}")
        heads[2, 3, 1] += 0.5  # offset -2, which rows 2, 3 and 4 share (offset -4 is in row 4 alone)
        np.save(path, heads)
        r = run("check", "--input", path, "--format", "json")
        expect(r.returncode == 1 and json.loads(r.stdout)["identities"][0]["worst"]["head"] == 2, "3-D check fails")

        # decay --base as a list: one column per value, each sum_k cos(w_k delta).
        r = run("decay", "sinusoidal", "--dim", "16", "--base", "100,10000", "--max-offset", "50", "--dtype", "float64",
                "--format", "csv")
        path = os.path.join(tmp, "bases.csv")
        with open(path, "w") as f:
            f.write(r.stdout)
        df = pd.read_csv(path)
        expect(list(df.columns) == ["offset", "base=100: dot", "base=10000: dot"], f"base list columns {list(df.columns)}")
        for b in (100, 10000):
            want = np.cos(np.outer(df["offset"].to_numpy(), paper_omega(16, b))).sum(axis=1)
            expect(np.allclose(df[f"base={b}: dot"].to_numpy(), want, atol=1e-12), f"base list values {b}")

        # project: sine --dim 3 coordinates are the table's columns.
        path = os.path.join(tmp, "loop.csv")
        r = run("project", "sine", "--dim", "3", "--len", "100", "--dtype", "float64", "-o", path)
        expect(r.returncode == 0, f"project: {r.stderr!r}")
        p = pd.read_csv(path)
        expect(np.allclose(p.iloc[:, 1:].to_numpy(), np.sin(np.arange(100.0)[:, None] / 2.0 ** np.arange(3))), "project")

        # PNG outputs are PNGs.
        for argv in (["decay", "rope", "--dim", "128"], ["project", "sine", "--dim", "3", "--len", "300"],
                     ["similarity", "sinusoidal", "--len", "30"]):
            path = os.path.join(tmp, "out.png")
            r = run(*argv, "-o", path)
            with open(path, "rb") as f:
                expect(r.returncode == 0 and f.read(8) == b"\x89PNG\r\n\x1a\n", f"{argv} png")
    finish()


if __name__ == "__main__":
    main()
