"""Test-made checkpoints for `posenc usage` and `rope diff --weights`: safetensors and GGUF writers
(the byte layouts of huggingface/safetensors README "Format" and ggml docs/gguf.md), llama.cpp's
q/k permute and its historical bugs transcribed from ../shared/reference/weights.md §3.1-§3.4, a
Q8_0 and a Q4_K quantiser written from the block layouts of weights.md §2.3, and the usage numbers
of weights.md §5 re-derived in numpy (float64) from the weights as stored."""
import json
import os
import struct

import numpy as np


def bf16_bits(x):
    """float32 -> bfloat16 bits, round to nearest even."""
    b = np.ascontiguousarray(x, dtype=np.float32).view(np.uint32).astype(np.uint64)
    return ((b + 0x7FFF + ((b >> 16) & 1)) >> 16).astype(np.uint16)


def bf16_value(bits):
    return (bits.astype(np.uint32) << 16).view(np.float32)


def write_safetensors(path, tensors):
    """tensors: name -> float32 array (F32) or uint16 array (BF16 bits)."""
    header, blobs, off = {}, [], 0
    for name, a in tensors.items():
        dt = "BF16" if a.dtype == np.uint16 else "F32"
        b = np.ascontiguousarray(a).tobytes()
        header[name] = {"dtype": dt, "shape": list(a.shape), "data_offsets": [off, off + len(b)]}
        off += len(b)
        blobs.append(b)
    h = json.dumps(header).encode()
    h += b" " * ((8 - len(h) % 8) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(h)) + h + b"".join(blobs))


def write_folder(folder, config, tensors):
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "config.json"), "w") as f:
        json.dump(config, f)
    write_safetensors(os.path.join(folder, "model.safetensors"), tensors)


def _s(text):
    b = text.encode()
    return struct.pack("<Q", len(b)) + b


def write_gguf(path, kvs, tensors, alignment=32):
    """kvs: key -> int (u32), float (f32) or str; tensors: (name, ne list, ggml type, raw bytes)."""
    out = b"GGUF" + struct.pack("<IQQ", 3, len(tensors), len(kvs))
    for k, v in kvs.items():
        if isinstance(v, str):
            out += _s(k) + struct.pack("<I", 8) + _s(v)
        elif isinstance(v, float):
            out += _s(k) + struct.pack("<If", 6, v)
        else:
            out += _s(k) + struct.pack("<II", 4, v)
    off, datas = 0, b""
    for name, ne, t, data in tensors:
        out += _s(name) + struct.pack("<I", len(ne)) + b"".join(struct.pack("<Q", n) for n in ne)
        out += struct.pack("<IQ", t, off)
        pad = (-len(data)) % alignment
        datas += data + b"\0" * pad
        off += len(data) + pad
    out += b"\0" * ((-len(out)) % alignment)
    with open(path, "wb") as f:
        f.write(out + datas)


def q8_0(x):
    """Q8_0 blocks of the rows of x (cols a multiple of 32): d = amax/127 as f16, q = round(x/d)."""
    b = x.reshape(-1, 32).astype(np.float32)
    d = (np.abs(b).max(axis=1) / 127).astype(np.float16)
    df = d.astype(np.float32)
    q = np.where(df[:, None] > 0, np.round(b / np.where(df > 0, df, 1)[:, None]), 0).clip(-127, 127).astype(np.int8)
    return b"".join(d[i].tobytes() + q[i].tobytes() for i in range(len(d)))


def q4_k(x):
    """Q4_K super-blocks of 256 (8 sub-blocks of 32 with a 6-bit scale and min each): y = d·sc·q − dmin·m."""
    out = []
    for blk in x.reshape(-1, 256).astype(np.float32):
        sub = blk.reshape(8, 32)
        lo = np.minimum(sub.min(axis=1), 0)
        scale = (sub.max(axis=1) - lo) / 15
        d = np.float16(scale.max() / 63 if scale.max() > 0 else 0)
        dmin = np.float16((-lo).max() / 63 if (-lo).max() > 0 else 0)
        sc = np.clip(np.round(scale / np.float32(d)) if d > 0 else np.zeros(8), 0, 63).astype(np.uint8)
        mn = np.clip(np.round(-lo / np.float32(dmin)) if dmin > 0 else np.zeros(8), 0, 63).astype(np.uint8)
        step = np.float32(d) * sc.astype(np.float32)
        q = np.where(step[:, None] > 0, np.round((sub + np.float32(dmin) * mn[:, None]) / np.where(step > 0, step, 1)[:, None]), 0)
        q = q.clip(0, 15).astype(np.uint8)
        s = np.zeros(12, np.uint8)
        for j in range(4):
            s[j] = (sc[j] & 63) | ((sc[j + 4] >> 4) << 6)
            s[j + 4] = (mn[j] & 63) | ((mn[j + 4] >> 4) << 6)
            s[j + 8] = (sc[j + 4] & 0xF) | ((mn[j + 4] & 0xF) << 4)
        qs = b"".join((q[2 * c] | (q[2 * c + 1] << 4)).astype(np.uint8).tobytes() for c in range(4))
        out.append(d.tobytes() + dmin.tobytes() + s.tobytes() + qs)
    return b"".join(out)


def permute(w, n_head):
    """llama.cpp LlamaModel.permute (weights.md §3.1): HF half-split -> adjacent pairs, per head."""
    return w.reshape(n_head, 2, w.shape[0] // n_head // 2, *w.shape[1:]).swapaxes(1, 2).reshape(w.shape)


def permute_partial(w, n_head, rot):
    """The correct partial-rotary map (weights.md §3.4 `llama` with R < d): only the first rot rows of
    each head are permuted."""
    d = w.shape[0] // n_head
    h = w.reshape(n_head, d, *w.shape[1:]).copy()
    head = h[:, :rot]
    h[:, :rot] = head.reshape(n_head, 2, rot // 2, *w.shape[1:]).swapaxes(1, 2).reshape(head.shape)
    return h.reshape(w.shape)


def pair_rows(W, heads, d, R, layout, off=0):
    """(heads, R/2, D) first and second rows of each pair in the stored layout."""
    rot = W.reshape(heads, d, -1)[:, off:off + R]
    if layout == "half":
        return rot[:, :R // 2], rot[:, R // 2:]
    return rot[:, 0::2], rot[:, 1::2]


def usage_numbers(qa, qb, ka, kb):
    """weights.md §5: q/k pair norms, pair cosines, rho and phi, from folded pair rows (q heads,
    pairs, D) with k already expanded to the q heads."""
    qa, qb, ka, kb = (np.asarray(v, np.float64) for v in (qa, qb, ka, kb))
    dot = lambda a, b: (a * b).sum(-1)
    c00, c01, c10, c11 = dot(qa, ka), dot(qa, kb), dot(qb, ka), dot(qb, kb)
    c, s = c00 + c11, c10 - c01
    return {
        "q_norm": np.sqrt(dot(qa, qa) + dot(qb, qb)),
        "k_norm": np.sqrt(dot(ka, ka) + dot(kb, kb)),
        "pair_cos": dot(qa, qb) / np.sqrt(dot(qa, qa) * dot(qb, qb)),
        "k_pair_cos": dot(ka, kb) / np.sqrt(dot(ka, ka) * dot(kb, kb)),
        "rho": np.hypot(c, s),
        "phi": np.arctan2(s, c),
    }
