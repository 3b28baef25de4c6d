#include "posenc/io/number_text.hpp"

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

#include "posenc/io/float_decimal.hpp"

using posenc::io::kNumberTextRoom;
using posenc::io::NonFiniteText;
using posenc::io::write_shortest;
using posenc::io::write_shortest_list;

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

}  // namespace

TEST_CASE("shortest lists equal fmt's texts joined, for every length and all kinds of values", "[number_text]") {
  // Lengths 0..70 cover batches of 64 and the lanes of four that are left over; the values
  // mix normal floats with zeros, subnormals, infinities and NaN in every lane position.
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
    CAPTURE(n);
    CHECK(list_text(v) == fmt_list(v));
    std::vector<double> d(v.begin(), v.end());
    for (std::size_t i = 0; i < n; i += 3) d[i] = std::bit_cast<double>(gen());
    CHECK(list_text(d) == fmt_list(d));
  }
}

TEST_CASE("doubles with 16 and 17 digits, integer digits up to 16", "[number_text]") {
  // The layouts where a double's 17th digit needs the second register.
  for (const double v : {1234567890123456.7, 123456789012345.67, 1.2345678901234567, 0.12345678901234567,
                         9007199254740993.0, 1e15 + 0.3, 12345678901234567e-20, 1.0000000000000002}) {
    CAPTURE(fmt_text(v));
    CHECK(shortest(v) == fmt_text(v));
  }
}

TEST_CASE("Schubfach's float multipliers equal 10^-k scaled into [2^62, 2^63), recomputed in long double",
          "[number_text]") {
  // G(k) = ⌊10^-k · 2^(62 - ⌊log2 10^-k⌋)⌋ + 1 or + 2 (the table's exact integer arithmetic
  // rounds the 126-bit value up before dropping 63 bits); long double has 64 bits of
  // significand, enough to pin G within 2.
  using posenc::io::detail::kFloatPow10;
  using posenc::io::detail::kPow10Max;
  using posenc::io::detail::kPow10Min;
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
