"""Reading checkpoints (issue 28, Performance): posenc against what a user runs instead.

Rows (each the best of BENCH_REPS runs, 20 at least for the listings: wall time and CPU time
(user + system, wait4) of processes launched directly, peak RSS from one more run through GNU
time's %M):
1. listing the tensors of a sparse ~100 GB safetensors file with a 70B-like header of >= 1000
   tensors: `posenc tensors FILE --format json -o /dev/null` against a Python process reading the
   header as the safetensors README describes (struct + json.loads) and printing the listing;
2. the same for a sparse ~100 GB GGUF (the same tensors under llama.cpp names, and a 128,000-entry
   tokenizer.ggml.tokens array as real files carry): posenc against gguf-py's GGUFReader
   (GGUF_PY names llama.cpp's gguf-py/ folder; gguf-py is not packaged by Debian 12) — blank
   without it;
3. one F16 and one BF16 tensor of TENSOR_MIB MiB (default 1024) to a float32 .npy, written to
   BENCH_DIR and to tmpfs (/dev/shm, when it has room), a new file each run:
   `posenc generate --input FILE.safetensors:NAME --dtype float32 -o out.npy` against numpy
   (np.memmap of the tensor's bytes, astype(float32) — BF16 via uint16 << 16 —, np.save), with
   the floors: `cat FILE > /dev/null` (the input from the page cache), `dd` writing as many
   zero bytes as the .npy holds to the same folder (the output alone), posenc with `-o /dev/null`
   (read and decode, nothing written).
Usage: python3 tensors.py POSENC [TENSOR_MIB]     BENCH_REPS (default 3), BENCH_DIR (default /tmp).
"""
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import time

import numpy as np

POSENC = os.path.abspath(sys.argv[1])
TENSOR_MIB = int(sys.argv[2]) if len(sys.argv) > 2 else 1024
REPS = int(os.environ.get("BENCH_REPS", "3"))
GGUF_PY = os.environ.get("GGUF_PY", "")


def timed(cmd, env=None, fresh=None, reps=None):
    """(best wall seconds, peak RSS MiB, best CPU seconds) of `cmd` over `reps` runs (REPS).
    Wall and CPU (user + system, from wait4's rusage, microseconds) come from runs launched
    directly; the RSS from one more run through GNU time's %M (wait4's ru_maxrss of a child
    forked from this Python process counts Python's own pages: the high-water mark survives
    exec, which made `cat` look like 50 MiB). `fresh`: a file removed before each run (an
    output file that exists is replaced with an fsync first, a new one is not)."""
    best_wall, best_cpu = float("inf"), float("inf")
    for _ in range(reps or REPS):
        if fresh and os.path.exists(fresh):
            os.remove(fresh)
        t0 = time.perf_counter()
        p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
        _, status, ru = os.wait4(p.pid, 0)
        dt = time.perf_counter() - t0
        err = p.stderr.read().decode()
        p.stderr.close()
        if status != 0:
            raise SystemExit(f"{cmd[:3]} failed: {err[-300:]}")
        best_wall, best_cpu = min(best_wall, dt), min(best_cpu, ru.ru_utime + ru.ru_stime)
    if fresh and os.path.exists(fresh):
        os.remove(fresh)
    p = subprocess.run(["/usr/bin/time", "-f", "%M", *cmd], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    rss = int(p.stderr.decode().strip().splitlines()[-1]) / 1024.0
    return best_wall, rss, best_cpu


def llama_like_tensors():
    """(name, hf shape) of a 128-layer model, hidden 6144, 8 kv heads of 128, intermediate 16384:
    1155 tensors, about 100 GB in BF16."""
    h, kv, inter, vocab = 6144, 1024, 16384, 128256
    out = [("model.embed_tokens.weight", [vocab, h])]
    for i in range(128):
        p = f"model.layers.{i}."
        out += [(p + "input_layernorm.weight", [h]), (p + "self_attn.q_proj.weight", [h, h]),
                (p + "self_attn.k_proj.weight", [kv, h]), (p + "self_attn.v_proj.weight", [kv, h]),
                (p + "self_attn.o_proj.weight", [h, h]), (p + "post_attention_layernorm.weight", [h]),
                (p + "mlp.gate_proj.weight", [inter, h]), (p + "mlp.up_proj.weight", [inter, h]),
                (p + "mlp.down_proj.weight", [h, inter])]
    return out + [("model.norm.weight", [h]), ("lm_head.weight", [vocab, h])]


def sparse_safetensors(path, tensors):
    header, offset = {"__metadata__": {"format": "pt"}}, 0
    for name, shape in tensors:
        n = int(np.prod(shape)) * 2
        header[name] = {"dtype": "BF16", "shape": shape, "data_offsets": [offset, offset + n]}
        offset += n
    text = json.dumps(header).encode()
    text += b" " * (-len(text) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)) + text)
        f.truncate(8 + len(text) + offset)
    return offset


