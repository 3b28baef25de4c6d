"""The peers of bench/run.sh: what a user would write instead of calling posenc.

Each work is one short function, written the way numpy, pandas and matplotlib users
usually write it (the sinusoidal recipe in float32, np.save, np.savetxt, DataFrame.to_csv,
imshow + colorbar + savefig, pe @ pe.T + plt.imsave, the closed-form decay sum).
Usage: python3 peers.py WORK ARGS... (see WORKS at the bottom).
"""
import sys

import numpy as np


def sinusoidal(n, d):
    # The usual recipe (PyTorch tutorial / annotated transformer), in numpy float32.
    position = np.arange(n, dtype=np.float32)[:, None]
    div_term = np.exp(np.arange(0, d, 2, dtype=np.float32) * (-np.log(10000.0) / d)).astype(np.float32)
    pe = np.zeros((n, d), dtype=np.float32)
    pe[:, 0::2] = np.sin(position * div_term)
    pe[:, 1::2] = np.cos(position * div_term)
    return pe


def sin_npy(n, d, out):
    np.save(out, sinusoidal(int(n), int(d)))


def rope_npy(n, d, cos_out, sin_out):
    # Hugging Face's rotary embedding, in numpy: float32 inv_freq, outer product, [freqs, freqs].
    n, d = int(n), int(d)
    inv_freq = 1.0 / (10000 ** (np.arange(0, d, 2, dtype=np.float32) / d))
    t = np.arange(n, dtype=np.float32)
    freqs = np.outer(t, inv_freq).astype(np.float32)
    emb = np.concatenate((freqs, freqs), axis=-1)
    np.save(cos_out, np.cos(emb))
    np.save(sin_out, np.sin(emb))


def savetxt_csv(n, d, out):
    np.savetxt(out, sinusoidal(int(n), int(d)), fmt="%.7g", delimiter=",")


def pandas_csv(n, d, out):
    import pandas as pd

    pd.DataFrame(sinusoidal(int(n), int(d))).to_csv(out)


def heatmap_png(n, d, out):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    pe = sinusoidal(int(n), int(d))
    fig, ax = plt.subplots()
    im = ax.imshow(pe, aspect="auto", cmap="RdBu")
    ax.set_xlabel("dimension")
    ax.set_ylabel("position")
    fig.colorbar(im)
    fig.savefig(out)


def similarity(n, d, npy_out, png_out):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    pe = sinusoidal(int(n), int(d))
    sim = pe @ pe.T
    np.save(npy_out, sim)
    plt.imsave(png_out, sim)


def decay(d, offsets, out):
    # Closed form: PE_t . PE_{t+delta} = sum_k cos(w_k delta).
    d, offsets = int(d), int(offsets)
    w = 1.0 / 10000 ** (np.arange(0, d, 2) / d)
    delta = np.arange(offsets)
    dot = np.cos(np.outer(delta, w)).sum(axis=1)
    np.savetxt(out, np.column_stack([delta, dot]), fmt="%.7g", delimiter=",", header="offset,dot", comments="")


def rope_decay(d, offsets, out, bound="no"):
    # RoPE's q = k = ones score 2 sum_i cos(delta theta_i) (issue 26 item 12), with bound="yes"
    # also RoFormer's bound on it: 2 sum_j |S_j|, S_j the partial sums of e^{i delta theta_k}.
    d, offsets = int(d), int(offsets)
    theta = 1.0 / 10000 ** (np.arange(0, d, 2) / d)
    delta = np.arange(offsets)
    angle = np.outer(delta, theta)
    cols = [delta, 2 * np.cos(angle).sum(axis=1)]
    header = "offset,q=k=ones"
    if bound == "yes":
        s = np.cumsum(np.exp(1j * angle), axis=1)
        cols.insert(1, 2 * np.abs(s).sum(axis=1))
        header = "offset,roformer bound on |q.k|,q=k=ones"
    np.savetxt(out, np.column_stack(cols), fmt="%.7g", delimiter=",", header=header, comments="")


