"""`posenc generate axial-rope` against numpy re-derivations of the references:
rotary-embedding-torch (@02a5d074) RotaryEmbedding(dim=d_axis, freqs_for='lang'|'pixel').get_axial_freqs(*grid)
(float32 freqs, index or linspace(-1, 1, n) positions, each freq repeated for its pair, axes concatenated)
and FLUX (black-forest-labs/flux src/flux/math.py rope + EmbedND, axes_dim [16, 56, 56]: float64 omega,
then float32). Tolerance 1e-6 (float32 output)."""
import json

import numpy as np

from harness import expect, finish, run


def posenc(*args):
    r = run("generate", "axial-rope", *args, "--format", "json", "--dtype", "float32", text=True)
    expect(r.returncode == 0, f"generate axial-rope {args}: {r.stderr}")
    return np.array(json.loads(r.stdout)["data"], dtype=np.float64) if r.returncode == 0 else None


def ret_axial_freqs(grid, d_axis, pixel=False, theta=10000.0, max_freq=10.0):
    if pixel:
        freqs = (np.linspace(1.0, max_freq / 2, d_axis // 2, dtype=np.float32) * np.float32(np.pi)).astype(np.float32)
    else:
        freqs = (1.0 / (np.float32(theta) ** (np.arange(0, d_axis, 2).astype(np.float32) / np.float32(d_axis)))).astype(np.float32)
    parts = []
    for ind, n in enumerate(grid):
        pos = np.linspace(-1, 1, n, dtype=np.float32) if pixel else np.arange(n).astype(np.float32)
        f = np.repeat((pos[:, None] * freqs[None, :]).astype(np.float32), 2, axis=-1)  # '... n -> ... (n r)'
        shape = [1] * len(grid) + [f.shape[-1]]
        shape[ind] = n
        parts.append(np.broadcast_to(f.reshape(shape), tuple(grid) + (f.shape[-1],)))
    return np.concatenate(parts, axis=-1).reshape(-1, sum(p.shape[-1] for p in parts))


for grid, dim, pixel in (((8, 8), 64, False), ((4, 6), 32, True), ((3, 4, 5), 48, False)):
    d_axis = dim // len(grid)
    want = ret_axial_freqs(grid, d_axis, pixel)
    args = ["--grid", "x".join(map(str, grid)), "--dim", str(dim)] + (["--positions", "pixel"] if pixel else [])
    for table, fn in (("cos", np.cos), ("sin", np.sin)):
        got = posenc(*args, "--table", table)
        w = fn(want.astype(np.float64)).astype(np.float32)
        ok = got is not None and got.shape == w.shape and np.allclose(got, w, rtol=1e-6, atol=1e-6)
        expect(ok, f"{grid} {dim} pixel={pixel} {table}: "
                   f"{np.abs(got - w).max() if got is not None and got.shape == w.shape else None}")

# FLUX: ids (0, row, col) on a 4 x 6 latent grid, axes_dim 16, 56, 56, theta 10000.
ids = np.array([(0, r, c) for r in range(4) for c in range(6)], dtype=np.float64)
cols = []
for i, d in enumerate((16, 56, 56)):
    omega = 1.0 / (10000 ** (np.arange(0, d, 2, dtype=np.float64) / d))
    cols.append(np.repeat(ids[:, i:i + 1] * omega[None, :], 2, axis=-1))
angle = np.concatenate(cols, axis=-1)
got = posenc("--grid", "1x4x6", "--dim", "128", "--axes-dim", "16,56,56", "--precision", "f64", "--table", "cos")
w = np.cos(angle).astype(np.float32)
expect(got is not None and got.shape == w.shape and np.allclose(got, w, rtol=1e-6, atol=1e-6), "flux cos")
# --axes-dim without --dim (issue 26 item 21): the head is the sum of the slices, 16 + 56 + 56 = 128,
# not the default 64; the JSON echo says dim 128.
r = run("generate", "axial-rope", "--grid", "1x4x6", "--axes-dim", "16,56,56", "--precision", "f64", "--table", "cos",
        "--format", "json", "--dtype", "float32", text=True)
j = json.loads(r.stdout) if r.returncode == 0 else {}
got = np.array(j.get("data", []), dtype=np.float64)
expect(r.returncode == 0 and j["params"]["dim"] == 128 and got.shape == w.shape
       and np.allclose(got, w, rtol=1e-6, atol=1e-6), f"flux without --dim: {r.returncode} {r.stderr}")

# check: both identities hold (exit 0); a grid larger than the check's 4096 cells is refused (exit 2).
r = run("check", "axial-rope", "--grid", "6x7x3", "--format", "json", text=True)
j = json.loads(r.stdout) if r.stdout else {}
expect(r.returncode == 0 and [i["name"] for i in j.get("identities", [])] == ["axial-relative", "rope-norm"],
       f"check axial-rope: {r.returncode} {r.stderr}")
r = run("check", "axial-rope", "--grid", "100x100", text=True)
expect(r.returncode == 2 and "4096" in r.stderr and r.stderr.count("\n") == 1, f"check 100x100: {r.stderr}")
for bad, what in ((["--grid", "8y8"], "--grid"), (["--axes-dim", "16,56,56", "--dim", "64"], "--axes-dim"),
                  (["--grid", "2x2", "--len", "5"], "--len")):
    r = run("generate", "axial-rope", *bad, "--format", "csv", text=True)
    expect(r.returncode == 2 and r.stderr.count("\n") == 1 and what in r.stderr, f"{bad}: {r.stderr}")

finish()
