"""`generate rope --table rotated` (issue 26 item 19): row n is R_n·ones, the all-ones query
rotated as transformers' apply_rotary_pos_emb does it (q·cos + rotate_half(q)·sin; half layout:
dims i and i + R/2 of pair i; interleaved: 2i, 2i + 1), so the dot product of rows m and n is the
q = k = ones score 2·Σ_i cos((m − n)·θ_i) + (passed-through dims). Expected values from numpy in
double: θ_i = base^(−2i/R); tolerance 1e-12 absolute (double output, --precision f64)."""
import io

import numpy as np

from harness import expect, finish, run


def npy(*args):
    r = run("generate", "rope", *args, "--format", "npy", "--dtype", "float64", "-o", "-")
    return (np.load(io.BytesIO(r.stdout)) if r.returncode == 0 else None), r.stderr.decode()


def rotated(n, d, rot, base, layout):
    P = rot // 2
    theta = base ** (-2.0 * np.arange(P) / rot)
    ang = np.arange(n)[:, None] * theta[None, :]
    c, s = np.cos(ang), np.sin(ang)
    out = np.ones((n, d))
    if layout == "half":
        out[:, :P], out[:, P:2 * P] = c - s, s + c
    else:
        out[:, 0:2 * P:2], out[:, 1:2 * P:2] = c - s, s + c
    return out, theta


for d, rot, base, layout in ((16, 16, 10000.0, "half"), (12, 12, 500.0, "interleaved"), (16, 8, 10000.0, "half")):
    want, theta = rotated(20, d, rot, base, layout)
    got, err = npy("--table", "rotated", "--len", "20", "--dim", str(d), "--rotary-dim", str(rot), "--base", str(base),
                   "--layout", layout, "--precision", "f64")
    ok = got is not None and got.shape == want.shape and np.abs(got - want).max() < 1e-12
    expect(ok, f"rope rotated d={d} R={rot} {layout}: {err} "
               f"{np.abs(got - want).max() if got is not None and got.shape == want.shape else None}")
    if ok:  # the scores of q = k = ones: 2 Σ cos(Δθ_i) + d − R
        g = got @ got.T
        delta = np.arange(20)[:, None] - np.arange(20)[None, :]
        score = 2 * np.cos(delta[..., None] * theta).sum(-1) + (d - rot)
        expect(np.abs(g - score).max() < 1e-10, f"rotated rows' dot products are the q = k = ones scores ({d} {layout})")
# float32 (the default precision), as transformers computes it: inv_freq = 1/(base^(arange(0, d, 2)/d)) and the
# angles t·inv_freq in float32, cos/sin rounded to float32, then q·cos + rotate_half(q)·sin in float32.
# Tolerance 3e-7 (2 float32 ulps near 1.4; numpy's float32 pow may differ from the library's by one ulp).
inv = (1.0 / (np.float32(10000.0) ** (np.arange(0, 32, 2, dtype=np.float32) / np.float32(32)))).astype(np.float32)
ang = (np.arange(64, dtype=np.float32)[:, None] * inv[None, :]).astype(np.float32).astype(np.float64)
c, s = np.cos(ang).astype(np.float32), np.sin(ang).astype(np.float32)
want = np.concatenate([(c - s).astype(np.float32), (s + c).astype(np.float32)], axis=1).astype(np.float64)
got, err = npy("--table", "rotated", "--len", "64", "--dim", "32")
expect(got is not None and got.shape == want.shape and np.abs(got - want).max() < 3e-7,
       f"rope rotated f32: {err} {np.abs(got - want).max() if got is not None and got.shape == want.shape else None}")

finish()
