#pragma once
/// Internal to posenc::io (number_text.cpp's lists, and its tests): the shortest decimal of
/// many floats at once.
#include <cstddef>
#include <cstdint>
#include <span>

#include "posenc/formats/number_text.hpp"

namespace posenc::formats::detail {

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

/// Whether this CPU runs the AVX-512 kernel below (F, BW, DQ, CD, VBMI, VBMI2; checked once).
bool have_float_texts_avx512();

/// The texts of v[0], v[1], ... each followed by `sep`, written at `p` eight at a time while
/// all eight of a group are normal and written in fixed notation in at most 15 characters
/// (|v| ≥ 1e-4 and no more than 15 - sign digits before the point: every value of a
/// positional table but zeros). Stops at the first group that is not, or with fewer than
/// eight left; returns how many were written and advances `p` past them. The digits are the
/// AVX2 kernel's Schubfach, eight lanes at a time; the text is laid out in vector registers
/// (one byte shuffle of the digits per 16-byte slot, then packed by vpcompressb). Each store
/// is 64 bytes: 16·n + 64 bytes must be writable from p.
std::size_t float_texts_avx512(char*& p, const float* v, std::size_t n, char sep);

/// Which kernels write a list of floats: the tests and tools/float_text_exhaustive run each
/// one the CPU has; posenc uses the best.
enum class FloatListKernel { scalar, avx2, avx512 };
FloatListKernel best_float_list_kernel();
bool have_float_list_kernel(FloatListKernel k);
char* write_float_list(char* p, std::span<const float> v, char sep, const NonFiniteText& nf, FloatListKernel k);

/// The 63-bit multipliers of Schubfach for float, G(k) for k = kPow10Min .. kPow10Max:
/// with r = ⌊log2 10^-k⌋ − 125 and g = ⌊10^-k · 2^-r⌋ + 1 (126 bits), G = (g >> 63) + 1,
/// so G ≈ 10^-k · 2^(62 − ⌊log2 10^-k⌋). Exposed for the test that recomputes them.
inline constexpr int kPow10Min = -45;
inline constexpr int kPow10Max = 39;
extern const std::uint64_t kFloatPow10[kPow10Max - kPow10Min + 1];

}  // namespace posenc::formats::detail
