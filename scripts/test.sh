#!/usr/bin/env bash
# Installs what is missing, builds the whole suite under AddressSanitizer +
# UndefinedBehaviorSanitizer (build-asan/) and runs every test through ctest.
#   POSENC_SANITIZE=0 scripts/test.sh    the same suite on the Release build (build/) instead
# One build and one run, not two: on the 2-core machine the Release build and run cost as
# much again (README, "How long the tests take"), and every test passes under both.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --test-deps
jobs="$(nproc)"
if [[ "${POSENC_SANITIZE:-1}" == 0 ]]; then
  dir=build
  flags=(-DCMAKE_BUILD_TYPE=Release)
else
  # The library and posenc at -O1 with the sanitizers, the Catch2 test code at -O0 without
  # them (CMakeLists.txt, POSENC_SANITIZE).
  dir=build-asan
  flags=(-DCMAKE_BUILD_TYPE=Debug "-DCMAKE_CXX_FLAGS_DEBUG=-O1 -g1" -DPOSENC_SANITIZE=ON)
  export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:allocator_may_return_null=1"
  export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
fi
# Ninja runs the units of every target side by side (make waits for each library to be linked
# before compiling the next target); a folder configured earlier keeps its generator.
generator=()
[[ ! -f "$dir/CMakeCache.txt" ]] && command -v ninja >/dev/null && generator=(-G Ninja)
cmake -S . -B "$dir" "${generator[@]}" "${flags[@]}" -DBUILD_TESTING=ON >/dev/null
cmake --build "$dir" -j "$jobs"
# Twice as many tests as cores: the integration scripts wait on their posenc processes and on
# Python start-up, so at -j nproc the cores sat a third idle (ctest at -j2: 142 s wall for
# 193 CPU-s; -j4: 118 s, same CPU).
ctest --test-dir "$dir" --output-on-failure -j "$((jobs * 2))"
