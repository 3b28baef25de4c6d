#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test through ctest; then builds the whole
# suite again under AddressSanitizer + UndefinedBehaviorSanitizer (build-asan/) and runs it.
#   POSENC_SANITIZE=0 scripts/test.sh    skip the sanitizer pass
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --tests
ctest --test-dir build --output-on-failure -j "$(nproc)"

if [[ "${POSENC_SANITIZE:-1}" != 0 ]]; then
  # The library and posenc at -O1 with the sanitizers; option parsing at -O0 and the Catch2 test
  # code at -O0 without them (CMakeLists.txt, POSENC_SANITIZE).
  cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g1" \
        -DPOSENC_SANITIZE=ON -DBUILD_TESTING=ON >/dev/null
  cmake --build build-asan -j "$(nproc)"
  export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:allocator_may_return_null=1"
  export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
  ctest --test-dir build-asan --output-on-failure -j "$(nproc)"
fi
