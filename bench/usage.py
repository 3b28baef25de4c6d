"""posenc usage and rope diff --weights on a synthetic 7B-shaped checkpoint (32 layers, 32 heads, head
128, hidden 4096: q_proj and k_proj in BF16, 2.1 GB), against reading the same bytes from the page
cache (cat) and a numpy memmap recipe computing the same per-pair q/k norms; then the order check
against a Q8_0 GGUF made from it with llama.cpp's permute, against cat of both files and numpy
dequantising the GGUF and computing the row cosines of the expected map. One run each, after a warm-up
read; peak RSS of posenc from getrusage. Files live in a temporary folder under /tmp, deleted after.
Usage: bench/usage.py POSENC [LAYERS] [KEEP_DIR]: with KEEP_DIR the files are made there once and reused
(not deleted), so that repeated runs skip writing them."""
import json
import os
import resource
import shutil
import struct
import subprocess
import sys
import tempfile
import time

import numpy as np

POSENC = os.path.abspath(sys.argv[1])
L = int(sys.argv[2]) if len(sys.argv) > 2 else 32
KEEP = os.path.abspath(sys.argv[3]) if len(sys.argv) > 3 else None
H, d, D = 32, 128, 4096
rng = np.random.default_rng(7)


def bf16_tensor(rows, cols):
    """Random BF16 bits with values in ±[2^-7, 1): sign, exponent 120..126, any mantissa."""
    sign = rng.integers(0, 2, (rows, cols), dtype=np.uint16) << 15
    exp = rng.integers(120, 127, (rows, cols), dtype=np.uint16) << 7
    man = rng.integers(0, 128, (rows, cols), dtype=np.uint16)
    return sign | exp | man


CPU = {}
LOAD = lambda: " ".join(open("/proc/loadavg").read().split()[:3])


