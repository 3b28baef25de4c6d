"""`posenc generate` xpos, shaw, transformer-xl and rope p-RoPE against numpy re-derivations of the
reference code (float64 output, tolerance 1e-12 relative unless said):
- xpos: microsoft/torchscale torchscale/component/xpos_relative_position.py @ 776b070d (XPOS.forward:
  min_pos = -(length + offset) // 2, scale ** arange(min_pos, max_pos)/scale_base, fixed_pos_embedding of
  d/2 frequencies, duplicate_interleave, downscale -> 1/scale) and lucidrains rotary-embedding-torch @ 4b2b86d8
  (power = (t - max_pos // 2)/scale_base); the paper's centre 0. The documented disagreement: odd lengths.
- shaw: tensor2tensor common_attention._generate_relative_positions_matrix @ 75b75f2e (key - query clipped,
  queries = the last length_q keys) and transformers BERT relative_key (query - key + max_position - 1).
- transformer-xl: kimiyoung/transformer-xl pytorch/mem_transformer.py @ 44781ed2 (PositionalEmbedding on
  pos_seq = arange(klen-1, -1, -1) clamped, _rel_shift done literally with pad/reshape).
- p-RoPE: google-deepmind/gemma apply_rope @ 7691fd4e (rope_angles = int(p * d // 2), timescale inf past them).
"""
import io

import numpy as np

from harness import expect, finish, run


def table(*args):
    r = run("generate", *args, "--format", "csv", "--dtype", "float64", text=True)
    expect(r.returncode == 0, f"generate {args}: {r.stderr}")
    if r.returncode != 0:
        return None
    return np.loadtxt(io.StringIO(r.stdout), delimiter=",", skiprows=1, ndmin=2)[:, 1:]


def close(got, want, what, rtol=1e-12):
    ok = got is not None and got.shape == want.shape and np.allclose(got, want, rtol=rtol, atol=rtol)
    expect(ok, f"{what}: max diff {np.max(np.abs(got - want)) if got is not None and got.shape == want.shape else got}")


# ---- xPos ----
def torchscale_xpos(length, head_dim, downscale=False, scale_base=512):
    scale_vec = (np.arange(0, head_dim, 2) + 0.4 * head_dim) / (1.4 * head_dim)
    min_pos = -(length + 0) // 2
    max_pos = length + 0 + min_pos
    scale = scale_vec ** (np.arange(min_pos, max_pos) / scale_base)[:, None]
    half = scale.shape[1]
    inv_freq = 1.0 / (10000 ** (np.arange(0, half) / half))
    inp = np.arange(0, length)[:, None] * inv_freq[None, :]
    sin, cos = np.sin(inp), np.cos(inp)
    if downscale:
        scale = 1 / scale
    rep = lambda m: np.repeat(m, 2, axis=1)  # duplicate_interleave
    return rep(scale), rep(cos * scale), rep(sin * scale)