def gguf_name(name):
    name = name.replace("model.embed_tokens", "token_embd").replace("lm_head", "output").replace("model.norm", "output_norm")
    for a, b in (("model.layers.", "blk."), ("input_layernorm", "attn_norm"), ("self_attn.q_proj", "attn_q"),
                 ("self_attn.k_proj", "attn_k"), ("self_attn.v_proj", "attn_v"), ("self_attn.o_proj", "attn_output"),
                 ("post_attention_layernorm", "ffn_norm"), ("mlp.gate_proj", "ffn_gate"), ("mlp.up_proj", "ffn_up"),
                 ("mlp.down_proj", "ffn_down")):
        name = name.replace(a, b)
    return name


def sparse_gguf(path, tensors):
    def s(text):
        b = text.encode()
        return struct.pack("<Q", len(b)) + b

    kvs = [s("general.architecture") + struct.pack("<I", 8) + s("llama"),
           s("llama.block_count") + struct.pack("<II", 4, 128), s("llama.context_length") + struct.pack("<II", 4, 131072),
           s("llama.embedding_length") + struct.pack("<II", 4, 6144),
           s("llama.attention.head_count") + struct.pack("<II", 4, 48),
           s("llama.rope.freq_base") + struct.pack("<If", 6, 500000.0),
           s("tokenizer.ggml.tokens") + struct.pack("<IIQ", 9, 8, 128000) + b"".join(s(f"tok{i}") for i in range(128000))]
    out = [b"GGUF" + struct.pack("<IQQ", 3, len(tensors), len(kvs)) + b"".join(kvs)]
    offset = 0
    for name, shape in tensors:
        ne = list(reversed(shape))
        out.append(s(gguf_name(name)) + struct.pack("<I", len(ne)) + struct.pack(f"<{len(ne)}Q", *ne)
                   + struct.pack("<IQ", 1 if len(shape) > 1 else 0, offset))
        n = int(np.prod(shape)) * (2 if len(shape) > 1 else 4)
        offset += n + (-n % 32)
    head = b"".join(out)
    head += b"\0" * (-len(head) % 32)
    with open(path, "wb") as f:
        f.write(head)
        f.truncate(len(head) + offset)
    return offset


PY_LIST = r"""
import json, struct, sys
with open(sys.argv[1], "rb") as f:
    n = struct.unpack("<Q", f.read(8))[0]
    header = json.loads(f.read(n))
header.pop("__metadata__", None)
for name, t in header.items():
    print(name, t["dtype"], t["shape"], t["data_offsets"][1] - t["data_offsets"][0])
"""

GGUF_LIST = r"""
import os, sys, types
pkg = types.ModuleType("gguf")  # gguf/__init__.py imports sentencepiece and yaml: load the reader alone
pkg.__path__ = [os.path.join(sys.argv[2], "gguf")]
sys.modules["gguf"] = pkg
from gguf.gguf_reader import GGUFReader
r = GGUFReader(sys.argv[1])
for t in r.tensors:
    print(t.name, t.tensor_type.name, list(reversed([int(x) for x in t.shape])), t.n_bytes)
"""

NPY = r"""
import numpy as np, sys
path, offset, count, dtype, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5]
m = np.memmap(path, dtype=np.uint16 if dtype == "BF16" else np.float16, mode="r", offset=offset, shape=(count,))
a = (m.astype(np.uint32) << 16).view(np.float32) if dtype == "BF16" else m.astype(np.float32)
np.save(out, a.reshape(-1, 1024))
"""


def row(label, posenc, peer, peer_label):
    """Wall time, RSS and CPU time of posenc and its peer; the ratios of wall and of CPU time."""
    ratio = f"{peer[0] / posenc[0]:.1f}x (CPU {peer[2] / posenc[2]:.1f}x)" if peer else "-"
    peer_text = f"{peer[0] * 1e3:9.1f} ms {peer[1]:7.1f} MiB CPU {peer[2] * 1e3:8.1f} ms" if peer else f"{'(not run)':>38}"
    print(f"{label:<32} posenc {posenc[0] * 1e3:8.1f} ms {posenc[1]:6.1f} MiB CPU {posenc[2] * 1e3:7.1f} ms | "
          f"{peer_label:<24} {peer_text} | {ratio}")


