"""Scheme details that must match the codebase they name (issue 26 item 21), against numpy
re-derivations of the references:
- MPT: mosaicml/llm-foundry llmfoundry/models/layers/attention.py @ 11d3d706 gen_slopes and
  build_alibi_bias(full=False): the causal bias is slopes · arange(1 - L, 1) per key, m·(j − (L − 1)),
  with the causal mask (−inf for j > i, posenc's convention); float32 slopes times int32 positions.
  Tolerance: exact (float32 products of powers of two and small integers).
"""
import io

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

finish()
