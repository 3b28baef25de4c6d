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

packages=(g++ cmake make pkg-config libcli11-dev libfmt-dev nlohmann-json3-dev libstb-dev
          libdeflate-dev libzip-dev catch2 fonts-dejavu-core
          python3-dev pybind11-dev python3-numpy)  # the Python module (python/; numpy at run time)
if [[ "${1:-}" == "--tests" || "${1:-}" == "--test-deps" ]]; then
  packages+=(python3 python3-numpy python3-pandas python3-pytest zsh fish)  # zsh, fish: the completion tests run in them
  # python3-pytest: the Python module's tests (tests/python)
fi
if [[ "${1:-}" == "--fuzz" ]]; then
  packages+=(clang)
fi
# Wanted, not needed: Ninja builds faster than make (below); without it, make builds.
optional=(ninja-build)

missing=() missing_optional=()
installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
for p in "${packages[@]}"; do installed "$p" || missing+=("$p"); done
for p in "${optional[@]}"; do installed "$p" || missing_optional+=("$p"); done
sudo=""; [[ $(id -u) -ne 0 ]] && sudo="sudo"
if (( ${#missing[@]} )); then
  echo "setup: installing ${missing[*]} ${missing_optional[*]}" >&2
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" \
    "${missing_optional[@]}" >&2
elif (( ${#missing_optional[@]} )); then
  echo "setup: installing ${missing_optional[*]}" >&2
  { $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
      "${missing_optional[@]}" >&2; } || echo "setup: could not install ${missing_optional[*]}: building with make" >&2
fi

[[ "${1:-}" == "--deps" || "${1:-}" == "--test-deps" ]] && exit 0

build_tests=OFF
[[ "${1:-}" == "--tests" ]] && build_tests=ON
# Ninja compiles the units of every target side by side (make waits for each library to be
# linked before it starts the next target); a folder configured earlier keeps its generator.
generator=()
[[ ! -f build/CMakeCache.txt ]] && command -v ninja >/dev/null && generator=(-G Ninja)
cmake -S . -B build "${generator[@]}" -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=$build_tests >/dev/null
cmake --build build -j "$(nproc)"
