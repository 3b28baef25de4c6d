// Every float bit pattern through posenc::io::write_shortest_list (the CSV/JSON path, AVX2
// where the CPU has it) against fmt's "{}": 2^32 values, about 3 minutes on 2 cores.
//   cmake --build build --target float_text_exhaustive && build/tests/float_text_exhaustive
#include <fmt/compile.h>
#include <fmt/format.h>

#include <atomic>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <thread>
#include <vector>

#include "posenc/io/float_decimal.hpp"
#include "posenc/io/number_text.hpp"

int main() {
  constexpr std::uint64_t kAll = std::uint64_t{1} << 32;
  constexpr std::size_t kBatch = 64;
  std::atomic<std::uint64_t> differ{0};
  const auto work = [&](std::uint64_t from, std::uint64_t to) {
    float v[kBatch];
    char mine[kBatch * 25 + posenc::io::kNumberTextRoom];
    char theirs[kBatch * 25 + 64];
    const posenc::io::NonFiniteText nf{"nan", "inf", "-inf"};
    for (std::uint64_t b = from; b < to; b += kBatch) {
      char* q = theirs;
      for (std::size_t i = 0; i < kBatch; ++i) {
        v[i] = std::bit_cast<float>(static_cast<std::uint32_t>(b + i));
        if (i > 0) *q++ = ',';
        if (std::isnan(v[i])) {
          q = fmt::format_to(q, "nan");
        } else if (std::isinf(v[i])) {
          q = fmt::format_to(q, "{}", v[i] > 0 ? "inf" : "-inf");
        } else {
          q = fmt::format_to(q, FMT_COMPILE("{}"), v[i]);
        }
      }
      char* p = posenc::io::write_shortest_list(mine, v, ',', nf);
      if (p - mine != q - theirs || std::memcmp(mine, theirs, static_cast<std::size_t>(q - theirs)) != 0) {
        if (differ++ < 5) std::printf("batch at %08llx differs\n", static_cast<unsigned long long>(b));
      }
    }
  };
  std::thread half(work, 0, kAll / 2);
  work(kAll / 2, kAll);
  half.join();
  std::printf("%llu float bit patterns (AVX2 kernel: %s): %llu batches of %zu differ from fmt\n",
              static_cast<unsigned long long>(kAll), posenc::io::detail::have_float_decimals_avx2() ? "yes" : "no",
              static_cast<unsigned long long>(differ.load()), kBatch);
  return differ.load() == 0 ? 0 : 1;
}
