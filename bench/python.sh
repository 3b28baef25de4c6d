#!/usr/bin/env bash
# Benchmark of the Python module (issue 30, "Performance"): `import posenc`, generate() of a
# 131072 x 1024 sinusoidal table against the library's own compute of the same table and against
# the numpy recipe, and rope(hf_config=) against transformers + torch when Debian ships them.
# Builds the Release module in build-release/ (scripts/setup.sh --deps installs python3-dev and
# pybind11-dev). Usage: bash bench/python.sh       BENCH_REPS=5 for more repetitions (default 3).
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/common.sh
scripts/setup.sh --deps
bench_build _posenc
bench_machine
export PYTHONPATH="$PWD/build-release/python"
config=tests/data/configs/llama-3.1-8b.json

# import time: the best of 5 fresh interpreters (numpy is imported on first use, not by import).
/usr/bin/python3 - <<'PY'
import subprocess, sys
code = "import time; t = time.perf_counter(); import posenc; print(time.perf_counter() - t)"
runs = [float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout) for _ in range(5)]
print(f"import posenc                         {min(runs) * 1e3:8.1f} ms   (budget 50 ms)")
PY

/usr/bin/python3 - "$config" <<'PY'
import os, sys, time
import numpy as np
import posenc
reps = int(os.environ.get("BENCH_REPS", "3"))
N, D = 131072, 1024

def best(f):  # the result is freed after the clock stops, as _library_seconds frees its buffer
    out = []
    for _ in range(reps):
        t = time.perf_counter(); r = f(); out.append(time.perf_counter() - t); del r
    return min(out)

def numpy_recipe():  # the usual tutorial code (PyTorch's tutorial, in numpy), float32 out
    pe = np.empty((N, D), dtype=np.float32)
    position = np.arange(N, dtype=np.float32)[:, None]
    div_term = np.exp(np.arange(0, D, 2, dtype=np.float32) * (-np.log(10000.0) / D))
    pe[:, 0::2] = np.sin(position * div_term)
    pe[:, 1::2] = np.cos(position * div_term)
    return pe

t_py = best(lambda: posenc.generate("sinusoidal", len=N, dim=D))
t_lib = min(posenc._posenc._library_seconds("sinusoidal", {"len": N, "dim": D}) for _ in range(reps))
t_np = best(numpy_recipe)
a = posenc.generate("sinusoidal", len=N, dim=D)
print(f"generate sinusoidal {N}x{D}     {t_py:8.3f} s    library alone {t_lib:.3f} s ({t_py / t_lib:.2f}x, budget 1.2x); "
      f"numpy recipe {t_np:.3f} s ({t_np / t_py:.1f}x faster, budget 3x); numpy's buffer filled in place: "
      f"owndata={a.flags.owndata}, base={a.base}")
PY

# rope(hf_config=) as a whole process, against transformers' own classes under torch.
/usr/bin/python3 - "$config" <<'PY'
import subprocess, sys, time
config = sys.argv[1]
def proc(code):
    runs = []
    for _ in range(3):
        t = time.perf_counter(); subprocess.run([sys.executable, "-c", code], check=True, capture_output=True); runs.append(time.perf_counter() - t)
    return min(runs)
t = proc(f"import posenc; posenc.rope(hf_config={config!r})['inv_freq']")
print(f"rope(hf_config=) whole process        {t * 1e3:8.1f} ms")
try:
    import torch, transformers  # noqa: F401
except ImportError as e:
    print(f"transformers + torch: not measured ({e.name} is not installed; Debian 12 ships python3-torch 1.13 "
          "but no transformers package, and only Debian's packages are installed here)")
    try:
        import torch  # noqa: F401,F811
    except ImportError:
        pass
    else:
        # A lower bound of the transformers + torch process: transformers imports torch before it
        # builds any rope, so that process takes at least as long as 'import torch' alone.
        t3 = proc("import torch")
        print(f"import torch alone (lower bound)      {t3 * 1e3:8.1f} ms ({t3 / t:.0f}x posenc's, budget 20x: "
              f"transformers + torch is at least this)")
        # Closer to the real peer: Llama 3.1's inv_freq as transformers' _compute_llama3_parameters
        # computes it, re-derived in torch (the config read with json, no transformers classes).
        code = ("import json, math, torch; c = json.load(open(" + repr(config) + ")); s = c['rope_scaling']; "
                "d = c.get('head_dim') or c['hidden_size'] // c['num_attention_heads']; "
                "inv = 1.0 / (c['rope_theta'] ** (torch.arange(0, d, 2, dtype=torch.int64).float() / d)); "
                "lo = s['original_max_position_embeddings'] / s['low_freq_factor']; "
                "hi = s['original_max_position_embeddings'] / s['high_freq_factor']; wl = 2 * math.pi / inv; "
                "f = torch.where(wl > lo, inv / s['factor'], inv); "
                "sm = (s['original_max_position_embeddings'] / wl - s['low_freq_factor']) / (s['high_freq_factor'] - s['low_freq_factor']); "
                "mid = (1 - sm) * f / s['factor'] + sm * f; med = ~(wl < hi) * ~(wl > lo); "
                "print(torch.where(med, mid, f)[:4])")
        t4 = proc(code)
        print(f"llama3 inv_freq in torch (no classes) {t4 * 1e3:8.1f} ms ({t4 / t:.0f}x posenc's)")
else:
    code = ("import json, transformers; from transformers.modeling_rope_utils import ROPE_INIT_FUNCTIONS; "
            f"c = transformers.AutoConfig.from_pretrained({config!r}); "
            "ROPE_INIT_FUNCTIONS[c.rope_scaling['rope_type']](c, 'cpu')")
    t2 = proc(code)
    print(f"transformers + torch whole process    {t2 * 1e3:8.1f} ms ({t2 / t:.0f}x posenc's, budget 20x)")
PY
