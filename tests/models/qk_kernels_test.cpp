// The q/k dot-product kernels (src/models/qk_kernels*.cpp) against a long-double reference: every
// kernel this CPU runs (portable, AVX2, AVX-512), BF16 and float32 rows, gains folded, lengths
// with and without a tail. The reference sums the exact products (a BF16 or float32 value times a
// float32 gain is exact in double; two such products are exact in long double's 64-bit
// mantissa), so |kernel − reference| must stay within the header's bound kQkSumBound·Σ|t_c|.
#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "posenc/formats/gguf_tensors.hpp"
#include "posenc/models/qk_kernels.hpp"

using posenc::models::QkKernel;
using posenc::models::QkRowPtr;

namespace {

struct QkTestRows {
  std::vector<std::uint16_t> bits[4];  // BF16 rows a, b, x, y
  std::vector<float> values[4];        // the same values as float32
  std::vector<float> gq, gk;
};

QkTestRows qk_test_rows(std::size_t n, unsigned seed, bool cancel) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  std::uniform_real_distribution<float> gain(0.1f, 3.0f);
  QkTestRows r;
  for (int k = 0; k < 4; ++k)
    for (std::size_t c = 0; c < n; ++c) {
      float v = normal(rng) * (c % 97 == 0 ? 300.0f : 1.0f);  // a few large values
      if (cancel && k == 2) v = -std::bit_cast<float>(static_cast<std::uint32_t>(r.bits[0][c]) << 16);  // x = −a
      const auto b = static_cast<std::uint16_t>(std::bit_cast<std::uint32_t>(v) >> 16);  // truncated to BF16
      r.bits[k].push_back(b);
      r.values[k].push_back(std::bit_cast<float>(static_cast<std::uint32_t>(b) << 16));
    }
  for (std::size_t c = 0; c < n; ++c) {
    r.gq.push_back(gain(rng));
    r.gk.push_back(cancel ? r.gq.back() : gain(rng));
  }
  return r;
}

/// Exact sum of u_c·v_c (with the scales) and Σ|u_c·v_c|, in long double.
std::pair<long double, long double> qk_exact(const std::vector<float>& u, const std::vector<float>& gu,
                                             const std::vector<float>& v, const std::vector<float>& gv) {
  long double s = 0, a = 0;
  for (std::size_t c = 0; c < u.size(); ++c) {
    const long double t = (static_cast<long double>(u[c]) * gu[c]) * (static_cast<long double>(v[c]) * gv[c]);
    s += t;
    a += std::fabs(t);
  }
  return {s, a};
}

}  // namespace

TEST_CASE("qk_pair_sums: every kernel within kQkSumBound of the exact sums", "[qk_kernels]") {
  const auto kernels = posenc::models::qk_kernels();
  REQUIRE(kernels.front() == QkKernel::kPortable);
  for (const std::size_t n : {std::size_t{0}, std::size_t{5}, std::size_t{16}, std::size_t{263}, std::size_t{4096},
                              std::size_t{4096 + 13}, std::size_t{18432}})
    for (const bool cancel : {false, true}) {
      const QkTestRows r = qk_test_rows(n, static_cast<unsigned>(n) + 1, cancel);
      const auto& [a, b, x, y] = r.values;
      const std::pair<long double, long double> want[10] = {
          qk_exact(a, r.gq, a, r.gq), qk_exact(b, r.gq, b, r.gq), qk_exact(a, r.gq, b, r.gq),
          qk_exact(x, r.gk, x, r.gk), qk_exact(y, r.gk, y, r.gk), qk_exact(x, r.gk, y, r.gk),
          qk_exact(a, r.gq, x, r.gk), qk_exact(a, r.gq, y, r.gk), qk_exact(b, r.gq, x, r.gk),
          qk_exact(b, r.gq, y, r.gk)};
      for (const QkKernel k : kernels)
        for (const bool bf16 : {true, false}) {
          CAPTURE(n, cancel, posenc::models::to_string(k), bf16);
          QkRowPtr row[4];
          for (int j = 0; j < 4; ++j)
            row[j] = bf16 ? QkRowPtr{r.bits[j].data(), true} : QkRowPtr{r.values[j].data(), false};
          const auto s = posenc::models::qk_pair_sums(row[0], row[1], row[2], row[3], r.gq.data(), r.gk.data(), n, k);
          const double got[10] = {s.qaa, s.qbb, s.qab, s.kaa, s.kbb, s.kab, s.c00, s.c01, s.c10, s.c11};
          for (int j = 0; j < 10; ++j) {
            CAPTURE(j);
            CHECK(std::fabs(static_cast<long double>(got[j]) - want[j].first) <=
                  posenc::models::kQkSumBound * want[j].second);
          }
          if (cancel) CHECK(std::fabs(s.c00 + s.qaa) <= posenc::models::kQkSumBound * 2 * s.qaa);  // x = −a
        }
    }
}