with tempfile.TemporaryDirectory(dir=os.environ.get("BENCH_DIR", "/tmp")) as tmp:
    tensors = llama_like_tensors()
    st = os.path.join(tmp, "model.safetensors")
    gg = os.path.join(tmp, "model.gguf")
    data = sparse_safetensors(st, tensors)
    sparse_gguf(gg, tensors)
    print(f"{len(tensors)} tensors, {data / 1e9:.1f} GB of data (sparse files; headers {os.path.getsize(st) - data} and "
          f"{os.path.getsize(gg) - data} bytes)")
    list_reps = max(REPS, 20)  # a few milliseconds each: the best of more runs
    row("list safetensors", timed([POSENC, "tensors", st, "--format", "json", "-o", "/dev/null"], reps=list_reps),
        timed([sys.executable, "-c", PY_LIST, st], reps=list_reps), "python json header")
    row("list gguf", timed([POSENC, "tensors", gg, "--format", "json", "-o", "/dev/null"], reps=list_reps),
        timed([sys.executable, "-c", GGUF_LIST, gg, GGUF_PY]) if GGUF_PY else None, "gguf-py GGUFReader")
    n = TENSOR_MIB * 1024 * 1024 // 2
    rng = np.random.default_rng(1)
    # The output to the benchmark's folder (BENCH_DIR, a disk here) and, when there is one, to
    # tmpfs (/dev/shm): the same bytes, pages that are only memory.
    out_dirs = [tmp] + (["/dev/shm"] if os.path.isdir("/dev/shm") and shutil.disk_usage("/dev/shm").free > 3 * 2 * n else [])
    for dtype in ("F16", "BF16"):
        path = os.path.join(tmp, f"big_{dtype}.safetensors")
        vals = rng.standard_normal(1 << 20).astype(np.float32)
        block = vals.astype(np.float16).view(np.uint16) if dtype == "F16" else (vals.view(np.uint32) >> 16).astype(np.uint16)
        text = json.dumps({"w": {"dtype": dtype, "shape": [n // 1024, 1024], "data_offsets": [0, 2 * n]}}).encode()
        text += b" " * (-len(text) % 8)
        with open(path, "wb") as f:
            f.write(struct.pack("<Q", len(text)) + text)
            for _ in range(n // block.size):
                f.write(block.tobytes())
        subprocess.run(["cat", path], stdout=subprocess.DEVNULL, check=True)  # into the page cache
        cat = timed(["cat", path])
        label = f"{TENSOR_MIB} MiB {dtype} -> npy f32"
        for out_dir in out_dirs:
            out = os.path.join(out_dir, f"posenc_bench_{os.getpid()}.npy")
            try:  # the .npy removed whatever happens: /dev/shm is not the temporary folder
                where = "tmpfs" if out_dir == "/dev/shm" else "disk"
                try:
                    mine = timed([POSENC, "generate", "--input", f"{path}:w", "--dtype", "float32", "-o", out], fresh=out)
                except SystemExit as e:  # e.g. the memory limit: say so and go on
                    print(f"{label}: posenc refused: {e}")
                    break
                subprocess.run([POSENC, "generate", "--input", f"{path}:w", "--dtype", "float32", "-o", out], check=True)
                check = np.load(out, mmap_mode="r")
                want = block.view(np.float16).astype(np.float32) if dtype == "F16" else (block.astype(np.uint32) << 16).view(np.float32)
                assert check.shape == (n // 1024, 1024) and np.array_equal(check.reshape(-1)[: block.size], want), "posenc's .npy differs"
                out_bytes = os.path.getsize(out)
                del check
                peer = timed([sys.executable, "-c", NPY, path, str(8 + len(text)), str(n), dtype, out], fresh=out)
                row(f"{label} ({where})", mine, peer, "numpy memmap+astype+save")
                # The floors: reading the input from the page cache (cat), writing as many bytes as
                # the .npy holds to the same folder (dd from /dev/zero, 1 MiB blocks); posenc to
                # /dev/null reads and decodes only.
                dd = timed(["dd", "if=/dev/zero", f"of={out}", "bs=1M", f"count={out_bytes >> 20}", "status=none"], fresh=out)
                print(f"{'':<32} cat FILE > /dev/null {cat[0] * 1e3:7.1f} ms (CPU {cat[2] * 1e3:6.1f}); "
                      f"dd of {out_bytes >> 20} MiB to the {where} {dd[0] * 1e3:7.1f} ms (CPU {dd[2] * 1e3:6.1f}); "
                      f"posenc / cat {mine[0] / cat[0]:.1f}x, posenc / (cat + dd) {mine[0] / (cat[0] + dd[0]):.2f}x "
                      f"(CPU {mine[2] / (cat[2] + dd[2]):.2f}x)")
            finally:
                if os.path.exists(out):
                    os.remove(out)
        null = timed([POSENC, "generate", "--input", f"{path}:w", "--dtype", "float32", "--format", "npy", "-o", "/dev/null"])
        print(f"{'':<32} posenc -o /dev/null {null[0] * 1e3:7.1f} ms (CPU {null[2] * 1e3:6.1f}), RSS {null[1]:.1f} MiB: "
              f"{null[0] / cat[0]:.1f}x of cat's wall, {null[2] / cat[2]:.1f}x of its CPU")
        os.remove(path)
