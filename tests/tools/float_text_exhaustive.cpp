// Every float bit pattern through each list kernel this CPU has (what write_shortest_list,
// the CSV/JSON path, runs: AVX-512, AVX2, scalar) against fmt's "{}": 2^32 values a kernel,
// about 3 minutes each on 2 cores.
//   cmake --build build --target float_text_exhaustive && build/tests/float_text_exhaustive [avx512|avx2|scalar]
#include <fmt/compile.h>
#include <fmt/format.h>

#include <atomic>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "posenc/formats/float_decimal.hpp"
#include "posenc/formats/number_text.hpp"

namespace {

using posenc::formats::detail::FloatListKernel;

/// Batches of 64 consecutive bit patterns that differ from fmt, for one kernel.
std::uint64_t differing_batches(FloatListKernel kernel) {
  constexpr std::uint64_t kAll = std::uint64_t{1} << 32;
  constexpr std::size_t kBatch = 64;
  std::atomic<std::uint64_t> differ{0};
  const auto work = [&](std::uint64_t from, std::uint64_t to) {
    float v[kBatch];
    std::size_t start[kBatch + 1];  // of each value's text in `theirs`
    char mine[kBatch * 25 + posenc::formats::kNumberTextRoom];
    char theirs[kBatch * 25 + 64];
    const posenc::formats::NonFiniteText nf{"nan", "inf", "-inf"};
    for (std::uint64_t b = from; b < to; b += kBatch) {
      char* q = theirs;
      for (std::size_t i = 0; i < kBatch; ++i) {
        v[i] = std::bit_cast<float>(static_cast<std::uint32_t>(b + i));
        if (i > 0) *q++ = ',';
        start[i] = static_cast<std::size_t>(q - theirs);
        if (std::isnan(v[i])) {
          q = fmt::format_to(q, "nan");
        } else if (std::isinf(v[i])) {
          q = fmt::format_to(q, "{}", v[i] > 0 ? "inf" : "-inf");
        } else {
          q = fmt::format_to(q, FMT_COMPILE("{}"), v[i]);
        }
      }
      start[kBatch] = static_cast<std::size_t>(q - theirs) + 1;
      char* p = posenc::formats::detail::write_float_list(mine, v, ',', nf, kernel);
      bool same = p - mine == q - theirs && std::memcmp(mine, theirs, static_cast<std::size_t>(q - theirs)) == 0;
      if (kernel == FloatListKernel::avx512) {
        // Each value alone in its lane among seven 0.5s, straight through the vector kernel:
        // it must take the group exactly when fmt's text is short fixed notation (normal,
        // no exponent, at most 15 characters), and then write that text.
        for (std::size_t i = 0; i < kBatch; ++i) {
          const std::string_view text(theirs + start[i], start[i + 1] - start[i] - 1);
          const bool short_fixed = std::isnormal(v[i]) && text.size() <= 15 && text.find('e') == std::string_view::npos;
          float group[8] = {0.5f, 0.5f, 0.5f, 0.5f, 0.5f, 0.5f, 0.5f, 0.5f};
          const std::size_t lane = i % 8;
          group[lane] = v[i];
          char out[8 * 16 + 64];
          char* o = out;
          const std::size_t taken = posenc::formats::detail::float_texts_avx512(o, group, 8, ',');
          std::string expected;
          for (std::size_t l = 0; l < 8; ++l) expected += (l == lane ? std::string(text) : std::string("0.5")) + ',';
          same = same && taken == (short_fixed ? 8 : 0) &&
                 (taken == 0 ? o == out : std::string_view(out, static_cast<std::size_t>(o - out)) == expected);
        }
      }
      if (!same) {
        if (differ++ < 5) std::printf("batch at %08llx differs\n", static_cast<unsigned long long>(b));
      }
    }
  };
  std::thread half(work, 0, kAll / 2);
  work(kAll / 2, kAll);
  half.join();
  return differ.load();
}

}  // namespace

int main(int argc, char** argv) {
  const std::string only = argc > 1 ? argv[1] : "";
  int failed = 0;
  for (const auto& [name, kernel] : {std::pair{"avx512", FloatListKernel::avx512}, std::pair{"avx2", FloatListKernel::avx2},
                                     std::pair{"scalar", FloatListKernel::scalar}}) {
    if (!only.empty() && only != name) continue;
    if (!posenc::formats::detail::have_float_list_kernel(kernel)) {
      std::printf("%s kernel: not on this CPU, skipped\n", name);
      continue;
    }
    const std::uint64_t differ = differing_batches(kernel);
    std::printf("%s kernel: %llu float bit patterns, %llu batches of 64 differ from fmt\n", name,
                static_cast<unsigned long long>(std::uint64_t{1} << 32), static_cast<unsigned long long>(differ));
    failed += differ != 0;
  }
  return failed == 0 ? 0 : 1;
}