TEST_CASE("qk_dots: every kernel within kQkSumBound of the exact sums", "[qk_kernels]") {
  for (const std::size_t n : {std::size_t{3}, std::size_t{4096}, std::size_t{4096 + 7}}) {
    const QkTestRows r = qk_test_rows(n, 99, false);
    const std::vector<float> one(n, 1.0f);
    const auto gh = qk_exact(r.values[0], r.gq, r.values[1], one);
    const auto gg = qk_exact(r.values[0], r.gq, r.values[0], r.gq);
    const auto hh = qk_exact(r.values[1], one, r.values[1], one);
    std::vector<float> g(n);
    for (std::size_t c = 0; c < n; ++c) g[c] = r.values[0][c] * r.gq[c];  // rounded: the bound's gain roundings
    for (const QkKernel k : posenc::models::qk_kernels())
      for (const bool bf16 : {true, false}) {
        CAPTURE(n, posenc::models::to_string(k), bf16);
        const QkRowPtr h = bf16 ? QkRowPtr{r.bits[1].data(), true} : QkRowPtr{r.values[1].data(), false};
        const auto d = posenc::models::qk_dots(g.data(), h, n, k);
        CHECK(std::fabs(static_cast<long double>(d.gh) - gh.first) <= posenc::models::kQkSumBound * gh.second);
        CHECK(std::fabs(static_cast<long double>(d.gg) - gg.first) <= posenc::models::kQkSumBound * gg.second);
        CHECK(std::fabs(static_cast<long double>(d.hh) - hh.first) <= posenc::models::kQkSumBound * hh.second);
        long double dd = 0;
        for (std::size_t c = 0; c < n; ++c) dd += std::pow(static_cast<long double>(g[c]) - r.values[1][c], 2.0L);
        CHECK(std::fabs(static_cast<long double>(d.dd) - dd) <= posenc::models::kQkSumBound * dd);
      }
    for (const QkKernel k : posenc::models::qk_kernels()) {  // Σ h² alone (qk_sumsq)
      CAPTURE(n, posenc::models::to_string(k));
      const double s1 = posenc::models::qk_sumsq({r.bits[1].data(), true}, n, k);
      const double s2 = posenc::models::qk_sumsq({r.values[1].data(), false}, n, k);
      CHECK(std::fabs(static_cast<long double>(s1) - hh.first) <= posenc::models::kQkSumBound * hh.second);
      CHECK(std::fabs(static_cast<long double>(s2) - hh.first) <= posenc::models::kQkSumBound * hh.second);
    }
    // three rows at once (qk_multi_dots): each within the bound, Σ g² too
    const std::pair<long double, long double> want_gh[3] = {gh, qk_exact(r.values[0], r.gq, r.values[2], one),
                                                            qk_exact(r.values[0], r.gq, r.values[3], one)};
    const std::pair<long double, long double> want_hh[3] = {hh, qk_exact(r.values[2], one, r.values[2], one),
                                                            qk_exact(r.values[3], one, r.values[3], one)};
    for (const QkKernel k : posenc::models::qk_kernels())
      for (const bool bf16 : {true, false})
        for (std::size_t m = 0; m <= 3; ++m) {
          CAPTURE(n, posenc::models::to_string(k), bf16, m);
          QkRowPtr h[3];
          for (std::size_t j = 0; j < 3; ++j)
            h[j] = bf16 ? QkRowPtr{r.bits[j + 1].data(), true} : QkRowPtr{r.values[j + 1].data(), false};
          const int close = static_cast<int>(m) - 1;  // Σ (g − h_close)² too (none when m = 0)
          const auto d = posenc::models::qk_multi_dots(g.data(), h, m, n, close, k);
          CHECK(std::fabs(static_cast<long double>(d.gg) - gg.first) <= posenc::models::kQkSumBound * gg.second);
          long double dd = 0;
          for (std::size_t c = 0; c < n && m > 0; ++c)
            dd += std::pow(static_cast<long double>(g[c]) - r.values[m][c], 2.0L);
          CHECK(std::fabs(static_cast<long double>(d.dd) - dd) <= posenc::models::kQkSumBound * dd);
          for (std::size_t j = 0; j < m; ++j) {
            CAPTURE(j);
            CHECK(std::fabs(static_cast<long double>(d.gh[j]) - want_gh[j].first) <=
                  posenc::models::kQkSumBound * want_gh[j].second);
            CHECK(std::fabs(static_cast<long double>(d.hh[j]) - want_hh[j].first) <=
                  posenc::models::kQkSumBound * want_hh[j].second);
          }
        }
    // a row one float step away from g in every other column: Σ (g − h)² is tiny against Σ g²
    // (a quantisation's relative error), summed directly it keeps the bound; gg + hh − 2gh would not
    std::vector<float> close(g);
    long double dd = 0;
    for (std::size_t c = 0; c < n; c += 2) {
      close[c] = std::nextafter(g[c], INFINITY);
      dd += std::pow(static_cast<long double>(close[c]) - g[c], 2.0L);
    }
    for (const QkKernel k : posenc::models::qk_kernels()) {
      CAPTURE(n, posenc::models::to_string(k));
      const auto d = posenc::models::qk_dots(g.data(), {close.data(), false}, n, k);
      CHECK(std::fabs(static_cast<long double>(d.dd) - dd) <= posenc::models::kQkSumBound * dd);
    }
  }
}

