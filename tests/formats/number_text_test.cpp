#include "posenc/formats/number_text.hpp"

#include <fmt/compile.h>
#include <fmt/format.h>

#include <bit>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "posenc/formats/float_decimal.hpp"

using posenc::formats::kNumberTextRoom;
using posenc::formats::NonFiniteText;
using posenc::formats::write_shortest;
using posenc::formats::write_shortest_list;

namespace {

template <class T>
std::string shortest(T v) {
  char buf[kNumberTextRoom];
  return std::string(buf, write_shortest(buf, v));
}

/// fmt's "{}", the text posenc's CSV/JSON promise (docs/formats.md).
template <class T>
std::string fmt_text(T v) {
  return fmt::format(FMT_COMPILE("{}"), v);
}

template <class T>
T read_back(const std::string& s) {
  if constexpr (sizeof(T) == 4) {
    return std::strtof(s.c_str(), nullptr);
  } else {
    return std::strtod(s.c_str(), nullptr);
  }
}

/// Every layout of fmt's "{}": integers with trailing zeros, the point inside the digits,
/// 0.000ddd down to 1e-4, exponent form below it and from 1e16, 2- and 3-digit exponents,
/// subnormals, the extremes, signed zeros.
template <class T>
std::vector<T> edge_values() {
  using L = std::numeric_limits<T>;
  std::vector<T> v = {T(0), -T(0), T(1), T(-1), T(0.5), T(100), T(1500), T(123456789), T(0.1), T(0.84147096),
                      T(1e-4), T(1.5e-4), T(9.99e-5), T(1e-5), T(1.25e-5), T(1e15), T(9.999e15), T(1e16),
                      T(1.5e16), T(3e20), T(1e-10), T(-2.5e-7), L::min(), L::denorm_min(), L::max(),
                      L::lowest(), L::epsilon(), T(16777216), T(16777217), T(0.3), T(2) / T(3)};
  if constexpr (sizeof(T) == 8) {
    v.insert(v.end(), {1e100, 1e-100, 1.7976931348623157e308, 5e-324, 123456789012345678.0, 0.1 + 0.2});
  }
  return v;
}

template <class T, class Bits>
void check_random_bits(std::size_t count, std::uint64_t seed) {
  std::mt19937_64 gen(seed);
  std::size_t checked = 0, mismatched = 0, not_round_trip = 0;
  std::string first_bad;
  for (std::size_t i = 0; i < count; ++i) {
    const auto v = std::bit_cast<T>(static_cast<Bits>(gen()));
    if (!std::isfinite(v)) continue;
    ++checked;
    const std::string mine = shortest(v), theirs = fmt_text(v);
    if (mine != theirs) {
      if (mismatched++ == 0) first_bad = mine + " vs fmt " + theirs;
    }
    if (std::bit_cast<Bits>(read_back<T>(mine)) != std::bit_cast<Bits>(v)) ++not_round_trip;
  }
  INFO(first_bad);
  CHECK(checked > count / 2);
  CHECK(mismatched == 0);
  CHECK(not_round_trip == 0);
}

}  // namespace

TEST_CASE("shortest text of edge floats and doubles is fmt's \"{}\" and reads back exactly", "[number_text]") {
  for (const float v : edge_values<float>()) {
    CAPTURE(fmt_text(v));
    CHECK(shortest(v) == fmt_text(v));
    CHECK(std::bit_cast<std::uint32_t>(read_back<float>(shortest(v))) == std::bit_cast<std::uint32_t>(v));
  }
  for (const double v : edge_values<double>()) {
    CAPTURE(fmt_text(v));
    CHECK(shortest(v) == fmt_text(v));
    CHECK(std::bit_cast<std::uint64_t>(read_back<double>(shortest(v))) == std::bit_cast<std::uint64_t>(v));
  }
}

TEST_CASE("shortest text, hand-written cases", "[number_text]") {
  // The layouts, spelled out independently of fmt.
  CHECK(shortest(0.0f) == "0");
  CHECK(shortest(-0.0f) == "-0");
  CHECK(shortest(100.0f) == "100");
  CHECK(shortest(0.5f) == "0.5");
  CHECK(shortest(-1.5f) == "-1.5");
  CHECK(shortest(1e-4f) == "0.0001");
  CHECK(shortest(1e-5f) == "1e-05");
  CHECK(shortest(1e16f) == "1e+16");
  CHECK(shortest(1e15f) == "1000000000000000");
  CHECK(shortest(static_cast<float>(std::sin(1.0))) == "0.84147096");  // float32(sin 1) = 0.841470957...
  CHECK(shortest(3e38f) == "3e+38");
  CHECK(shortest(1e-300) == "1e-300");
  CHECK(shortest(0.1) == "0.1");
  CHECK(shortest(0.1 + 0.2) == "0.30000000000000004");
}

TEST_CASE("shortest text of 4 million random float bit patterns equals fmt and round-trips", "[number_text]") {
  check_random_bits<float, std::uint32_t>(4'000'000, 1);
}

