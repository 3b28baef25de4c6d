"""Scheme details that must match the codebase they name (issue 26 item 21), against numpy
re-derivations of the references:
- MPT: mosaicml/llm-foundry llmfoundry/models/layers/attention.py @ 11d3d706 gen_slopes and
  build_alibi_bias(full=False): the causal bias is slopes · arange(1 - L, 1) per key, m·(j − (L − 1)),
  with the causal mask (−inf for j > i, posenc's convention); float32 slopes times int32 positions.
  Tolerance: exact (float32 products of powers of two and small integers).
- KERPLE: NVIDIA/NeMo position_embedding/kerple_relative_position_embedding.py @ d5cc8b44 starts
  kerple_b (posenc's p) at the ALiBi slopes build_slopes(8) = 2^-1 … 2^-8 and a = 1: the bias
  −p·ln(1 + |i − j|) for p = 1/256 is accepted with a note, not refused. Tolerance 1e-15 relative.
"""
import io
import math

import numpy as np

from harness import expect, finish, run


def npy(*args):
    r = run("generate", *args, "--format", "npy", "--dtype", "float64", "-o", "-")
    return (np.load(io.BytesIO(r.stdout)) if r.returncode == 0 else None), r.stderr.decode()


# MPT causal: gen_slopes(8 heads, alibi_bias_max 8) = 1/2^(k·8/8), k = 1..8, float32.
L, H = 6, 8
slopes = (1.0 / np.power(np.float32(2), np.arange(1, H + 1, dtype=np.float32) * np.float32(8 / H))).astype(np.float32)
pos = np.arange(1 - L, 1, dtype=np.int32).reshape(1, 1, L)
want = (pos * slopes.reshape(H, 1, 1)).astype(np.float32).astype(np.float64)  # every query row alike
want = np.broadcast_to(want, (H, L, L)).copy()
want[:, np.triu_indices(L, 1)[0], np.triu_indices(L, 1)[1]] = -np.inf
got, err = npy("alibi", "--variant", "mpt", "--form", "causal", "--len", str(L), "--heads", str(H))
expect(got is not None and got.shape == want.shape and np.array_equal(got, want),
       f"alibi --variant mpt --form causal is build_alibi_bias: {err} {None if got is None else got[1]}")
# --form shifted is the same matrix; the paper variant's causal form stays m·j (fairseq, BLOOM).
got_s, err = npy("alibi", "--variant", "mpt", "--form", "shifted", "--len", str(L), "--heads", str(H))
expect(got_s is not None and np.array_equal(got_s, want), f"mpt shifted = mpt causal: {err}")
got_p, err = npy("alibi", "--form", "causal", "--len", str(L), "--heads", str(H), "--head", "0")
want_p = np.where(np.arange(L)[None, :] <= np.arange(L)[:, None], 0.5 * np.arange(L)[None, :], -np.inf)
expect(got_p is not None and np.array_equal(got_p, want_p), f"paper causal m·j: {err}")

# KERPLE with NeMo's initial p (the ALiBi slopes of 8 heads, down to 1/256), a = 1.
p = [2.0 ** -(k + 1) for k in range(8)]
got, err = npy("kerple", "--p", ",".join(repr(v) for v in p), "--a", "1", "--len", "5")
d = np.abs(np.arange(5)[:, None] - np.arange(5)[None, :]).astype(np.float64)
want = np.stack([-v * np.log1p(d) for v in p])
expect(got is not None and got.shape == (8, 5, 5) and np.allclose(got, want, rtol=1e-15, atol=0),
       f"kerple p = ALiBi slopes accepted: {err}")
notes = [line for line in err.splitlines() if line.strip()]
expect(len(notes) == 1 and notes[0].startswith("posenc: note: --p 0.0078125,0.00390625 below 0.01")
       and "NeMo" in notes[0], f"kerple p < 0.01 is one note naming the values: {err!r}")
# What stays refused: p <= 0, power p > 2, a below the reference's eps.
for bad, what in ((["--p", "0"], "--p"), (["--p", "-1"], "--p"), (["--kind", "power", "--p", "2.5"], "--p"),
                  (["--a", "0.001"], "--a")):
    r = run("generate", "kerple", *bad, "--len", "3", "--format", "csv", text=True)
    expect(r.returncode == 2 and r.stderr.count("\n") == 1 and what in r.stderr, f"kerple {bad}: {r.stderr}")

finish()