TEST_CASE("qk_decode_q8_0: the same bits as formats::dequantize_ggml", "[qk_kernels]") {
  // 64 blocks of random scales (normal, subnormal, zero, negative f16) and int8 values.
  std::mt19937 rng(8);
  std::string bytes;
  const std::uint16_t scales[] = {0x3C00, 0x0001, 0x0000, 0xBC00, 0x2E66, 0x7BFF, 0x8400, 0x1234};
  for (int b = 0; b < 64; ++b) {
    const std::uint16_t d = b < 8 ? scales[b] : static_cast<std::uint16_t>(rng() & 0x7BFF);
    bytes.push_back(static_cast<char>(d & 0xFF));
    bytes.push_back(static_cast<char>(d >> 8));
    for (int j = 0; j < 32; ++j) bytes.push_back(static_cast<char>(rng() & 0xFF));
  }
  std::vector<float> want(64 * 32), got(64 * 32, -1.0f);
  posenc::formats::dequantize_ggml(8, bytes, want);
  if (!posenc::models::qk_decode_q8_0(bytes.data(), 64, got.data())) {
    CHECK(posenc::models::qk_best_kernel() != QkKernel::kAvx512);  // declined only where AVX-512 is absent
    return;
  }
  for (std::size_t i = 0; i < want.size(); ++i) {
    CAPTURE(i);
    CHECK(std::bit_cast<std::uint32_t>(got[i]) == std::bit_cast<std::uint32_t>(want[i]));
  }
  // the sums with the Q8_0 row decoded in registers: the same values, so the same sums as on the
  // decoded row (2048 columns, three BF16 rows)
  const QkTestRows r = qk_test_rows(64 * 32, 5, false);
  const QkRowPtr h[3] = {{r.bits[0].data(), true}, {r.bits[1].data(), true}, {r.bits[2].data(), true}};
  for (std::size_t m = 1; m <= 3; ++m) {
    CAPTURE(m);
    posenc::models::QkMultiDots fused;
    REQUIRE(posenc::models::qk_multi_dots_q8_0(bytes.data(), h, m, 64 * 32, 0, fused));
    const auto plain = posenc::models::qk_multi_dots(want.data(), h, m, 64 * 32, 0);
    posenc::models::QkMultiDots no_hh;  // without Σ h²: the other sums unchanged
    REQUIRE(posenc::models::qk_multi_dots_q8_0(bytes.data(), h, m, 64 * 32, 0, no_hh, false));
    CHECK((no_hh.gg == fused.gg && no_hh.dd == fused.dd && no_hh.gh[m - 1] == fused.gh[m - 1] && no_hh.hh[0] == 0));
    CHECK(fused.gg == plain.gg);
    CHECK(fused.dd == plain.dd);
    for (std::size_t j = 0; j < m; ++j) CHECK((fused.gh[j] == plain.gh[j] && fused.hh[j] == plain.hh[j]));
  }
}
