#!/usr/bin/env bash
# Benchmark: posenc against numpy, pandas and matplotlib on the works of issue 6.
# Installs Debian's python3-numpy, python3-pandas, python3-matplotlib if missing, builds posenc
# in Release (build-release/), then prints the table (see docs/performance.md).
# Usage: bash bench/run.sh [WORK-NAME-SUBSTRING]      BENCH_REPS=5 for more repetitions.
set -euo pipefail
cd "$(dirname "$0")/.."

# posenc's build dependencies (scripts/setup.sh installs only what is missing), then the peers.
scripts/setup.sh --deps
if ! /usr/bin/python3 -c 'import numpy, pandas, matplotlib' 2>/dev/null; then
  SUDO=$([ "$(id -u)" = 0 ] && echo "" || echo sudo)
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq python3-numpy python3-pandas python3-matplotlib >/dev/null
fi

cmake -S . -B build-release -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF >/dev/null
cmake --build build-release --target posenc -j "$(nproc)" >/dev/null

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), load $(cut -d' ' -f1-3 /proc/loadavg)"
/usr/bin/python3 bench/bench.py build-release/posenc "${1:-}"