def timed(cmd, **kw):
    """Wall seconds; the child's CPU seconds (user + sys) go to CPU[cmd[0] basename]."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    r = subprocess.run(cmd, **kw)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    CPU["last"] = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, r


def peak_rss_mib(cmd):
    """Runs cmd in a fresh python child so that RUSAGE_CHILDREN holds only it."""
    code = ("import resource,subprocess,sys;subprocess.run(sys.argv[1:],stdout=subprocess.DEVNULL);"
            "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
    out = subprocess.run([sys.executable, "-c", code, *cmd], capture_output=True, text=True).stdout
    return int(out.strip()) / 1024


def permute(w, n_head):
    return w.reshape(n_head, 2, w.shape[0] // n_head // 2, *w.shape[1:]).swapaxes(1, 2).reshape(w.shape)


def q8_0_bytes(x):
    b = x.reshape(-1, 32)
    dd = (np.abs(b).max(axis=1) / 127).astype(np.float16)
    df = dd.astype(np.float32)
    q = np.round(b / np.where(df > 0, df, 1)[:, None]).clip(-127, 127).astype(np.int8)
    return np.concatenate([dd.view(np.uint8).reshape(-1, 2), q.view(np.uint8)], axis=1).tobytes()


tmp = KEEP or tempfile.mkdtemp(prefix="posenc_bench_usage_", dir="/tmp")
os.makedirs(tmp, exist_ok=True)
try:
    folder = os.path.join(tmp, "model")
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "config.json"), "w") as f:
        json.dump({"model_type": "llama", "num_hidden_layers": L, "num_attention_heads": H, "num_key_value_heads": H,
                   "hidden_size": D, "rope_theta": 10000.0, "max_position_embeddings": 4096}, f)
    names, header, off = [], {}, 0
    for l in range(L):
        for p in ("q_proj", "k_proj"):
            n = f"model.layers.{l}.self_attn.{p}.weight"
            header[n] = {"dtype": "BF16", "shape": [H * d, D], "data_offsets": [off, off + H * d * D * 2]}
            off += H * d * D * 2
            names.append(n)
        n = f"model.layers.{l}.input_layernorm.weight"
        header[n] = {"dtype": "BF16", "shape": [D], "data_offsets": [off, off + D * 2]}
        off += D * 2
        names.append(n)
    hb = json.dumps(header).encode()
    hb += b" " * ((8 - len(hb) % 8) % 8)
    st = os.path.join(folder, "model.safetensors")
    t0 = time.perf_counter()
    reuse = KEEP and os.path.exists(st) and os.path.getsize(st) == 8 + len(hb) + off
    with open(os.devnull if reuse else st, "wb") as f:
        if reuse:
            names = []
        f.write(struct.pack("<Q", len(hb)) + hb)
        for n in names:
            f.write(bf16_tensor(*header[n]["shape"]) if len(header[n]["shape"]) == 2 else
                    np.full(D, 0x3F80, np.uint16).tobytes())
    size = os.path.getsize(st)
    names = [n for n in header]
    print(f"checkpoint{' (reused)' if reuse else ''}: {L} layers, q/k [{H * d}, {D}] BF16, {size / 2**30:.2f} GiB written in {time.perf_counter() - t0:.1f} s")

    subprocess.run(["cat", st], stdout=subprocess.DEVNULL)  # warm the page cache
    t_cat, _ = timed(["cat", st], stdout=subprocess.DEVNULL)
    c_cat = CPU["last"]
    t_usage, r = timed([POSENC, "usage", folder, "--format", "json", "-o", os.path.join(tmp, "u.json")],
                       capture_output=True, text=True)
    c_usage = CPU["last"]
    if r.returncode != 0:
        sys.exit("posenc usage failed: " + r.stderr)
    rss = peak_rss_mib([POSENC, "usage", folder, "--format", "json", "-o", os.path.join(tmp, "u2.json")])

    # numpy on memory-mapped arrays: the same per-pair q and k norms (half layout, gain folded).
    t0, p0 = time.perf_counter(), time.process_time()
    mm = np.memmap(st, dtype=np.uint16, mode="r", offset=8 + len(hb))
    norms = []
    for l in range(L):
        g = None
        for n in names[3 * l:3 * l + 3][::-1]:
            b, e = header[n]["data_offsets"]
            a = (mm[b // 2:e // 2].astype(np.uint32) << 16).view(np.float32)
            if g is None:
                g = a
                continue
            w = (a.reshape(H, d, D) * g)
            norms.append(np.sqrt((w[:, :d // 2] ** 2).sum(-1) + (w[:, d // 2:] ** 2).sum(-1)))
    t_numpy, c_numpy = time.perf_counter() - t0, time.process_time() - p0
    got = json.load(open(os.path.join(tmp, "u.json")))
    agree = np.allclose(np.array(got["q_norm"][0]), norms[1], rtol=1e-4)
    print(f"usage: posenc {t_usage:.2f} s, cat {t_cat:.2f} s, numpy memmap norms {t_numpy:.2f} s; "
          f"posenc/cat {t_usage / t_cat:.2f}, numpy/posenc {t_numpy / t_usage:.2f}, peak RSS {rss:.0f} MiB; "
          f"q_norm agrees with numpy: {agree}")
    print(f"  CPU seconds (user + sys): posenc {c_usage:.2f}, cat {c_cat:.2f}, numpy {c_numpy:.2f}; "
          f"posenc/cat {c_usage / c_cat:.2f}, numpy/posenc {c_numpy / c_usage:.2f}; load {LOAD()}")

    # The order check against a Q8_0 GGUF with the correct permute.
    gg = os.path.join(tmp, "model-q8_0.gguf")
    t0 = time.perf_counter()
    reuse_gg = KEEP and os.path.exists(gg)
    kvs = [("general.architecture", "llama"), ("llama.block_count", L), ("llama.attention.head_count", H),
           ("llama.attention.head_count_kv", H), ("llama.embedding_length", D), ("llama.rope.dimension_count", d)]
    s = lambda t: struct.pack("<Q", len(t.encode())) + t.encode()
    head = b"GGUF" + struct.pack("<IQQ", 3, 2 * L, len(kvs))
    for k, v in kvs:
        head += s(k) + (struct.pack("<I", 8) + s(v) if isinstance(v, str) else struct.pack("<II", 4, v))
    nbytes = H * d * D // 32 * 34
    for i in range(2 * L):
        head += s(f"blk.{i // 2}.attn_{'qk'[i % 2]}.weight") + struct.pack("<IQQIQ", 2, D, H * d, 8, i * nbytes)
    head += b"\0" * ((-len(head)) % 32)
    with open(os.devnull if reuse_gg else gg, "wb") as f:
        f.write(head)
        for l in range(0 if reuse_gg else L):
            for p in ("q_proj", "k_proj"):
                b, e = header[f"model.layers.{l}.self_attn.{p}.weight"]["data_offsets"]
                w = (mm[b // 2:e // 2].astype(np.uint32) << 16).view(np.float32).reshape(H * d, D)
                f.write(q8_0_bytes(permute(w, H)))
    print(f"Q8_0 GGUF{' (reused)' if reuse_gg else ''}: {os.path.getsize(gg) / 2**30:.2f} GiB written in {time.perf_counter() - t0:.1f} s")
    subprocess.run(["cat", st, gg], stdout=subprocess.DEVNULL)
    t_cat2, _ = timed(["cat", st, gg], stdout=subprocess.DEVNULL)
    c_cat2 = CPU["last"]
    cmd = [POSENC, "rope", "diff", "--config-a", folder, "--config-b", gg, "--weights", "--format", "json"]
    t_order, r = timed(cmd, capture_output=True, text=True)
    ok = r.returncode == 0
    c_order = CPU["last"]
    rss2 = peak_rss_mib(cmd)
    # numpy: dequantise each Q8_0 tensor and compute the row cosines of the expected (llama) map only.
    t0, p0 = time.perf_counter(), time.process_time()
    gm = np.memmap(gg, dtype=np.uint8, mode="r", offset=len(head))
    for i in range(2 * L):
        blk = np.asarray(gm[i * nbytes:(i + 1) * nbytes]).reshape(-1, 34)
        dq = (blk[:, :2].copy().view(np.float16).astype(np.float32) * blk[:, 2:].view(np.int8)).reshape(H * d, D)
        b, e = header[f"model.layers.{i // 2}.self_attn.{('q_proj', 'k_proj')[i % 2]}.weight"]["data_offsets"]
        w = permute((mm[b // 2:e // 2].astype(np.uint32) << 16).view(np.float32).reshape(H * d, D), H)
        cos = (dq * w).sum(1) / np.sqrt((dq * dq).sum(1) * (w * w).sum(1))
    t_numpy2, c_numpy2 = time.perf_counter() - t0, time.process_time() - p0
    print(f"order check: posenc {t_order:.2f} s (exit {r.returncode}, right order found: {ok}), cat of both files "
          f"{t_cat2:.2f} s, numpy (one map) {t_numpy2:.2f} s; posenc/cat {t_order / t_cat2:.2f}, "
          f"numpy/posenc {t_numpy2 / t_order:.2f}, peak RSS {rss2:.0f} MiB")
    print(f"  CPU seconds (user + sys): posenc {c_order:.2f}, cat {c_cat2:.2f}, numpy {c_numpy2:.2f}; "
          f"posenc/cat {c_order / c_cat2:.2f}, numpy/posenc {c_numpy2 / c_order:.2f}; load {LOAD()}")
finally:
    if not KEEP:
        shutil.rmtree(tmp)
