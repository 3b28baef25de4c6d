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


WORKS = {f.__name__: f for f in (sin_npy, rope_npy, savetxt_csv, pandas_csv, heatmap_png, similarity, decay)}

if __name__ == "__main__":
    WORKS[sys.argv[1]](*sys.argv[2:])