TEST_CASE("shortest text of 2 million random double bit patterns equals fmt and round-trips", "[number_text]") {
  check_random_bits<double, std::uint64_t>(2'000'000, 2);
}

namespace {

template <class T>
std::string fmt_list(const std::vector<T>& v) {
  std::string s;
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (i > 0) s += ';';
    if (std::isnan(v[i])) {
      s += "NaN";
    } else if (std::isinf(v[i])) {
      s += v[i] > 0 ? "Inf" : "-Inf";
    } else {
      s += fmt_text(v[i]);
    }
  }
  return s;
}

template <class T>
std::string list_text(const std::vector<T>& v) {
  std::vector<char> buf(25 * v.size() + kNumberTextRoom);
  const NonFiniteText nf{"NaN", "Inf", "-Inf"};
  return std::string(buf.data(), write_shortest_list(buf.data(), std::span<const T>(v), ';', nf));
}

using posenc::formats::detail::FloatListKernel;

/// The list kernels this CPU runs (scalar always; AVX2 and AVX-512 where present).
std::vector<FloatListKernel> kernels_here() {
  std::vector<FloatListKernel> k;
  for (const auto kernel : {FloatListKernel::scalar, FloatListKernel::avx2, FloatListKernel::avx512}) {
    if (posenc::formats::detail::have_float_list_kernel(kernel)) k.push_back(kernel);
  }
  return k;
}

std::string list_text(const std::vector<float>& v, FloatListKernel kernel) {
  std::vector<char> buf(25 * v.size() + kNumberTextRoom);
  const NonFiniteText nf{"NaN", "Inf", "-Inf"};
  return std::string(buf.data(), posenc::formats::detail::write_float_list(buf.data(), v, ';', nf, kernel));
}

}  // namespace

TEST_CASE("shortest lists equal fmt's texts joined, for every length and all kinds of values", "[number_text]") {
  // Lengths 0..70 cover batches of 64, groups of eight and lanes of four and what is left
  // over; the values mix normal floats with zeros, subnormals, infinities and NaN in every
  // lane position. Every kernel this CPU has (the default one is one of them).
  for (const auto kernel : kernels_here()) {
    std::mt19937_64 gen(7);
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    const std::vector<float> specials = {0.0f, -0.0f, std::numeric_limits<float>::denorm_min(), -1e-40f,
                                         std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity(),
                                         std::numeric_limits<float>::quiet_NaN(), 100.0f, 16777216.0f, 3e38f, 1e-30f};
    for (std::size_t n = 0; n <= 70; ++n) {
      std::vector<float> v(n);
      for (std::size_t i = 0; i < n; ++i) {
        const auto pick = gen() % 5;
        v[i] = pick == 0   ? specials[gen() % specials.size()]
               : pick == 1 ? std::bit_cast<float>(static_cast<std::uint32_t>(gen()))
                           : static_cast<float>(unit(gen) * std::pow(10.0, static_cast<double>(gen() % 12) - 6));
      }
      CAPTURE(static_cast<int>(kernel), n);
      CHECK(list_text(v, kernel) == fmt_list(v));
      if (kernel == FloatListKernel::scalar) {
        CHECK(list_text(v) == fmt_list(v));
        std::vector<double> d(v.begin(), v.end());
        for (std::size_t i = 0; i < n; i += 3) d[i] = std::bit_cast<double>(gen());
        CHECK(list_text(d) == fmt_list(d));
      }
    }
  }
}

TEST_CASE("lists of table-like values: every kernel equals fmt and reads back exactly", "[number_text]") {
  // Rows like a positional table's (sines and cosines in [-1, 1], a few exact 0 and ±1, small
  // values down to 1e-6, integers up to 10^16) in rows of 1024, where the vector kernels take
  // whole groups of eight and hand the others on.
  std::mt19937_64 gen(11);
  std::uniform_real_distribution<double> angle(0.0, 1e4);
  for (const auto kernel : kernels_here()) {
    std::size_t rows_checked = 0, not_round_trip = 0;
    for (int row = 0; row < 64; ++row) {
      std::vector<float> v(1024);
      for (auto& x : v) {
        const auto pick = gen() % 64;
        const double a = angle(gen);
        x = pick == 0   ? 0.0f
            : pick == 1 ? (gen() % 2 ? 1.0f : -1.0f)
            : pick == 2 ? static_cast<float>(std::sin(a) * std::pow(10.0, -static_cast<double>(gen() % 7)))
            : pick == 3 ? static_cast<float>(std::floor(a) * std::pow(10.0, static_cast<double>(gen() % 14)))
                        : static_cast<float>(std::sin(a));
      }
      const std::string text = list_text(v, kernel);
      CAPTURE(static_cast<int>(kernel), row);
      REQUIRE(text == fmt_list(v));
      ++rows_checked;
      std::size_t at = 0;
      for (const float x : v) {
        const std::size_t end = std::min(text.find(';', at), text.size());
        if (std::bit_cast<std::uint32_t>(read_back<float>(text.substr(at, end - at))) != std::bit_cast<std::uint32_t>(x)) {
          ++not_round_trip;
        }
        at = end + 1;
      }
    }
    CHECK(rows_checked == 64);
    CHECK(not_round_trip == 0);
  }
}

