#include "posenc/reports/build_info.hpp"
#include "posenc/cpu.hpp"

#include <fmt/format.h>

#include "posenc/formats/float_decimal.hpp"

#ifndef POSENC_BUILD_TYPE
#define POSENC_BUILD_TYPE "not set"
#endif

namespace posenc::reports {

std::vector<std::pair<std::string, std::string>> build_info() {
  std::vector<std::pair<std::string, std::string>> out;
#if defined(__clang__)
  out.emplace_back("compiler", fmt::format("Clang {}, C++{}", __clang_version__, __cplusplus / 100 % 100));
#elif defined(__GNUC__)
  out.emplace_back("compiler", fmt::format("GCC {}.{}.{}, C++{}", __GNUC__, __GNUC_MINOR__, __GNUC_PATCHLEVEL__, __cplusplus / 100 % 100));
#else
  out.emplace_back("compiler", "unknown");
#endif
  out.emplace_back("build type", std::string(POSENC_BUILD_TYPE).empty() ? "not set" : POSENC_BUILD_TYPE);
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
  // The same tests, in the same order, as POSENC_DISPATCH (posenc/cpu.hpp: fast_math.cpp,
  // sinusoids.cpp, non_finite.cpp) and the text writers' dispatch (float_text_avx512.cpp,
  // float_decimal_avx2.cpp).
  const bool avx512 = cpu::has(cpu::Feature::kAvx512f), avx2 = cpu::has(cpu::Feature::kAvx2);
  const char* version = avx512 ? "avx512f version" : avx2 ? "avx2 version" : "default version (scalar)";
  out.emplace_back("sin/cos kernel", version);
  out.emplace_back("sinusoid sums", version);
#else
  out.emplace_back("sin/cos kernel", "scalar (one version in this build)");
  out.emplace_back("sinusoid sums", "scalar (one version in this build)");
#endif
  out.emplace_back("number text", formats::detail::have_float_texts_avx512()  ? "AVX-512 (avx512bw, vbmi2)"
                                  : formats::detail::have_float_decimals_avx2() ? "AVX2"
                                                                           : "scalar");
  return out;
}

}  // namespace posenc::reports
