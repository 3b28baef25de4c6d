"""`posenc generate/decay deberta` against numpy re-derivations of make_log_bucket_position:
transformers modeling_deberta_v2.py @ 967ed0db (float32 torch ops, no clamp) and microsoft/DeBERTa
da_utils.py @ 4d7fe0bd (float64 numpy, delta clamped to +-(max_position - 1) first); the c2p/p2c
indices of DisentangledSelfAttention (att_span = position_buckets). Exact (integers)."""
import io

import numpy as np

from harness import expect, finish, run


def buckets(rel, bucket_size, max_position, impl):
    rel = np.asarray(rel, dtype=np.int64)
    if impl == "microsoft":
        rel = np.clip(rel, -(max_position - 1), max_position - 1)
    mid = bucket_size // 2
    sign = np.sign(rel)
    abs_pos = np.where((rel < mid) & (rel > -mid), mid - 1, np.abs(rel))
    if impl == "hf":
        f = np.float32
        log_pos = np.ceil(np.log((abs_pos / mid).astype(f)) / np.log(f((max_position - 1) / mid)) * f(mid - 1)) + f(mid)
    else:
        log_pos = np.ceil(np.log(abs_pos / mid) / np.log((max_position - 1) / mid) * (mid - 1)) + mid
    return np.where(abs_pos <= mid, rel, log_pos * sign).astype(np.int64)


def csv(*args):
    r = run(*args, "--format", "csv", text=True)
    expect(r.returncode == 0, f"{args}: {r.stderr}")
    return np.loadtxt(io.StringIO(r.stdout), delimiter=",", skiprows=1, ndmin=2) if r.returncode == 0 else None


for impl in ("hf", "microsoft"):
    for bs, mp in ((256, 512), (32, 128), (64, 300)):
        got = csv("decay", "deberta", "--impl", impl, "--buckets", str(bs), "--max-relative", str(mp),
                  "--max-offset", "700", "--symmetric")
        want = buckets(-got[:, 0].astype(np.int64), bs, mp, impl) if got is not None else None
        expect(got is not None and np.array_equal(got[:, 1].astype(np.int64), want), f"{impl} {bs}/{mp} buckets")
    # the N x N table and c2p / p2c
    n = 40
    i, j = np.meshgrid(np.arange(n), np.arange(n), indexing="ij")
    b = buckets(i - j, 16, 32, impl)
    for index, want in (("bucket", b), ("c2p", np.clip(b + 16, 0, 31)), ("p2c", np.clip(-b + 16, 0, 31))):
        got = csv("generate", "deberta", "--len", str(n), "--buckets", "16", "--max-relative", "32", "--impl", impl,
                  "--index", index)
        expect(got is not None and np.array_equal(got[:, 1:].astype(np.int64), want), f"{impl} {index} table")

# The documented disagreement: over delta in [-600, 600], c2p differs for every delta <= -512 (89 values).
d = np.arange(-600, 601)
c2p = {impl: np.clip(buckets(d, 256, 512, impl) + 256, 0, 511) for impl in ("hf", "microsoft")}
expect(int((c2p["hf"] != c2p["microsoft"]).sum()) == 89, "89 c2p differences in numpy")
got = {impl: csv("decay", "deberta", "--impl", impl, "--index", "c2p", "--max-offset", "600", "--symmetric")
       for impl in ("hf", "microsoft")}
diff = got["hf"][:, 1] != got["microsoft"][:, 1]
expect(int(diff.sum()) == 89 and got["hf"][diff, 0].min() == 512, f"posenc c2p differences: {int(diff.sum())}")
r = run("check", "deberta", "--len", "600", text=True)
expect(r.returncode == 0, f"check deberta: {r.stdout} {r.stderr}")
finish()
