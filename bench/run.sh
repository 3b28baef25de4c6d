#!/usr/bin/env bash
# Benchmark: posenc against numpy, pandas and matplotlib on the works of issue 6.
# Installs Debian's python3-numpy, python3-pandas, python3-matplotlib if missing, builds posenc
# in Release (build-release/), then prints the table (see docs/performance.md).
# Usage: bash bench/run.sh [WORK-NAME-SUBSTRING]      BENCH_REPS=5 for more repetitions.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/common.sh

bench_deps "numpy pandas matplotlib" python3-numpy python3-pandas python3-matplotlib
bench_build posenc
bench_machine
/usr/bin/python3 bench/bench.py build-release/posenc "${1:-}"
