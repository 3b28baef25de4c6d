"""check on a sinusoidal table decides its identities by closed forms, O(N·D) with the rows
streamed (issue 15, item 8; it was O(N²·D) for unique and O(N·K·D) for the offset identities,
over a table held in memory). Each closed-form result is compared with the direct
computation done here in numpy on the same table, built from the paper's formula
PE[t, 2k] = sin(t / 10000^(2k/d)), PE[t, 2k+1] = cos(...) (Vaswani et al. 2017, §3.5)."""
import json

import numpy as np

from harness import expect, finish, run


def table(n, d, base=10000.0):
    t = np.arange(n, dtype=np.float64)[:, None]
    w = base ** (-np.arange(0, d, 2, dtype=np.float64) / d)
    pe = np.zeros((n, d))
    pe[:, 0::2] = np.sin(t * w)
    pe[:, 1::2] = np.cos(t * w)
    return pe


def check_json(*args):
    r = run("check", "sinusoidal", *args, "--format", "json", text=True)
    expect(r.returncode in (0, 1), f"check {args}: exit {r.returncode}: {r.stderr!r}")
    return r.returncode, {i["name"]: i for i in json.loads(r.stdout)["identities"]}


def closest_pair(pe):
    """Smallest |PE_i - PE_j| over all pairs, by brute force in blocks."""
    best, at = np.inf, None
    for i in range(len(pe) - 1):
        d = np.sqrt(((pe[i + 1:] - pe[i]) ** 2).sum(axis=1))
        j = int(d.argmin())
        if d[j] < best:
            best, at = d[j], (i, i + 1 + j)
    return best, at


def main():
    n, d, k = 1500, 16, 200
    pe = table(n, d)
    scale = np.sqrt((pe ** 2).sum(axis=1)).max()
    code, ids = check_json("--len", str(n), "--dim", str(d), "--max-offset", str(k))
    expect(code == 0, f"exit {code}")
    # shift-linear: the closed form reports an upper bound of the direct error (block rotation).
    worst = 0.0
    for delta in range(1, k + 1):
        w = 10000.0 ** (-np.arange(0, d, 2) / d)
        c, s = np.cos(w * delta), np.sin(w * delta)
        a, b = pe[:-delta], pe[delta:]
        es = a[:, 0::2] * c + a[:, 1::2] * s - b[:, 0::2]
        ec = a[:, 1::2] * c - a[:, 0::2] * s - b[:, 1::2]
        worst = max(worst, np.sqrt((es ** 2 + ec ** 2).sum(axis=1)).max() / scale)
    sl = ids["shift-linear"]
    expect(sl["holds"] and worst <= sl["max_error"] + 1e-15 and sl["max_error"] < 1e-12,
           f"shift-linear: direct {worst}, closed-form bound {sl['max_error']}")
    # dot identities: direct errors within the bound.
    dots = pe @ pe.T
    inv = max(abs(np.diag(dots, delta)[1:] - dots[0, delta]).max() for delta in range(0, k + 1)) / scale ** 2
    sym = max(abs(np.diag(dots, delta)[delta:] - np.diag(dots, -delta)[:n - 2 * delta]).max()
              for delta in range(1, k + 1)) / scale ** 2
    for name, direct in (("dot-shift-invariant", inv), ("dot-symmetric", sym)):
        r = ids[name]
        expect(r["holds"] and direct <= r["max_error"] + 1e-15 and r["max_error"] < 1e-12,
               f"{name}: direct {direct}, closed-form bound {r['max_error']}")
    # unique: the same smallest distance (over every pair) and the same offset j - i.
    best, (i, j) = closest_pair(pe)
    u = ids["unique"]
    expect(abs(u["max_error"] - best / scale) <= 1e-12, f"unique: {u['max_error']} vs numpy {best / scale}")
    expect(u["worst"]["j"] - u["worst"]["i"] == j - i, f"unique: offset {u['worst']} vs numpy {(i, j)}")
    expect("closed form" in u["note"], f"unique note: {u['note']!r}")
    b = ids["bounded"]
    expect(b["max_error"] == abs(pe).max(), f"bounded: {b['max_error']} vs {abs(pe).max()}")

    # One frequency (d = 2, w = 1): positions 710 apart nearly coincide (710 ≈ 113·2π):
    # |PE_i - PE_{i+710}| = 2|sin(355)| ≈ 6e-5 < 1e-3. The closed form finds it, exit 1.
    pe2 = table(1000, 2)
    best2, (i2, j2) = closest_pair(pe2)
    code, ids2 = check_json("--len", "1000", "--dim", "2", "--identity", "unique")
    u2 = ids2["unique"]
    expect(code == 1 and not u2["holds"], f"dim 2: exit {code}, {u2}")
    expect(j2 - i2 == 710 and u2["worst"]["j"] - u2["worst"]["i"] == 710, f"dim 2: pair {u2['worst']} numpy {(i2, j2)}")
    expect(abs(u2["max_error"] - best2) <= 1e-12, f"dim 2: {u2['max_error']} vs {best2}")

    # Streamed: the table is never held. 400000 x 16 doubles are 49 MiB, refused under
    # --max-memory 16M when every identity was checked on the table in memory.
    r = run("check", "sinusoidal", "--len", "400000", "--dim", "16", "--max-memory", "16M", text=True)
    expect(r.returncode == 0 and r.stdout.endswith("all 5 identities hold\n"), f"streamed: {r.returncode} {r.stderr!r}")
    # A tolerance the bound cannot meet falls back to the direct check on the table.
    r = run("check", "sinusoidal", "--len", "400", "--dim", "16", "--tol", "0", "--identity", "shift-linear",
            "--format", "json", text=True)
    note = json.loads(r.stdout)["identities"][0]["note"] if r.stdout else ""
    expect("closed form" not in note and "every t" in note, f"--tol 0: {note!r}")
    finish()


main()
