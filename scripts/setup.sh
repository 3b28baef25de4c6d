#!/usr/bin/env bash
# Installs what posenc needs from Debian's packages (only what is missing; runs
# apt-get update only then), configures and builds into build/.
#   scripts/setup.sh            build dependencies only
#   scripts/setup.sh --tests    also the test dependencies (numpy, pandas; g++ brings the
#                               AddressSanitizer and UBSan runtimes scripts/test.sh uses)
#   scripts/setup.sh --fuzz     also clang for tests/fuzz/run.sh
#   scripts/setup.sh --deps     install the build dependencies only (no configure, no build)
#   scripts/setup.sh --test-deps  install the build and test dependencies only (scripts/test.sh)
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(g++ cmake ninja-build pkg-config libcli11-dev libfmt-dev nlohmann-json3-dev libstb-dev
          libdeflate-dev libzip-dev catch2 fonts-dejavu-core)
if [[ "${1:-}" == "--tests" || "${1:-}" == "--test-deps" ]]; then
  packages+=(python3 python3-numpy python3-pandas)
fi
if [[ "${1:-}" == "--fuzz" ]]; then
  packages+=(clang)
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if (( ${#missing[@]} )); then
  echo "setup: installing ${missing[*]}" >&2
  sudo=""; [[ $(id -u) -ne 0 ]] && sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
fi

[[ "${1:-}" == "--deps" || "${1:-}" == "--test-deps" ]] && exit 0

build_tests=OFF
[[ "${1:-}" == "--tests" ]] && build_tests=ON
# Ninja compiles the units of every target side by side (make waits for each library to be
# linked before it starts the next target); a folder configured earlier keeps its generator.
generator=()
[[ ! -f build/CMakeCache.txt ]] && generator=(-G Ninja)
cmake -S . -B build "${generator[@]}" -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=$build_tests >/dev/null
cmake --build build -j "$(nproc)"
