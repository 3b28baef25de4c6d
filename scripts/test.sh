#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test through ctest; then builds the whole
# suite again under AddressSanitizer + UndefinedBehaviorSanitizer (build-asan/) and runs it.
#   POSENC_SANITIZE=0 scripts/test.sh    skip the sanitizer pass
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --tests
ctest --test-dir build --output-on-failure -j "$(nproc)"

if [[ "${POSENC_SANITIZE:-1}" != 0 ]]; then
  san="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
  cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DBUILD_TESTING=ON \
        -DCMAKE_CXX_FLAGS="-O1 -g1 $san" -DCMAKE_EXE_LINKER_FLAGS="$san" >/dev/null
  cmake --build build-asan -j "$(nproc)"
  export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:allocator_may_return_null=1"
  export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
  ctest --test-dir build-asan --output-on-failure -j "$(nproc)"
fi