TEST_CASE("the texts around the vector kernel's limits, in every lane, spelled out", "[number_text]") {
  // Hand-written texts (independent of fmt): the longest that fit a 16-byte slot with the
  // separator (15 characters), the first that do not (16, 17, exponent form), the 1e-4 edge,
  // each in all eight lanes of a group of otherwise short values.
  const std::vector<std::pair<float, std::string>> cases = {
      {-123456780000000.0f, "-123456780000000"},  // 16 characters: not in a slot
      {123456780000000.0f, "123456780000000"},    // 15: the longest that fits
      {-12345678000000.0f, "-12345678000000"},    // 15 with the sign
      {1234567800000000.0f, "1234567800000000"},  // 16
      {1e16f, "1e+16"},
      {-0.00012345678f, "-0.00012345678"},
      {0.00012345678f, "0.00012345678"},
      {1e-4f, "0.0001"},
      {9.99999e-5f, "9.99999e-05"},
      {-1.0f, "-1"},
      {1.0f, "1"},
      {0.84147096f, "0.84147096"},
      {-0.5f, "-0.5"},
      {16777216.0f, "16777216"},
      {1234.5677f, "1234.5677"},
      {0.0f, "0"},
  };
  for (const auto kernel : kernels_here()) {
    for (const auto& [value, text] : cases) {
      for (std::size_t lane = 0; lane < 8; ++lane) {
        std::vector<float> v(16, 0.25f);
        v[lane] = value;
        v[8 + (7 - lane)] = -value;
        std::string expected;
        for (std::size_t i = 0; i < 16; ++i) {
          if (i > 0) expected += ';';
          expected += i == lane ? text : i == 15 - lane ? (text[0] == '-' ? text.substr(1) : "-" + text) : "0.25";
        }
        CAPTURE(static_cast<int>(kernel), text, lane);
        CHECK(list_text(v, kernel) == expected);
      }
    }
  }
}

TEST_CASE("the AVX-512 kernel takes whole groups of eight short texts and stops at the first other", "[number_text]") {
  if (!posenc::formats::detail::have_float_texts_avx512()) {
    WARN("no AVX-512 on this CPU: kernel not run");
    return;
  }
  const auto taken = [](std::vector<float> v, std::string* text = nullptr) {
    std::vector<char> buf(16 * v.size() + 64);
    char* p = buf.data();
    const std::size_t n = posenc::formats::detail::float_texts_avx512(p, v.data(), v.size(), ',');
    if (text != nullptr) *text = std::string(buf.data(), p);
    return n;
  };
  std::vector<float> v(24, 0.5f);
  CHECK(taken(v) == 24);
  CHECK(taken(std::vector<float>(7, 0.5f)) == 0);  // fewer than eight
  v[13] = 0.0f;
  std::string text;
  CHECK(taken(v, &text) == 8);  // the second group has a zero
  CHECK(text == "0.5,0.5,0.5,0.5,0.5,0.5,0.5,0.5,");
  v[13] = std::numeric_limits<float>::quiet_NaN();
  CHECK(taken(v) == 8);
  v[13] = 1e-5f;
  CHECK(taken(v) == 8);
  v[13] = 0.75f;
  v[2] = -1e20f;
  CHECK(taken(v) == 0);
}

TEST_CASE("doubles with 16 and 17 digits, integer digits up to 16", "[number_text]") {
  // The layouts where a double's 17th digit needs the second register.
  for (const double v : {1234567890123456.7, 123456789012345.67, 1.2345678901234567, 0.12345678901234567,
                         9007199254740993.0, 1e15 + 0.3, 12345678901234567e-20, 1.0000000000000002}) {
    CAPTURE(fmt_text(v));
    CHECK(shortest(v) == fmt_text(v));
  }
}

TEST_CASE("Schubfach's float multipliers equal 10^-k scaled into 2^62 <= m < 2^63, recomputed in long double",
          "[number_text]") {
  // G(k) = ⌊10^-k · 2^(62 - ⌊log2 10^-k⌋)⌋ + 1 or + 2 (the table's exact integer arithmetic
  // rounds the 126-bit value up before dropping 63 bits); long double has 64 bits of
  // significand, enough to pin G within 2.
  using posenc::formats::detail::kFloatPow10;
  using posenc::formats::detail::kPow10Max;
  using posenc::formats::detail::kPow10Min;
  for (int k = kPow10Min; k <= kPow10Max; ++k) {
    const long double p = std::pow(10.0L, static_cast<long double>(-k));
    const int e = std::ilogb(p);  // ⌊log2 10^-k⌋
    const long double scaled = std::ldexp(p, 62 - e);
    const auto g = kFloatPow10[k - kPow10Min];
    CAPTURE(k);
    CHECK(g >= (std::uint64_t{1} << 62));
    CHECK(std::abs(static_cast<long double>(g) - (std::floor(scaled) + 1)) <= 2.0L);
  }
}
