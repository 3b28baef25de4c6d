#include "posenc/formats/number_text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "posenc/formats/float_decimal.hpp"

namespace posenc::formats {

namespace {

__extension__ typedef unsigned __int128 U128;  // 16 ASCII digits in one register

constexpr char kPairs[] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

void put2(char* p, std::uint32_t v) { std::memcpy(p, kPairs + 2 * v, 2); }

constexpr std::uint64_t kPow10[20] = {1ULL,
                                      10ULL,
                                      100ULL,
                                      1000ULL,
                                      10000ULL,
                                      100000ULL,
                                      1000000ULL,
                                      10000000ULL,
                                      100000000ULL,
                                      1000000000ULL,
                                      10000000000ULL,
                                      100000000000ULL,
                                      1000000000000ULL,
                                      10000000000000ULL,
                                      100000000000000ULL,
                                      1000000000000000ULL,
                                      10000000000000000ULL,
                                      100000000000000000ULL,
                                      1000000000000000000ULL,
                                      10000000000000000000ULL};

/// Number of decimal digits of v (v ≥ 1): log10 from the bit length, then one comparison.
int digit_count(std::uint64_t v) {
  const int t = ((64 - std::countl_zero(v | 1)) * 1233) >> 12;
  return t + (v >= kPow10[t] ? 1 : 0);
}

/// The 8 ASCII digits of v < 10^8 in one register, the first digit in the lowest byte.
std::uint64_t ascii8(std::uint32_t v) {
  const auto pair = [](std::uint32_t x) {
    std::uint16_t two;
    std::memcpy(&two, kPairs + 2 * x, 2);
    return std::uint64_t{two};
  };
  const std::uint32_t hi = v / 10000, lo = v % 10000;
  return pair(hi / 100) | pair(hi % 100) << 16 | pair(lo / 100) << 32 | pair(lo % 100) << 48;
}

void store16(char* p, U128 v) { std::memcpy(p, &v, 16); }

/// v shifted down by k bytes (0 when k ≥ 16, where the shift itself would be undefined).
U128 drop_bytes(U128 v, int k) { return k >= 16 ? U128{0} : v >> (8 * k); }
/// v shifted up by k bytes (0 when k ≥ 16).
U128 raise_bytes(U128 v, int k) { return k >= 16 ? U128{0} : v << (8 * k); }

/// The n digits of sig, first digit in the lowest byte; 17 digits need two registers.
struct Digits {
  U128 low;            // digits 0..15
  std::uint64_t high;  // digit 16, for doubles
};

/// fmt's "{}" layout of the n digits d times 10^exp: fixed notation when the first digit's
/// exponent is in [-4, 16), else d[.ddd]e±XX. Stores are of fixed size (16 bytes) and may
/// run past the text.
[[gnu::always_inline]] inline char* layout(char* p, const Digits& d, int n, int exp) {
  const int first_exp = exp + n - 1;
  if (first_exp < -4 || first_exp >= 16) [[unlikely]] {
    p[0] = static_cast<char>(d.low);
    p[1] = '.';
    store16(p + 2, d.low >> 8);
    p[17] = static_cast<char>(d.high);
    p += n > 1 ? n + 1 : 1;
    *p++ = 'e';
    *p++ = first_exp < 0 ? '-' : '+';
    unsigned e = static_cast<unsigned>(first_exp < 0 ? -first_exp : first_exp);
    if (e >= 100) {
      *p++ = static_cast<char>('0' + e / 100);
      e %= 100;
    }
    put2(p, e);
    return p + 2;
  }
  if (exp >= 0) {  // an integer: the digits and exp zeros (at most 15)
    store16(p, d.low);
    p[16] = static_cast<char>(d.high);
    p += n;
    std::memset(p, '0', 16);
    return p + exp;
  }
  if (first_exp >= 0) {  // the point falls inside the digits (a float or double has < 17 here)
    const int int_digits = first_exp + 1;
    store16(p, d.low);
    const U128 rest = drop_bytes(d.low, int_digits) | raise_bytes(U128{d.high}, 16 - int_digits);
    store16(p + int_digits + 1, rest);
    p[int_digits] = '.';
    return p + n + 1;
  }
  std::memcpy(p, "0.000000", 8);  // "0." and -first_exp - 1 zeros (at most 3)
  p += 1 - first_exp;
  store16(p, d.low);
  p[16] = static_cast<char>(d.high);
  return p + n;
}

constexpr U128 kAsciiZeros = U128{0x3030303030303030ULL} << 64 | 0x3030303030303030ULL;

/// A float's decimal sig·10^exp (sig < 10^9, may end in zeros, which are dropped here).
[[gnu::always_inline]] inline char* layout_float(char* p, std::uint32_t sig, int exp) {
  int n = digit_count(sig);
  U128 digits = U128{static_cast<std::uint64_t>('0' + sig / 100000000)} | U128{ascii8(sig % 100000000)} << 8;
  digits >>= 8 * (9 - n);  // the n digits in the lowest bytes
  // Trailing zeros: keep up to the last digit that is not '0' (the first never is).
  const U128 nonzero = (digits ^ kAsciiZeros) & ((U128{1} << (8 * n)) - 1);
  const auto hi = static_cast<std::uint64_t>(nonzero >> 64), lo = static_cast<std::uint64_t>(nonzero);
  const int top_bit = hi != 0 ? 127 - std::countl_zero(hi) : 63 - std::countl_zero(lo);
  const int kept = top_bit / 8 + 1;
  exp += n - kept;
  return layout(p, Digits{digits, 0}, kept, exp);
}

/// A double's shortest decimal (no trailing zeros) sig·10^exp, sig < 10^17.
char* layout_double(char* p, std::uint64_t sig, int exp) {
  const int n = digit_count(sig);
  const std::uint64_t top = sig / 100000000;  // up to 9 digits
  U128 digits = U128{static_cast<std::uint64_t>('0' + top / 100000000)} |
                U128{ascii8(static_cast<std::uint32_t>(top % 100000000))} << 8;
  // 17 digits: byte 0 the first, bytes 1..8 the next eight, then the last eight split
  // between bytes 9..15 and `high`.
  const std::uint64_t last8 = ascii8(static_cast<std::uint32_t>(sig % 100000000));
  digits |= U128{last8} << 72;
  std::uint64_t high = last8 >> 56;
  // Drop the 17 - n leading zero digits.
  const int drop = 17 - n;
  if (drop > 0) {
    digits = drop_bytes(digits, drop) | raise_bytes(U128{high}, 16 - drop);
    high = 0;
  }
  return layout(p, Digits{digits, high}, n, exp);
}

template <class T>
bool write_special(char*& p, T v, const NonFiniteText& nf) {
  if (std::isfinite(v)) [[likely]] {
    return false;
  }
  const char* w = std::isnan(v) ? nf.nan : v > 0 ? nf.inf : nf.neg_inf;
  while (*w != '\0') *p++ = *w++;
  return true;
}

}  // namespace

namespace {

/// The sign, then "0" for a zero, else the digits from fmt's Dragonbox laid out by `layout`.
template <class Bits, class T, class Layout>
char* write_shortest_as(char* p, T v, Layout layout) {
  const auto bits = std::bit_cast<Bits>(v);
  *p = '-';
  p += bits >> (8 * sizeof(Bits) - 1);
  if ((bits << 1) == 0) {
    *p = '0';
    return p + 1;
  }
  const auto dec = fmt::detail::dragonbox::to_decimal(v);
  return layout(p, dec.significand, dec.exponent);
}

}  // namespace

char* write_shortest(char* p, float v) {
  return write_shortest_as<std::uint32_t>(p, v, [](char* q, std::uint32_t sig, int exp) { return layout_float(q, sig, exp); });
}

char* write_shortest(char* p, double v) { return write_shortest_as<std::uint64_t>(p, v, layout_double); }

namespace {

/// Each value of v, then sep: up to 64 at a time through the AVX2 digits kernel if `avx2`,
/// else (and for zeros, subnormals and lanes left over) through fmt's Dragonbox.
char* write_floats_each_then(char* p, std::span<const float> v, char sep, const NonFiniteText& nf, bool avx2) {
  constexpr std::size_t kBatch = 64;
  std::uint32_t sig[kBatch];
  std::int32_t exp[kBatch];
  for (std::size_t first = 0; first < v.size(); first += kBatch) {
    const std::size_t n = std::min(kBatch, v.size() - first);
    const std::size_t in_batch = avx2 ? n & ~std::size_t{3} : 0;  // lanes of four
    detail::float_decimals_avx2(v.data() + first, in_batch, sig, exp);
    for (std::size_t i = 0; i < n; ++i) {
      const float x = v[first + i];
      const auto bits = std::bit_cast<std::uint32_t>(x);
      if (write_special(p, x, nf)) {
      } else if (i >= in_batch || (bits & 0x7F800000) == 0) {  // not batched, or zero or subnormal
        p = write_shortest(p, x);
      } else {
        *p = '-';
        p += bits >> 31;
        p = layout_float(p, sig[i], exp[i]);
      }
      *p++ = sep;
    }
  }
  return p;
}

}  // namespace

namespace detail {

bool have_float_list_kernel(FloatListKernel k) {
  return k == FloatListKernel::scalar || (k == FloatListKernel::avx2 && have_float_decimals_avx2()) ||
         (k == FloatListKernel::avx512 && have_float_texts_avx512());
}

FloatListKernel best_float_list_kernel() {
  static const FloatListKernel best = have_float_texts_avx512()    ? FloatListKernel::avx512
                                      : have_float_decimals_avx2() ? FloatListKernel::avx2
                                                                   : FloatListKernel::scalar;
  return best;
}

char* write_float_list(char* p, std::span<const float> v, char sep, const NonFiniteText& nf, FloatListKernel k) {
  if (v.empty()) return p;
  if (k != FloatListKernel::avx512) {
    return write_floats_each_then(p, v, sep, nf, k == FloatListKernel::avx2) - 1;  // no sep after the last
  }
  // Groups of eight in vector registers; a group with a zero, a non-finite value or a long
  // text, and the last few, through the AVX2 path.
  std::size_t i = 0;
  while (i < v.size()) {
    i += float_texts_avx512(p, v.data() + i, v.size() - i, sep);
    const std::size_t n = std::min<std::size_t>(8, v.size() - i);
    p = write_floats_each_then(p, v.subspan(i, n), sep, nf, true);
    i += n;
  }
  return p - 1;
}

}  // namespace detail

char* write_shortest_list(char* p, std::span<const float> v, char sep, const NonFiniteText& nf) {
  return detail::write_float_list(p, v, sep, nf, detail::best_float_list_kernel());
}

char* write_shortest_list(char* p, std::span<const double> v, char sep, const NonFiniteText& nf) {
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (i > 0) *p++ = sep;
    if (!write_special(p, v[i], nf)) p = write_shortest(p, v[i]);
  }
  return p;
}

}  // namespace posenc::formats
