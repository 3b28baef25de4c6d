#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (AddressSanitizer + UndefinedBehaviorSanitizer) in
# build-fuzz/ and runs one of them for a number of executions on its corpus.
#   tests/fuzz/run.sh TARGET RUNS      TARGET: npy npz csv config model cli gguf safetensors gguf_tensors; e.g. tests/fuzz/run.sh npy 1000000
#   tests/fuzz/run.sh TARGET RUNS -max_total_time=600   more libFuzzer flags after RUNS
#   tests/fuzz/run.sh build            only build
# New inputs go to build-fuzz/corpus/TARGET (the seed corpus under tests/fuzz/corpus/ is not
# changed); a crash is saved as build-fuzz/crash-* and the script exits non-zero.
set -euo pipefail
cd "$(dirname "$0")/../.."
target="${1:?usage: tests/fuzz/run.sh TARGET RUNS (TARGET: npy npz csv config model cli gguf safetensors gguf_tensors, or build)}"
runs="${2:-100000}"
CXX="${CXX_FUZZ:-$(command -v clang++-14 || command -v clang++)}"
san="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
gen=(); command -v ninja >/dev/null && gen=(-G Ninja)
cmake -S . -B build-fuzz "${gen[@]}" -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_COMPILER="$CXX" \
      -DBUILD_TESTING=OFF -DPOSENC_FUZZ=ON \
      -DCMAKE_CXX_FLAGS="-O1 -g $san -fsanitize=fuzzer-no-link" \
      -DCMAKE_EXE_LINKER_FLAGS="$san" >/dev/null
if [[ "$target" == build ]]; then
  cmake --build build-fuzz -j 2
  exit 0
fi
case "$target" in npy|npz|csv|config|model|cli|gguf|safetensors|gguf_tensors) ;; *) echo "run.sh: unknown target '$target' (npy, npz, csv, config, model, cli, gguf, safetensors, gguf_tensors)" >&2; exit 2 ;; esac
cmake --build build-fuzz -j 2 --target "fuzz_$target"
mkdir -p "build-fuzz/corpus/$target"
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
dict=()
root="$(pwd)"
[[ -f "tests/fuzz/$target.dict" ]] && dict=(-dict="$root/tests/fuzz/$target.dict")
# The model target reads each config about ten times (report, layer plan, each layer type, each
# scheme): a config of 250,001 layers is linear work (0.19 s in Release) that takes 6-7 s under
# the sanitizers, more on a loaded machine; its inputs get 30 s before libFuzzer calls it a hang.
timeout=10
[[ "$target" == model ]] && timeout=30
start=$(date +%s)
# Absolute paths: the cli target runs in a temporary folder.
"$root/build-fuzz/tests/fuzz/fuzz_$target" -runs="$runs" -max_len=4096 -rss_limit_mb=2048 -timeout="$timeout" \
    -artifact_prefix="$root/build-fuzz/" -print_final_stats=1 "${dict[@]}" "${@:3}" \
    "$root/build-fuzz/corpus/$target" "$root/tests/fuzz/corpus/$target"
echo "fuzz_$target: finished in $(( $(date +%s) - start )) s (see Done/stat:: lines above)" >&2
