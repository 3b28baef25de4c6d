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

using posenc::io::kNumberTextRoom;
using posenc::io::write_shortest;

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
