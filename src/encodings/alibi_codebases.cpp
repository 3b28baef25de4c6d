#include "posenc/encodings/alibi_codebases.hpp"

// ALiBi slopes as BLOOM, Falcon and MPT compute them.
#include <fmt/format.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "posenc/error.hpp"

namespace posenc::encodings {
namespace {

/// float32 pow(base, k), correctly rounded from double (as torch.pow on a float32 tensor).
double pow_f32(float base, double k) { return static_cast<double>(static_cast<float>(std::pow(static_cast<double>(base), k))); }

}  // namespace

double to_bfloat16(float v) {
  std::uint32_t bits = std::bit_cast<std::uint32_t>(v);
  if (std::isnan(v)) return static_cast<double>(v);
  bits += 0x7FFFu + ((bits >> 16) & 1u);  // round to nearest, ties to even
  bits &= 0xFFFF0000u;
  return static_cast<double>(std::bit_cast<float>(bits));
}

std::vector<double> alibi_slopes_of(const std::string& codebase, std::int64_t heads, double alibi_bias_max) {
  if (heads < 1 || heads > 65536) throw Error(fmt::format("alibi needs 1 to 65536 heads (got {})", heads));
  std::vector<double> s;
  if (codebase == "mpt") {
    const std::int64_t p = std::int64_t{1} << static_cast<int>(std::ceil(std::log2(static_cast<double>(heads))));
    const auto step = static_cast<float>(alibi_bias_max / static_cast<double>(p));
    std::vector<double> all;
    for (std::int64_t k = 1; k <= p; ++k) {
      const float m = static_cast<float>(k) * step;  // arange(1, P + 1).float() * (alibi_bias_max / P)
      all.push_back(static_cast<double>(1.0f / static_cast<float>(std::pow(2.0, static_cast<double>(m)))));
    }
    if (p == heads) return all;
    for (std::size_t i = 1; i < all.size(); i += 2) s.push_back(all[i]);  // slopes[1::2], then slopes[::2]
    for (std::size_t i = 0; i < all.size(); i += 2) s.push_back(all[i]);
    s.resize(static_cast<std::size_t>(heads));
    return s;
  }
  const std::int64_t p = std::int64_t{1} << static_cast<int>(std::floor(std::log2(static_cast<double>(heads))));
  const auto base = static_cast<float>(std::pow(2.0, -std::pow(2.0, -(std::log2(static_cast<double>(p)) - 3))));
  for (std::int64_t k = 1; k <= p; ++k) s.push_back(pow_f32(base, static_cast<double>(k)));
  if (p != heads) {
    const auto extra = static_cast<float>(std::pow(2.0, -std::pow(2.0, -(std::log2(static_cast<double>(2 * p)) - 3))));
    const std::int64_t remaining = std::min(p, heads - p);
    for (std::int64_t k = 1; k < 1 + 2 * remaining; k += 2) s.push_back(pow_f32(extra, static_cast<double>(k)));
  }
  if (codebase == "falcon")
    for (auto& v : s) v = to_bfloat16(static_cast<float>(v));
  return s;
}

}  // namespace posenc::encodings
