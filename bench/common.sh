# Sourced by the bench/*.sh scripts (from the top of the tree): what each of them does before it
# measures.
#   bench_deps "numpy pandas" python3-numpy python3-pandas
#       posenc's build dependencies (scripts/setup.sh installs only what is missing), then the
#       Debian packages when Debian's python3 cannot import those modules (apt-get update only then)
#   bench_build TARGET [BUILD_TESTING]   TARGET built in Release in build-release/ (tests OFF by default)
#   bench_machine                        the cores, the CPU and the load average, one line

bench_deps() {
  local modules=${1// /, }
  shift
  scripts/setup.sh --deps
  if ! /usr/bin/python3 -c "import $modules" 2>/dev/null; then
    local sudo
    sudo=$([ "$(id -u)" = 0 ] && echo "" || echo sudo)
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$@" >/dev/null
  fi
}

bench_build() {
  cmake -S . -B build-release -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING="${2:-OFF}" >/dev/null
  cmake --build build-release --target "$1" -j "$(nproc)" >/dev/null
}

bench_machine() {
  echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), load $(cut -d' ' -f1-3 /proc/loadavg)"
}
