"""decay and check on xpos and shaw (issue 19), against numpy closed forms and with exit codes:
- decay xpos: sum_i 2 zeta_i^((m-n)/gamma) cos((m-n) theta_i) for q = k = ones (m - n = -delta, keys at
  T + delta), next to RoPE's sum_i 2 cos((m-n) theta_i); schemes.md section 1: d = 64, delta = -1000 gives
  12.09 against 17.85. Tolerance 1e-9 relative (float64 output).
- check xpos: xpos-relative holds (exit 0) and fails when keys are scaled like queries (exit 1).
- decay shaw: clip(delta, -k, k) + k (tensor2tensor) and -delta + max - 1 (transformers relative_key).
- check shaw: bias-relative holds in both conventions (exit 0)."""
import io

import numpy as np

from harness import expect, finish, run


def csv(*args):
    r = run(*args, "--format", "csv", "--dtype", "float64", text=True)
    expect(r.returncode == 0, f"{args}: {r.stderr}")
    if r.returncode != 0:
        return None, None
    header = r.stdout.splitlines()[0].split(",")
    return header, np.loadtxt(io.StringIO(r.stdout), delimiter=",", skiprows=1, ndmin=2)


for dim, gamma in ((64, 512), (16, 100)):
    header, got = csv("decay", "xpos", "--dim", str(dim), "--scale-base", str(gamma), "--max-offset", "1000")
    if got is None:
        continue
    delta = got[:, 0]
    expect(delta[0] == -1000 and delta[-1] == 0, f"xpos offsets run -K..0 (causal): {delta[0]}..{delta[-1]}")
    zeta = (np.arange(0, dim, 2) + 0.4 * dim) / (1.4 * dim)
    theta = 10000.0 ** (-np.arange(0, dim, 2) / dim)
    mn = -delta[:, None]
    want_x = (2 * zeta[None, :] ** (mn / gamma) * np.cos(mn * theta[None, :])).sum(axis=1)
    want_r = (2 * np.cos(mn * theta[None, :])).sum(axis=1)
    xi = [i for i, h in enumerate(header) if h.startswith("xpos")]
    ri = [i for i, h in enumerate(header) if h.startswith("rope")]
    expect(len(xi) == 1 and len(ri) == 1, f"xpos and rope columns in {header}")
    if len(xi) == 1 and len(ri) == 1:
        expect(np.allclose(got[:, xi[0]], want_x, rtol=1e-9, atol=1e-9), f"xpos decay d={dim} gamma={gamma}")
        expect(np.allclose(got[:, ri[0]], want_r, rtol=1e-9, atol=1e-9), f"rope decay d={dim}")
    if dim == 64:
        expect(abs(got[0, xi[0]] - 12.086306212203427) < 1e-9 and abs(got[0, ri[0]] - 17.851933499836882) < 1e-9,
               f"d=64, delta=-1000: {got[0, xi[0]]} vs {got[0, ri[0]]}")

for extra, code in (((), 0), (("--convention", "lucidrains"), 0), (("--centre", "zero"), 0),
                    (("--key-scale", "same"), 1), (("--key-scale", "same", "--qk", "random"), 1)):
    r = run("check", "xpos", "--len", "601", *extra, text=True)
    expect(r.returncode == code and "xpos-relative" in r.stdout, f"check xpos {extra}: exit {r.returncode}\n{r.stdout}{r.stderr}")

for conv, k_or_max, want in (("t2t", ("--k", "8"), lambda d: np.clip(d, -8, 8) + 8),
                             ("hf", ("--max-position", "512"), lambda d: -d + 511)):
    header, got = csv("decay", "shaw", "--convention", conv, *k_or_max, "--max-offset", "50", "--symmetric")
    if got is not None:
        expect(np.array_equal(got[:, 1], want(got[:, 0])), f"decay shaw {conv}")
    r = run("check", "shaw", "--convention", conv, *k_or_max, "--len", "64", text=True)
    expect(r.returncode == 0 and "bias-relative" in r.stdout, f"check shaw {conv}: {r.returncode} {r.stdout}")
r = run("decay", "shaw", "--convention", "hf", "--max-position", "16", "--max-offset", "20", text=True)
expect(r.returncode == 2 and r.stderr.startswith("posenc: error: offset") and r.stderr.count("\n") == 1,
       f"decay shaw hf past max-position: {r.returncode} {r.stderr}")
r = run("decay", "xpos", "--metric", "cosine", text=True)
expect(r.returncode == 2 and "xpos decay plots its score against the offset" in r.stderr, f"decay xpos --metric: {r.stderr}")
finish()