def check_sinusoidal(n, d):
    # posenc check sinusoidal (issue 15 item 8) by brute force: the table in float64, its Gram
    # matrix, and each identity over every offset: bounded, unique (smallest distance between
    # two rows), dot-shift-invariant and dot-symmetric (the Gram matrix's diagonals),
    # shift-linear (each offset's block rotation applied to every row).
    n, d = int(n), int(d)
    w = 1.0 / 10000 ** (np.arange(0, d, 2) / d)
    pe = np.zeros((n, d))
    pe[:, 0::2] = np.sin(np.arange(n)[:, None] * w)
    pe[:, 1::2] = np.cos(np.arange(n)[:, None] * w)
    scale = np.abs(pe).max()
    ok = scale <= 1.0
    g = pe @ pe.T
    sq = np.diag(g)
    dist2 = sq[:, None] + sq[None, :] - 2 * g
    np.fill_diagonal(dist2, np.inf)
    ok &= np.sqrt(max(dist2.min(), 0.0)) > 1e-3 * np.sqrt(sq.max())
    del dist2
    shift = sym = lin = 0.0
    for delta in range(1, n):
        diag = np.diagonal(g, delta)
        shift = max(shift, np.abs(diag - diag[0]).max())
        if 2 * delta < n:  # g[t, t + delta] against g[t, t - delta]
            sym = max(sym, np.abs(diag[delta:] - np.diagonal(g, -delta)[:n - 2 * delta]).max())
        c, s = np.cos(w * delta), np.sin(w * delta)  # sin(a + b), cos(a + b) from sin a, cos a
        x, y = pe[:n - delta, 0::2], pe[:n - delta, 1::2]
        lin = max(lin, np.abs(x * c + y * s - pe[delta:, 0::2]).max(), np.abs(y * c - x * s - pe[delta:, 1::2]).max())
    ok &= max(shift, sym) <= 1e-6 * sq.max() and lin <= 1e-6 * scale
    sys.exit(0 if ok else 1)


def _heatmap(matrix, out, cmap):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots()
    im = ax.imshow(matrix, cmap=cmap)
    ax.set_xlabel("j")
    ax.set_ylabel("i")
    fig.colorbar(im)
    fig.savefig(out)


def t5_png(n, out):
    # transformers' T5Attention._relative_position_bucket (bidirectional, 32 buckets, max
    # distance 128) on the whole N x N matrix, then imshow.
    n = int(n)
    rp = np.arange(n)[None, :] - np.arange(n)[:, None]
    nb, max_exact = 16, 8
    bucket = (rp > 0).astype(np.int64) * nb
    rp = np.abs(rp)
    with np.errstate(divide="ignore", invalid="ignore"):
        large = max_exact + (np.log(rp.astype(np.float32) / max_exact) / np.float32(np.log(128 / max_exact))
                             * (nb - max_exact)).astype(np.int64)
    bucket += np.where(rp < max_exact, rp, np.minimum(large, nb - 1))
    _heatmap(bucket, out, "viridis")


