#include "posenc/encodings/learned.hpp"

#include <fmt/format.h>

#include <cmath>
#include <numbers>
#include <random>

#include "posenc/encodings/schemes.hpp"
#include "posenc/error.hpp"

namespace posenc::encodings {
namespace {

// 53 high bits of a 64-bit draw as a double in [0, 1): exact, no rounding.
double unit(std::uint64_t bits) { return std::ldexp(static_cast<double>(bits >> 11), -53); }

}  // namespace

std::uint64_t splitmix64(std::uint64_t x) {
  std::uint64_t z = x + 0x9E3779B97F4A7C15ULL;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

std::uint64_t learned_row_seed(std::uint64_t seed, std::uint64_t t) { return splitmix64(splitmix64(seed) ^ t); }

void learned_row(std::uint64_t seed, std::uint64_t t, double stddev, std::span<double> out) {
  // mt19937_64's output for a given seed is fixed by the standard, unlike
  // std::normal_distribution, so the same seed gives the same table everywhere.
  if (stddev == 0.0) {  // 0 * (negative sample) would print as -0
    std::fill(out.begin(), out.end(), 0.0);
    return;
  }
  std::mt19937_64 engine(learned_row_seed(seed, t));
  for (std::size_t j = 0; j < out.size(); j += 2) {
    const std::uint64_t a = engine();
    const std::uint64_t b = engine();
    const double u1 = unit(a) + 0x1p-53;  // (0, 1]: log(u1) is finite
    const double u2 = unit(b);
    const double r = std::sqrt(-2.0 * std::log(u1));
    const double theta = 2.0 * std::numbers::pi * u2;
    out[j] = stddev * r * std::cos(theta);
    if (j + 1 < out.size()) out[j + 1] = stddev * r * std::sin(theta);
  }
}

void check_learned_len(std::int64_t len, std::int64_t max_len) {
  if (len > max_len)
    throw Error(fmt::format(
        "--len {} exceeds --max-len {}: a learned table has no rows beyond its length (it cannot extrapolate)", len,
        max_len));
}

Matrix learned_table(std::int64_t len, std::int64_t dim, const LearnedOptions& options) {
  check_learned_len(len, options.max_len);
  Matrix m(static_cast<std::size_t>(len), static_cast<std::size_t>(dim));
  for (std::size_t t = 0; t < m.rows(); ++t) learned_row(options.seed, t, options.stddev, m.row(t));
  return m;
}

SchemeInfo learned_scheme() {
  return {"learned", "a trainable table as initialised (seeded normal); no rows past --max-len",
          "PE[t,k] ~ N(0, std^2), t < max_len",
          {len_param(), dim_param(768),
           {"std", "standard deviation of the normal init (GPT-2: 0.02)", 0.02, {}, 0.0, 1e300},
           {"seed", "random seed; the same seed gives the same table on every platform", std::int64_t{0}, {}, 0,
            0x1p63},  // 0 .. 2^63 - 1, the int64 range
           {"max-len", "number of rows the table has (GPT-2: 1024)", std::int64_t{1024}, {}, 1,
            static_cast<double>(kMaxLen)}},
          [](const ParamMap& p) -> std::unique_ptr<Table> {
            LearnedOptions o;
            o.stddev = p.number("std");
            if (!std::isfinite(o.stddev) || o.stddev < 0)
              throw Error(fmt::format("--std must be a finite number >= 0 (got {})", o.stddev));
            o.seed = static_cast<std::uint64_t>(p.integer("seed"));
            o.max_len = p.integer("max-len");
            const auto len = p.integer("len");
            const auto dim = p.integer("dim");
            check_learned_len(len, o.max_len);
            auto info = make_info("learned", p, {static_cast<std::size_t>(len), static_cast<std::size_t>(dim)});
            info.title = fmt::format("learned (init N(0, {}^2), seed {}), N={} of {}, D={}", o.stddev, o.seed, len,
                                     o.max_len, dim);
            return std::make_unique<RowFunctionTable>(std::move(info), [o](std::size_t t, std::span<double> out) {
              learned_row(o.seed, t, o.stddev, out);
            });
          }};
}

}  // namespace posenc::encodings
