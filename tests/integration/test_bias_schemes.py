"""`posenc generate/decay/check kerple|sandwich|fire` and `alibi --variant` against numpy
re-derivations of the reference code:
- KERPLE: chijames/KERPLE megatron/mpu/layers.py @ 73f1ee2d, ParallelKerpleLog (-p*log(1+a*diff)) and
  ParallelKerplePower (-a*diff**p), diff = tril(i - j) (the causal model; posenc's symmetric form uses |i - j|);
- Sandwich: NVIDIA/NeMo sandwich_relative_position_embedding.py @ c42ec1b8 (float32 torch: inv_freq =
  1/10000**(2*arange(1, d/2+1)/d), sum of cos(|i-j| inv_freq), (bias - d/2) / (8h/H));
- FIRE: mcleish7/arithmetic cramming/architectures/embeddings.py @ 55af9d5e, class FIRE in eval mode
  (positions 0..N-1): log(|c (i-j)| + 1) / (log(|c max(i, L)| + 1) + eps), float32;
- ALiBi --variant: transformers modeling_bloom.py @ 0078a6cd build_alibi_tensor (bloom: float32 pow; falcon:
  the same slopes in bfloat16), llm-foundry gen_slopes/build_alibi_bias (mpt: float32, alibi_bias_max, rows
  m*(j-(N-1)) = --form shifted), Baichuan-13B modeling_baichuan.py _get_interleave and _gen_alibi_mask (baichuan:
  Python floats to float32; rows m*j).
posenc computes in float64 (alibi variants in their float32); each table is compared with the float64 formula
(1e-12 relative) and with the float32 reference (1e-6 of the largest |value|)."""
import io
import math
import os
import tempfile

import numpy as np

from harness import expect, finish, run

tmp = tempfile.mkdtemp()


def table(*args):
    path = os.path.join(tmp, "t.npy")
    r = run("generate", *args, "--dtype", "float64", "-o", path, text=True)
    expect(r.returncode == 0, f"generate {args}: {r.stderr}")
    return np.load(path) if r.returncode == 0 else None


def save(a, name):
    path = os.path.join(tmp, name)
    np.save(path, a)
    return path


def close(got, want, what, rtol=1e-12, scale_tol=None):
    ok = got is not None and got.shape == want.shape
    if ok:
        fin = np.isfinite(want)
        ok = np.array_equal(np.isfinite(got), fin) and np.array_equal(got[~fin], want[~fin])
        if ok and scale_tol is not None:
            scale = np.abs(want[fin]).max() if fin.any() else 1.0
            ok = np.abs(got[fin] - want[fin]).max() <= scale_tol * scale
        elif ok:
            ok = np.allclose(got[fin], want[fin], rtol=rtol, atol=1e-300)
    expect(ok, what)


n = 24
i, j = np.meshgrid(np.arange(n), np.arange(n), indexing="ij")
dist = np.abs(i - j)
causal = j > i

# KERPLE, log and power, per-head lists (float64 formula; float32 reference on its tril distance).
p = np.array([0.5, 1.0, 1.7])
a = np.array([0.02, 0.5, 1.0])
for kind in ("log", "power"):
    want = (-p[:, None, None] * np.log1p(a[:, None, None] * dist) if kind == "log"
            else -a[:, None, None] * dist.astype(float) ** p[:, None, None])
    got = table("kerple", "--kind", kind, "--len", str(n), "--p", "0.5,1,1.7", "--a", "0.02,0.5,1")
    close(got, want, f"kerple {kind} float64")
    diff = np.tril(i - j).astype(np.float32)
    pf, af = p.astype(np.float32)[:, None, None], a.astype(np.float32)[:, None, None]
    ref = -pf * np.log(np.float32(1) + af * diff) if kind == "log" else -(diff ** pf) * af
    ref = np.where(causal[None], -np.inf, ref)
    got = table("kerple", "--kind", kind, "--len", str(n), "--p", "0.5,1,1.7", "--a", "0.02,0.5,1", "--form", "causal")
    close(got, ref.astype(np.float64), f"kerple {kind} causal vs the float32 reference", scale_tol=1e-6)