def alibi_png(n, heads, out):
    # Symmetric ALiBi -m_h |i - j| for every head, one panel per head.
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    n, heads = int(n), int(heads)
    slopes = 2.0 ** (-8.0 * np.arange(1, heads + 1) / heads)
    dist = np.abs(np.arange(n)[None, :] - np.arange(n)[:, None])
    bias = -slopes[:, None, None] * dist[None]
    fig, axes = plt.subplots(2, (heads + 1) // 2)
    for h, ax in enumerate(axes.flat[:heads]):
        im = ax.imshow(bias[h], cmap="viridis", vmin=bias.min(), vmax=0)
        ax.set_title(f"head {h}")
    fig.colorbar(im, ax=axes.ravel().tolist())
    fig.savefig(out)


def cosine_png(pe, out):
    x = pe / np.linalg.norm(pe, axis=1, keepdims=True)
    _heatmap(x @ x.T, out, "RdBu")


def sinusoidal_similarity_png(n, d, out):
    cosine_png(sinusoidal(int(n), int(d)), out)


def learned_similarity_png(n, d, out):
    # A learned table as initialised (normal, std 0.02), its cosine similarity, imshow.
    cosine_png(np.random.default_rng(0).normal(0.0, 0.02, (int(n), int(d))), out)


def _llama3_inv_freq(cfg, dtype):
    # transformers' _compute_llama3_parameters: the default inv_freq, then wavelength bands.
    d = cfg.get("head_dim") or cfg["hidden_size"] // cfg["num_attention_heads"]
    rs = cfg["rope_scaling"]
    inv = (1.0 / (cfg["rope_theta"] ** (np.arange(0, d, 2, dtype=np.int64).astype(np.float32) / d))).astype(dtype)
    factor, lo, hi, old = rs["factor"], rs["low_freq_factor"], rs["high_freq_factor"], rs["original_max_position_embeddings"]
    wavelen = 2 * np.pi / inv
    scaled = np.where(wavelen > old / lo, inv / factor, inv)
    smooth = (old / wavelen - lo) / (hi - lo)
    mid = (1 - smooth) * scaled / factor + smooth * scaled
    medium = ~(wavelen < old / hi) & ~(wavelen > old / lo)
    return np.where(medium, mid, scaled).astype(dtype)


def rope_engines(config, n):
    # What `posenc rope engines` computes for a Llama 3.1 config, in numpy: transformers' float32
    # cos/sin cache over n positions, the float64 one (its rounding noise), and the cache of each
    # of the 7 other conventions (meta, ggml, vllm, vllm-0.6, sglang, trtllm, mlx: all float32
    # llama3 tables here), each compared with transformers' by its largest |difference|.
    import json

    cfg, n = json.load(open(config)), int(n)

    def table(dtype):
        t = np.arange(n, dtype=dtype)
        freqs = np.outer(t, _llama3_inv_freq(cfg, dtype)).astype(dtype)
        return np.cos(freqs), np.sin(freqs)

    hf_cos, hf_sin = table(np.float32)
    c64, s64 = table(np.float64)
    worst = [max(np.abs(c64 - hf_cos).max(), np.abs(s64 - hf_sin).max())]
    for _ in range(7):
        c, s = table(np.float32)
        worst.append(max(np.abs(c - hf_cos).max(), np.abs(s - hf_sin).max()))
    print(worst)


def extrapolate_entropy(config, train, target, samples="16"):
    # The attention-entropy part of `posenc extrapolate --hf-config C --train-len L --target-len L'`
    # (its bulk), in numpy: the inverse frequencies of none, linear, ntk, yarn and llama3 at factor
    # L'/L, then per method the mean entropy of a query over keys at offsets 0 … n-1 for seeded
    # random (q, k) at the lengths 16, 32, … and L' (YaRN twice: with and without its attention
    # factor), streamed over blocks of offsets with a running softmax, float64.
    import json

    cfg, train, target, samples = json.load(open(config)), int(train), int(target), int(samples)
    d = cfg.get("head_dim") or cfg["hidden_size"] // cfg["num_attention_heads"]
    base, s = float(cfg["rope_theta"]), target / train
    i = np.arange(0, d, 2, dtype=np.float64) / d
    none = base ** -i
    ntk = (base * s ** (d / (d - 2))) ** -i
    low = max(np.floor(d * np.log(train / (32 * 2 * np.pi)) / (2 * np.log(base))), 0)
    high = min(np.ceil(d * np.log(train / (1 * 2 * np.pi)) / (2 * np.log(base))), d - 1)
    ramp = np.clip((np.arange(d // 2) - low) / max(high - low, 1e-3), 0, 1)
    yarn = none / s * ramp + none * (1 - ramp)
    llama = dict(cfg, rope_scaling=dict(cfg["rope_scaling"], factor=s, original_max_position_embeddings=train))
    methods = [(none, [1.0]), (none / s, [1.0]), (ntk, [1.0]), (yarn, [1.0, (0.1 * np.log(s) + 1) ** 2]),
               (_llama3_inv_freq(llama, np.float64), [1.0])]
    rng = np.random.default_rng(0)
    q, k = rng.normal(size=(samples, d)), rng.normal(size=(samples, d))
    cre = q[:, 0::2] * k[:, 0::2] + q[:, 1::2] * k[:, 1::2]
    cim = q[:, 1::2] * k[:, 0::2] - q[:, 0::2] * k[:, 1::2]
    lengths = sorted(set([2 ** j for j in range(4, 64) if 2 ** j < target] + [train, target]))
    out = []
    for theta, scales in methods:
        for scale in scales:
            m = np.full(samples, -np.inf)
            z, w = np.zeros(samples), np.zeros(samples)
            h, nxt, step = [], 0, 16384
            for first in range(0, target, step):
                a = np.outer(np.arange(first, min(first + step, target), dtype=np.float64), theta)
                x = (cre @ np.cos(a).T - cim @ np.sin(a).T) * (scale / np.sqrt(d))  # samples x block
                # running softmax, offset by offset as the lengths fall inside the block
                cuts = [n - first for n in lengths[nxt:] if n <= first + x.shape[1]]
                for lo, hi in zip([0] + cuts, cuts + [x.shape[1]]):
                    if hi <= lo:
                        continue
                    part = x[:, lo:hi]
                    m2 = np.maximum(m, part.max(axis=1))
                    r = np.exp(m - m2)
                    e = np.exp(part - m2[:, None])
                    z, w, m = z * r + e.sum(axis=1), w * r + (part * e).sum(axis=1), m2
                    if first + hi in lengths:
                        h.append(float(np.mean(m + np.log(z) - w / z)))
                        nxt += 1
            out.append(h[-1])
    print(out)


WORKS = {f.__name__: f for f in (extrapolate_entropy, sin_npy, rope_npy, savetxt_csv, pandas_csv, heatmap_png, similarity, decay, rope_decay,
                                 check_sinusoidal, t5_png, alibi_png, sinusoidal_similarity_png,
                                 learned_similarity_png, rope_engines)}

if __name__ == "__main__":
    WORKS[sys.argv[1]](*sys.argv[2:])
