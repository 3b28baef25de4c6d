#pragma once
/// What `posenc --version` says about the binary: compiler, build type and the vector kernels
/// this CPU runs.
#include <string>
#include <utility>
#include <vector>

namespace posenc::reports {

/// {name, value} lines: "compiler" (e.g. "GCC 12.2.0, C++20"), "build type" (CMake's, e.g.
/// "Release"), and one line per kernel family with the variant chosen on this CPU:
/// "sin/cos kernel" and "sinusoid sums" (the version POSENC_DISPATCH picks: avx512f, avx2 or
/// default), "number text" (AVX-512, AVX2 or scalar).
std::vector<std::pair<std::string, std::string>> build_info();

}  // namespace posenc::reports