def lucidrains_xpos(length, dim, scale_base=512, downscale=False):
    t = np.arange(length)
    scale_vec = (np.arange(0, dim, 2) + 0.4 * dim) / (1.4 * dim)
    power = (t - (t.max() + 1) // 2) / scale_base
    scale = scale_vec ** power[:, None]
    return np.repeat(1 / scale if downscale else scale, 2, axis=1)


for length in (7, 8, 33):
    for dim in (4, 16):
        s, c, si = torchscale_xpos(length, dim)
        common = ("--len", str(length), "--dim", str(dim))
        close(table("xpos", *common), s, f"torchscale scale L={length} d={dim}")
        close(table("xpos", *common, "--table", "cos"), c, f"torchscale cos L={length} d={dim}")
        close(table("xpos", *common, "--table", "sin"), si, f"torchscale sin L={length} d={dim}")
        ks, kc, _ = torchscale_xpos(length, dim, downscale=True)
        close(table("xpos", *common, "--role", "key", "--table", "cos"), kc, f"torchscale key cos L={length}")
        close(table("xpos", *common, "--convention", "lucidrains"), lucidrains_xpos(length, dim),
              f"lucidrains scale L={length} d={dim}")
        close(table("xpos", *common, "--convention", "lucidrains", "--role", "key"),
              lucidrains_xpos(length, dim, downscale=True), f"lucidrains key scale L={length} d={dim}")
        zeta = (np.arange(0, dim, 2) + 0.4 * dim) / (1.4 * dim)
        close(table("xpos", *common, "--centre", "zero", "--scale-base", "64"),
              np.repeat(zeta ** (np.arange(length)[:, None] / 64), 2, axis=1), f"paper centre 0, gamma 64, L={length}")
# The disagreement: odd lengths centre one position apart (every cell differs by zeta^(1/512)), even agree.
a, b = table("xpos", "--len", "7", "--dim", "8"), table("xpos", "--len", "7", "--dim", "8", "--convention", "lucidrains")
zeta8 = np.repeat((np.arange(0, 8, 2) + 3.2) / 11.2, 2)
close(a / b, np.tile(zeta8 ** (-1 / 512), (7, 1)), "odd length: torchscale / lucidrains = zeta^(-1/512)")
close(table("xpos", "--len", "8", "--dim", "8"), table("xpos", "--len", "8", "--dim", "8", "--convention", "lucidrains"),
      "even length: the two centres agree")

# ---- Shaw ----
def t2t_matrix(length_q, length_k, k):
    range_k = np.arange(length_k)
    range_q = range_k if length_q == length_k else range_k[-length_q:]
    return np.clip(range_k[None, :] - range_q[:, None], -k, k) + k


def hf_matrix(query_length, key_length, max_pos):
    return (np.arange(query_length)[:, None] - np.arange(key_length)[None, :]) + max_pos - 1


for (lq, lk, k) in ((20, 20, 4), (5, 12, 3), (30, 30, 16)):
    close(table("shaw", "--len", str(lq), "--key-len", str(lk), "--k", str(k)), t2t_matrix(lq, lk, k).astype(float),
          f"t2t {lq}x{lk} k={k}")
for (lq, lk, mp) in ((20, 20, 32), (6, 9, 9)):
    close(table("shaw", "--convention", "hf", "--len", str(lq), "--key-len", str(lk), "--max-position", str(mp)),
          hf_matrix(lq, lk, mp).astype(float), f"hf {lq}x{lk} max={mp}")
# The sign disagreement: the t2t distance is the negated hf distance (unclipped range).
dt = table("shaw", "--len", "10", "--k", "100", "--table", "distance")
dh = table("shaw", "--len", "10", "--convention", "hf", "--table", "distance")
close(dt, -dh, "t2t distance = -(hf distance)")

# ---- Transformer-XL ----
def txl_pos_emb(klen, d, clamp_len=0):
    pos_seq = np.arange(klen - 1, -1, -1.0)
    if clamp_len > 0:
        pos_seq = np.minimum(pos_seq, clamp_len)
    inv_freq = 1 / (10000 ** (np.arange(0.0, d, 2.0) / d))
    inp = np.outer(pos_seq, inv_freq)
    return np.concatenate([np.sin(inp), np.cos(inp)], axis=-1)


def rel_shift(x):
    qlen, klen = x.shape
    padded = np.concatenate([np.zeros((qlen, 1)), x], axis=1).reshape(klen + 1, qlen)
    return padded[1:].reshape(qlen, klen)


for (klen, d, clamp) in ((12, 16, 0), (40, 8, 10), (5, 64, 0)):
    fed = txl_pos_emb(klen, d, clamp)
    close(table("transformer-xl", "--len", str(klen), "--dim", str(d), "--clamp-len", str(clamp), "--table", "pos-emb"),
          fed, f"pos_emb klen={klen} d={d} clamp={clamp}")
    close(table("transformer-xl", "--len", str(klen), "--dim", str(d), "--clamp-len", str(clamp)), fed[::-1],
          f"R_t ascending klen={klen} d={d} clamp={clamp}")
for (qlen, mlen, clamp) in ((6, 0, 0), (4, 5, 0), (7, 3, 4)):
    klen = qlen + mlen
    pos_seq = np.arange(klen - 1, -1, -1.0)
    if clamp:
        pos_seq = np.minimum(pos_seq, clamp)
    # Shift a BD whose column m holds pos_seq[m] + 1 (so the zero pad stays 0), then label it.
    shifted = rel_shift(np.tile(pos_seq + 1, (qlen, 1))) - 1
    close(table("transformer-xl", "--len", str(qlen), "--mem-len", str(mlen), "--clamp-len", str(clamp), "--table",
                "shift"), shifted, f"rel_shift qlen={qlen} mlen={mlen} clamp={clamp}")
    # And a real position term: BD = q . R (random q), shifted, equals q . R_{(i + mlen) - j} where j <= i + mlen.
    rng = np.random.default_rng(0)
    d = 8
    q = rng.standard_normal((qlen, d))
    bd = rel_shift(q @ txl_pos_emb(klen, d, clamp).T)
    ok = True
    for i in range(qlen):
        for j in range(i + mlen + 1):
            dist = (i + mlen) - j
            dist = min(dist, clamp) if clamp else dist
            want = q[i] @ txl_pos_emb(dist + 1, d)[0]  # R_dist is row 0 of a table of klen = dist + 1
            ok = ok and abs(bd[i, j] - want) < 1e-12
    expect(ok, f"shifted q.R_(i+mlen-j) qlen={qlen} mlen={mlen}")

# ---- p-RoPE ----
def gemma_angles(length, head_dim, p, base=10000.0):
    rope_angles = int(p * head_dim // 2)
    nope_angles = head_dim // 2 - rope_angles
    timescale = np.pad(base ** ((2.0 / head_dim) * np.arange(rope_angles)), (0, nope_angles), constant_values=np.inf)
    inp = np.arange(length)[:, None] / timescale[None, :]
    return np.concatenate([inp, inp], axis=1)  # first_half / second_half share the angle: half layout


for p in (0.0, 0.25, 0.5, 1.0):
    for d in (16, 128):
        want = gemma_angles(30, d, p)
        got = table("rope", "--len", "30", "--dim", str(d), "--scaling", "proportional", "--proportion", str(p),
                    "--table", "angle", "--precision", "f64")
        close(got, want, f"p-RoPE angles p={p} d={d}", rtol=1e-13)
close(table("rope", "--len", "30", "--dim", "16", "--scaling", "proportional", "--proportion", "0", "--table", "sin"),
      np.zeros((30, 16)), "p = 0: sin 0 everywhere (NoPE)")
close(table("rope", "--len", "30", "--dim", "16", "--scaling", "proportional", "--proportion", "1"),
      table("rope", "--len", "30", "--dim", "16"), "p = 1: plain RoPE's cos table")
finish()
