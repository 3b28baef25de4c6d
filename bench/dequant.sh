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
source bench/common.sh

bench_deps numpy python3-numpy
bench_build gguf_tensor_dump ON
bench_machine
echo "uptime: $(uptime)"
/usr/bin/python3 bench/dequant.py build-release/tests/gguf_tensor_dump "${1:-64}"
echo "uptime: $(uptime)"
