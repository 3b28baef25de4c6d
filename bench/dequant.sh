#!/usr/bin/env bash
# Benchmark: GGUF dequantisation (Q4_K, Q6_K, Q8_0) by posenc's tensor reader against gguf-py's
# numpy dequantiser (bench/dequant.py says what each column measures; docs/performance.md).
# Builds the test-only tool gguf_tensor_dump in Release (build-release/, BUILD_TESTING on: only
# that target and the library are built). gguf-py is pure Python + numpy and not packaged by
# Debian 12: point GGUF_PY at llama.cpp's gguf-py/ folder (a checkout, not committed here), e.g.
#   git --git-dir=LLAMA_CPP_MIRROR archive HEAD gguf-py | tar -x -C /tmp && GGUF_PY=/tmp/gguf-py bash bench/dequant.sh
# Without GGUF_PY the gguf-py columns stay empty.
# Usage: bash bench/dequant.sh [MiB per tensor, default 64]      BENCH_REPS=5 runs each.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/setup.sh --deps
if ! /usr/bin/python3 -c 'import numpy' 2>/dev/null; then
  SUDO=$([ "$(id -u)" = 0 ] && echo "" || echo sudo)
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq python3-numpy >/dev/null
fi

cmake -S . -B build-release -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=ON >/dev/null
cmake --build build-release --target gguf_tensor_dump -j "$(nproc)" >/dev/null

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "uptime: $(uptime)"
/usr/bin/python3 bench/dequant.py build-release/tests/gguf_tensor_dump "${1:-64}"
echo "uptime: $(uptime)"
