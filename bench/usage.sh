#!/usr/bin/env bash
# Benchmark: posenc usage and rope diff --weights on a synthetic 7B-shaped checkpoint (2.1 GB of BF16
# q/k projections and a 1.1 GB Q8_0 GGUF made from it, in /tmp, deleted after), against cat from the
# page cache and numpy on memory-mapped arrays (bench/usage.py says what each number measures).
# Builds posenc in Release (build-release/). Usage: bash bench/usage.sh [LAYERS, default 32] [KEEP_DIR]
# (KEEP_DIR: make the files there once and reuse them, not deleted)
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/common.sh
bench_build posenc
bench_machine
/usr/bin/python3 bench/usage.py build-release/posenc "${1:-32}" ${2:+"$2"}
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
