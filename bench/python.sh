#!/usr/bin/env bash
# Benchmark of the Python module (issue 30, "Performance"): `import posenc`, generate() of a
# 131072 x 1024 sinusoidal table against the library's own compute of the same table and against
# the numpy recipe, and rope(hf_config=) against transformers + torch (bench/python_transformers.py).
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

# rope(hf_config=) as a whole process against transformers' LlamaConfig + LlamaRotaryEmbedding
# under torch, the same run (bench/python_transformers.py: POSENC_TRANSFORMERS_TREE names a
# transformers source tree, POSENC_TRANSFORMERS_DEPS the huggingface_hub and safetensors it needs;
# without them, `import torch` alone as a lower bound).
/usr/bin/python3 bench/python_transformers.py "$config" "${BENCH_REPS:-5}"
