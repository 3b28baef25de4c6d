#pragma once
/// Internal to posenc::io (number_text.cpp's lists, and its tests): the shortest decimal of
/// many floats at once.
#include <cstddef>
#include <cstdint>

namespace posenc::io::detail {

/// Whether this CPU runs the AVX2 kernel below (checked once).
bool have_float_decimals_avx2();

/// For each of the `n` floats (n a multiple of 4) that is normal (not zero, subnormal,
/// infinite or NaN), a decimal sig[i]·10^exp[i] whose digits, once trailing zeros are
/// removed, are the shortest that read back to |v[i]|, the closest of them to it (ties to
/// even): the digits of fmt's Dragonbox. Other lanes hold garbage; the caller handles them.
///
/// Schubfach (R. Giulietti, "The Schubfach way to render doubles", 2020; the float case of
/// Java's Float.toString), four floats per AVX2 register. Checked against fmt's
/// dragonbox::to_decimal for all 4,261,412,864 normal floats (tests/tools, docs/performance.md).
void float_decimals_avx2(const float* v, std::size_t n, std::uint32_t* sig, std::int32_t* exp);

/// The 63-bit multipliers of Schubfach for float, G(k) for k = kPow10Min .. kPow10Max:
/// with r = ⌊log2 10^-k⌋ − 125 and g = ⌊10^-k · 2^-r⌋ + 1 (126 bits), G = (g >> 63) + 1,
/// so G ≈ 10^-k · 2^(62 − ⌊log2 10^-k⌋). Exposed for the test that recomputes them.
inline constexpr int kPow10Min = -45;
inline constexpr int kPow10Max = 39;
extern const std::uint64_t kFloatPow10[kPow10Max - kPow10Min + 1];

}  // namespace posenc::io::detail