# Sandwich, d = 128 and 64, H = 8 and 12.
for d, heads in ((128, 8), (64, 12)):
    w = 1.0 / 10000 ** (2 * np.arange(1, d // 2 + 1) / d)
    s = np.cos(dist[:, :, None] * w).sum(axis=2)
    h = np.arange(1, heads + 1)[:, None, None]
    want = (s[None] - d / 2) / (h * 8 / heads)
    got = table("sandwich", "--len", str(n), "--dim", str(d), "--heads", str(heads))
    close(got, want, f"sandwich d={d} H={heads} float64", rtol=1e-9)
    wf = (1.0 / np.float32(10000) ** (2 * np.arange(1, d // 2 + 1, dtype=np.float32) / np.float32(d))).astype(np.float32)
    sf = np.cos(dist[:, :, None].astype(np.float32) * wf).sum(axis=2, dtype=np.float32)
    ref = (sf[None] - np.float32(d / 2)) / (h * 8 / heads).astype(np.float32)
    close(got, ref.astype(np.float64), f"sandwich d={d} vs the float32 reference", scale_tol=1e-6)

# FIRE's input: L = 512 and a short threshold (rows past L get their own normaliser).
for c, L, m in ((0.1, 512.0, 40), (0.5, 10.0, 40)):
    ii, jj = np.meshgrid(np.arange(m), np.arange(m), indexing="ij")
    want = np.log(np.abs(c * (ii - jj)) + 1) / (np.log(np.abs(c * np.maximum(ii, L)) + 1) + 1e-6)
    got = table("fire", "--len", str(m), "--c", str(c), "--threshold", str(L))
    close(got, want, f"fire c={c} L={L} float64")
    pos = np.arange(m, dtype=np.float32)
    rel = pos[:, None] - pos[None, :]
    norm = np.maximum(pos, np.float32(L))[:, None]
    cf = np.float32(c)
    ref = np.log(np.abs(cf * rel) + np.float32(1)) / (np.log(np.abs(cf * norm) + np.float32(1)) + np.float32(1e-6))
    close(got, ref.astype(np.float64), f"fire c={c} L={L} vs the float32 reference", scale_tol=1e-6)
r = run("generate", "fire", "--len", "4", "--format", "csv", text=True)
expect(r.returncode == 0 and "trained weights" in r.stderr, f"fire says the MLP needs trained weights: {r.stderr}")


# ALiBi variants: slopes.
def official(nh):
    def pow2(k):
        start = 2 ** (-(2 ** -(math.log2(k) - 3)))
        return [start * start ** e for e in range(k)]
    if math.log2(nh).is_integer():
        return pow2(nh)
    c2 = 2 ** math.floor(math.log2(nh))
    return pow2(c2) + official(2 * c2)[0::2][: nh - c2]


def bloom(nh):
    c2 = 2 ** math.floor(math.log2(nh))
    base = np.float32(2 ** (-(2 ** -(math.log2(c2) - 3))))
    s = base ** np.arange(1, 1 + c2, dtype=np.int32).astype(np.float32)
    if c2 != nh:
        extra = np.float32(2 ** (-(2 ** -(math.log2(2 * c2) - 3))))
        rem = min(c2, nh - c2)
        s = np.concatenate([s, extra ** np.arange(1, 1 + 2 * rem, 2).astype(np.float32)])
    return s.astype(np.float32)


def bf16(x):
    """Round float32 values to bfloat16 (nearest, ties to even), as torch's .bfloat16()."""
    b = np.asarray(x, dtype=np.float32).view(np.uint32).astype(np.uint64)
    b = (b + 0x7FFF + ((b >> 16) & 1)) & 0xFFFF0000
    return b.astype(np.uint32).view(np.float32)


def mpt(nh, bias_max=8):
    big = 2 ** math.ceil(math.log2(nh))
    m = np.arange(1, big + 1, dtype=np.float32) * np.float32(bias_max / big)
    s = (np.float32(1.0) / np.power(np.float32(2), m)).astype(np.float32)
    if big != nh:
        s = np.concatenate([s[1::2], s[::2]])[:nh]
    return s


def slopes(*args):
    r = run("generate", "alibi", "--len", "2", *args, "--format", "json", text=True)
    import json
    return np.array(json.loads(r.stdout)["params"]["slopes"]) if r.returncode == 0 else None


for nh in (8, 12, 40, 6, 1):
    got = slopes("--heads", str(nh), "--variant", "bloom")
    # float32 pow: posenc rounds the float64 power, numpy calls powf (within 2 float32 ulp)
    expect(got is not None and np.allclose(got, bloom(nh), rtol=1e-6, atol=0), f"bloom slopes {nh}")
    got = slopes("--heads", str(nh), "--variant", "falcon")
    expect(got is not None and np.allclose(got, bf16(bloom(nh)), rtol=0, atol=0), f"falcon slopes {nh}")
    got = slopes("--heads", str(nh), "--variant", "baichuan")
    expect(got is not None and np.array_equal(got, np.array(official(nh), dtype=np.float32)), f"baichuan slopes {nh}")
    got = slopes("--heads", str(nh), "--variant", "paper")
    expect(got is not None and np.allclose(got, official(nh), rtol=1e-14, atol=0), f"paper slopes {nh}")
    for bm in (8, 16, 12):
        got = slopes("--heads", str(nh), "--variant", "mpt", "--bias-max", str(bm))
        expect(got is not None and np.allclose(got, mpt(nh, bm), rtol=1e-7, atol=0), f"mpt slopes {nh} max {bm}")

# ALiBi variants: causal rows (the reference's own bias before its mask; masked entries -inf).
nh, L = 12, 16
ii, jj = np.meshgrid(np.arange(L), np.arange(L), indexing="ij")
mask = jj > ii
# MPT's causal matrix is build_alibi_bias(full=False): slopes * arange(1 - L, 1) per key (issue 26 item 21).
for variant, s, rows in (("bloom", bloom(nh), jj), ("baichuan", np.array(official(nh), dtype=np.float32), jj),
                         ("mpt", mpt(nh), jj - (L - 1))):
    want = (s[:, None, None] * rows.astype(np.float32)[None]).astype(np.float32).astype(np.float64)
    want = np.where(mask[None], -np.inf, want)
    got = table("alibi", "--heads", str(nh), "--len", str(L), "--variant", variant, "--form", "causal")
    close(got, want, f"alibi {variant} causal", rtol=1e-6)
# MPT's own rows: build_alibi_bias's arange(1 - L, 1) * slopes (--form shifted), float32.
want = np.where(mask[None], -np.inf, (mpt(nh)[:, None, None] * (jj - (L - 1)).astype(np.float32)[None]).astype(np.float64))
close(table("alibi", "--heads", str(nh), "--len", str(L), "--variant", "mpt", "--form", "shifted"), want,
      "alibi mpt shifted", rtol=1e-6)
# MPT's full (non-causal) bias: -|i - j| * slopes, float32.
want = (-(np.abs(ii - jj)).astype(np.float32)[None] * mpt(nh, 16)[:, None, None]).astype(np.float64)
close(table("alibi", "--heads", str(nh), "--len", str(L), "--variant", "mpt", "--bias-max", "16"), want,
      "alibi mpt full", rtol=1e-6)
r = run("generate", "alibi", "--bias-max", "16", "--format", "csv", text=True)
expect(r.returncode == 2 and r.stderr.startswith("posenc: error: --bias-max applies only to --variant mpt"),
       f"--bias-max without mpt: {r.returncode} {r.stderr}")


# Decay: bias against the offset, and one figure with ALiBi and T5.
def decay_csv(*args):
    r = run("decay", *args, "--dtype", "float64", "--format", "csv", text=True)
    expect(r.returncode == 0, f"decay {args}: {r.stderr}")
    return np.loadtxt(io.StringIO(r.stdout), delimiter=",", skiprows=1, ndmin=2) if r.returncode == 0 else None


got = decay_csv("kerple", "--p", "1,2", "--a", "0.5", "--max-offset", "30", "--symmetric")
if got is not None:
    dd = np.abs(got[:, 0])
    expect(np.allclose(got[:, 1], -np.log1p(0.5 * dd), rtol=1e-12) and np.allclose(got[:, 2], -2 * np.log1p(0.5 * dd)),
           "kerple decay")
got = decay_csv("sandwich", "--dim", "64", "--heads", "4", "--max-offset", "40")
if got is not None:
    w = 1.0 / 10000 ** (2 * np.arange(1, 33) / 64)
    s = np.cos(got[:, 0][:, None] * w).sum(axis=1) - 32
    expect(all(np.allclose(got[:, h], s / (8 * h / 4), rtol=1e-9, atol=1e-13) for h in range(1, 5)), "sandwich decay")
got = decay_csv("fire", "--from", "1000", "--max-offset", "1000", "--symmetric", "--threshold", "512")
if got is not None:
    want = np.log(np.abs(0.1 * got[:, 0]) + 1) / (np.log(0.1 * 1000 + 1) + 1e-6)
    expect(np.allclose(got[:, 1], want, rtol=1e-12), "fire decay at T = 1000")
# decay alibi in each variant's arithmetic: -m|d| with float32 slopes and products (bloom, baichuan: 12 heads,
# float32 extra slopes), bfloat16 positions and products (falcon: keys beyond 256 step by 2). bloom's slopes are
# the ones posenc echoes (checked above against numpy's powf to 1e-6: they may differ by an ulp), so that the
# products are compared exactly.
bloom12 = slopes("--heads", "12", "--variant", "bloom")
bloom12 = bloom(12) if bloom12 is None else bloom12.astype(np.float32)
for variant, s, rnd in (("bloom", bloom12, np.float32), ("baichuan", np.array(official(12), dtype=np.float32), np.float32),
                        ("falcon", bf16(bloom(12)), None)):
    got = decay_csv("alibi", "--variant", variant, "--heads", "12", "--max-offset", "300", "--symmetric")
    if got is not None:
        d = np.abs(got[:, 0]).astype(np.float32)
        if rnd is None:
            want = -bf16(s[None, :] * bf16(d)[:, None]).astype(np.float64)
        else:
            want = -(s[None, :] * d[:, None]).astype(np.float32).astype(np.float64)
        expect(got.shape == (601, 13) and np.array_equal(got[:, 1:], want), f"decay alibi --variant {variant}: exact")
got = decay_csv("kerple", "--max-offset", "20", "--compare", "alibi --heads 2", "--compare", "t5",
                "--compare", "sandwich --heads 1")
expect(got is not None and got.shape[1] == 1 + 1 + 2 + 1 + 1, "kerple, alibi, t5 and sandwich on one decay output")

# Identities through check: exit 0 when they hold, 1 on a table that breaks them.
for args in (("kerple",), ("kerple", "--kind", "power", "--p", "0.5,2", "--a", "1"), ("sandwich",),
             ("sandwich", "--form", "causal"), ("fire", "--len", "100")):
    r = run("check", *args, text=True)
    held = r.stdout.endswith(("identities hold\n", "the 1 identity holds\n"))
    expect(r.returncode == 0 and held, f"check {args}: {r.returncode} {r.stdout} {r.stderr}")
r = run("check", "fire", "--len", "600", text=True)
expect(r.returncode == 1 and "FAILS  bias-relative" in r.stdout, f"check fire past L fails: {r.returncode} {r.stdout}")
broken = table("kerple", "--len", "12", "--head", "0")
if broken is not None:
    broken[7, 3] += 0.25  # b(7, 3) no longer a function of |i - j|
    path = os.path.join(tmp, "broken.npy")
    np.save(path, broken)
    r = run("check", "--input", path, "--identity", "bias-relative", text=True)
    expect(r.returncode == 1 and "FAILS" in r.stdout, f"check a broken kerple table: {r.returncode} {r.stdout} {r.stderr}")
# A one-sided table (keys after the query count double) is still a function of j - i, not of |j - i|:
# bias-relative holds, bias-symmetric fails.
for scheme in ("kerple", "sandwich"):
    one = table(scheme, "--len", "12", "--head", "0")
    if one is not None:
        r = run("check", "--input", save(one, "sym.npy"), "--identity", "bias-relative", "--identity", "bias-symmetric", text=True)
        expect(r.returncode == 0, f"check {scheme} as --input: both hold: {r.returncode} {r.stdout} {r.stderr}")
        one[np.triu_indices(12, 1)] *= 2
        r = run("check", "--input", save(one, "onesided.npy"), "--identity", "bias-relative", text=True)
        expect(r.returncode == 0, f"one-sided {scheme}: bias-relative holds: {r.returncode} {r.stdout} {r.stderr}")
        r = run("check", "--input", save(one, "onesided.npy"), "--identity", "bias-symmetric", text=True)
        expect(r.returncode == 1 and "FAILS  bias-symmetric" in r.stdout,
               f"one-sided {scheme}: bias-symmetric fails: {r.returncode} {r.stdout} {r.stderr}")
finish()
