#!/usr/bin/env python3
"""posenc.rope(hf_config=) against transformers' own classes under torch, as whole processes
(bench/python.sh, issue 30 "Performance": posenc >= 20x faster, start-up included).

Usage: python_transformers.py CONFIG.json [REPS]     (PYTHONPATH must find posenc)

The transformers process imports LlamaConfig and LlamaRotaryEmbedding, reads CONFIG with
LlamaConfig.from_json_file and builds LlamaRotaryEmbedding(config=...), whose inv_freq comes
from transformers' rope initialisation for the config's rope_type (llama3 for Llama 3.1); the
posenc process runs posenc.rope(hf_config=CONFIG)["inv_freq"]. Both print their inv_freq, which
are compared (float32 against float64), then both are timed: REPS rounds (default 5), the two
processes alternating, after one untimed run of each (the .pyc files written); best wall time
and the CPU seconds of that run, with the load average.

Environment (nothing is downloaded; without a tree the row says so and is skipped):
  POSENC_TRANSFORMERS_TREE  a transformers source tree (its src/ goes on the path): a release
                            that imports with the machine's torch. Debian 12 ships torch 1.13;
                            v4.47.1 is the last release without torch>=2.0 (the llama3
                            rope_type is there since v4.43).
  POSENC_TRANSFORMERS_DEPS  a PYTHONPATH with what transformers needs that Debian does not
                            package: huggingface_hub (pure Python, >=0.24 for v4.47) and
                            safetensors (>=0.4.1, a Rust extension), each with its .dist-info
                            (transformers checks their versions when imported).
  tokenizers (Rust, and no Debian package) is only needed by transformers for tokenizer code
  that it imports at module level (integrations/ggml.py, convert_slow_tokenizer.py) and never
  calls here; when `import tokenizers` fails, a stand-in package is written to a temporary
  folder (every name it is asked for is None) and the output says so: the real tokenizers
  would add the load of its shared object, so transformers' time is then a lower bound.
"""
import json
import os
import resource
import subprocess
import sys
import tempfile
import time

STANDIN_MODULES = ["__init__", "models", "decoders", "normalizers", "pre_tokenizers", "processors", "trainers"]


def child_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run(code, env):
    t, c = time.perf_counter(), child_cpu()
    p = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    wall, cpu = time.perf_counter() - t, child_cpu() - c
    if p.returncode != 0:
        raise RuntimeError(p.stderr.strip().splitlines()[-1] if p.stderr.strip() else f"exit {p.returncode}")
    return wall, cpu, p.stdout


def lower_bound(posenc_code, env, reps):
    """Without transformers: `import torch` alone, which the transformers process does first."""
    if subprocess.run([sys.executable, "-c", "import torch"], capture_output=True).returncode != 0:
        return
    run(posenc_code, env), run("import torch", env)
    po = min(run(posenc_code, env)[:2] for _ in range(reps))
    to = min(run("import torch", env)[:2] for _ in range(reps))
    print(f"rope(hf_config=) whole process        {po[0] * 1e3:8.1f} ms  ({po[1] * 1e3:.0f} ms CPU)")
    print(f"import torch alone (a lower bound)    {to[0] * 1e3:8.1f} ms  ({to[1] * 1e3:.0f} ms CPU): "
          f"{to[0] / po[0]:.1f}x posenc's wall; best of {reps}, load {' '.join(open('/proc/loadavg').read().split()[:3])}")


def main():
    config = os.path.abspath(sys.argv[1])
    reps = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    tree = os.environ.get("POSENC_TRANSFORMERS_TREE", "")
    posenc_env = dict(os.environ)
    posenc_code = ("import posenc\n"
                   f"print(posenc.rope(hf_config={config!r})['inv_freq'].tolist())\n")
    if not tree or not os.path.isdir(os.path.join(tree, "src", "transformers")):
        print("rope(hf_config=) vs transformers: skipped (set POSENC_TRANSFORMERS_TREE to a transformers source "
              "tree and POSENC_TRANSFORMERS_DEPS to huggingface_hub + safetensors; bench/python_transformers.py)")
        lower_bound(posenc_code, posenc_env, reps)
        return 0
    tf_path = [os.path.join(tree, "src")] + [p for p in os.environ.get("POSENC_TRANSFORMERS_DEPS", "").split(":") if p]
    standin = None
    probe = subprocess.run([sys.executable, "-c", "import tokenizers"], env=dict(os.environ, PYTHONPATH=":".join(tf_path)),
                           capture_output=True)
    if probe.returncode != 0:
        standin = tempfile.mkdtemp(prefix="posenc-bench-")
        os.mkdir(os.path.join(standin, "tokenizers"))
        for m in STANDIN_MODULES:
            with open(os.path.join(standin, "tokenizers", m + ".py"), "w") as f:
                f.write("def __getattr__(name):  # bench stand-in: names imported at module level, never called\n"
                        "    return None\n")
        tf_path.append(standin)
    tf_env = dict(os.environ, PYTHONPATH=":".join(tf_path))
    tf_code = ("import json, transformers\n"
               "from transformers import LlamaConfig\n"
               "from transformers.models.llama.modeling_llama import LlamaRotaryEmbedding\n"
               f"c = LlamaConfig.from_json_file({config!r})\n"
               "e = LlamaRotaryEmbedding(config=c)\n"
               "import torch\n"
               "print(json.dumps({'version': transformers.__version__, 'torch': torch.__version__, "
               "'rope_type': e.rope_type, 'inv_freq': e.inv_freq.tolist()}))\n")
    try:
        _, _, out = run(tf_code, tf_env)
    except RuntimeError as e:
        print(f"rope(hf_config=) vs transformers: skipped: transformers does not import here: {e}")
        lower_bound(posenc_code, posenc_env, reps)
        return 0
    tf = json.loads(out)
    _, _, out = run(posenc_code, posenc_env)
    ours = json.loads(out)
    if len(ours) != len(tf["inv_freq"]):
        print(f"inv_freq lengths differ: posenc {len(ours)}, transformers {len(tf['inv_freq'])}")
        return 1
    rel = max(abs(a - b) / abs(b) for a, b in zip(ours, tf["inv_freq"]))
    t_tf, t_po = [], []
    for _ in range(reps):
        t_po.append(run(posenc_code, posenc_env)[:2])
        t_tf.append(run(tf_code, tf_env)[:2])
    po, tr = min(t_po), min(t_tf)
    load = open("/proc/loadavg").read().split()[:3]
    print(f"transformers {tf['version']} (torch {tf['torch']}, rope_type {tf['rope_type']}): inv_freq of "
          f"{len(ours)} pairs, posenc's within {rel:.1e} (relative) of transformers' float32")
    if standin:
        print("  tokenizers: a stand-in module (tokenizers is not importable here), so transformers' time is a lower bound")
    print(f"rope(hf_config=) whole process        {po[0] * 1e3:8.1f} ms  ({po[1] * 1e3:.0f} ms CPU)")
    print(f"transformers + torch whole process    {tr[0] * 1e3:8.1f} ms  ({tr[1] * 1e3:.0f} ms CPU): "
          f"{tr[0] / po[0]:.1f}x posenc's wall, {tr[1] / po[1]:.1f}x its CPU (budget 20x); best of {reps}, "
          f"load {' '.join(load)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
