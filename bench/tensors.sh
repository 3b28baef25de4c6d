#!/usr/bin/env bash
# Benchmark: listing the tensors of sparse ~100 GB safetensors and GGUF files, and a large F16/BF16
# tensor to a float32 .npy, by posenc against Python's header reading, gguf-py's GGUFReader and
# numpy (bench/tensors.py says what each row measures; docs/performance.md). Builds posenc in
# Release (build-release/). gguf-py is not packaged by Debian 12: point GGUF_PY at llama.cpp's
# gguf-py/ folder (as for bench/dequant.sh); without it that column stays empty.
# Usage: bash bench/tensors.sh [MiB of the large tensor, default 1024]   BENCH_REPS=3 runs each.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/common.sh

bench_deps numpy python3-numpy
bench_build posenc
bench_machine
/usr/bin/python3 bench/tensors.py build-release/posenc "${1:-1024}"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
