#include "posenc/io/number_text.hpp"

#include <fmt/format.h>

#include <bit>
#include <cstdint>
#include <cstring>

namespace posenc::io {

namespace {

__extension__ typedef unsigned __int128 U128;  // 16 ASCII digits in one register

constexpr char kPairs[] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

void put2(char* p, std::uint32_t v) { std::memcpy(p, kPairs + 2 * v, 2); }

/// The 8 digits of v < 10^8, zero-padded.
void put8(char* p, std::uint32_t v) {
  const std::uint32_t hi = v / 10000, lo = v % 10000;
  put2(p, hi / 100);
  put2(p + 2, hi % 100);
  put2(p + 4, lo / 100);
  put2(p + 6, lo % 100);
}

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

/// All kDigits digits of `sig`, zero-padded: 9 for float, 17 for double.
template <int kDigits>
void put_all(char* buf, std::uint64_t sig) {
  if constexpr (kDigits == 9) {
    buf[0] = static_cast<char>('0' + sig / 100000000);
    put8(buf + 1, static_cast<std::uint32_t>(sig % 100000000));
  } else {
    const std::uint64_t rest = sig % 10000000000000000ULL;
    buf[0] = static_cast<char>('0' + sig / 10000000000000000ULL);
    put8(buf + 1, static_cast<std::uint32_t>(rest / 100000000));
    put8(buf + 9, static_cast<std::uint32_t>(rest % 100000000));
  }
}

void copy32(char* to, const char* from) { std::memcpy(to, from, 32); }

/// fmt's "{}" layout of sig·10^exp: fixed notation when the first digit's exponent is in
/// [-4, 16), else d[.ddd]e±XX. Copies are of fixed size (32 bytes) and may run past the text.
template <int kDigits>
char* layout(char* p, std::uint64_t sig, int exp) {
  char buf[kDigits + 32];
  put_all<kDigits>(buf, sig);
  const int n = digit_count(sig);
  const char* digits = buf + kDigits - n;
  const int first_exp = exp + n - 1;
  if (first_exp < -4 || first_exp >= 16) [[unlikely]] {
    p[0] = digits[0];
    p[1] = '.';
    copy32(p + 2, digits + 1);
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
    copy32(p, digits);
    p += n;
    std::memset(p, '0', 16);
    return p + exp;
  }
  if (first_exp >= 0) {  // the point falls inside the digits
    const int int_digits = first_exp + 1;
    copy32(p, digits);
    copy32(p + int_digits + 1, digits + int_digits);
    p[int_digits] = '.';
    return p + n + 1;
  }
  std::memcpy(p, "0.000000", 8);  // "0." and -first_exp - 1 zeros (at most 3)
  p += 1 - first_exp;
  copy32(p, digits);
  return p + n;
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

/// layout<9> for floats with the digits kept in a register: no digit is stored and loaded
/// back (a store of two bytes read by a 16-byte load stalls the core), which made the
/// layout as slow as finding the digits.
char* layout_float(char* p, std::uint32_t sig, int exp) {
  const int n = digit_count(sig);
  U128 digits = U128{static_cast<std::uint64_t>('0' + sig / 100000000)} | U128{ascii8(sig % 100000000)} << 8;
  digits >>= 8 * (9 - n);  // the n significant digits in the lowest bytes
  const int first_exp = exp + n - 1;
  if (first_exp < -4 || first_exp >= 16) [[unlikely]] {
    return layout<9>(p, sig, exp);
  }
  if (exp >= 0) {  // an integer: the digits and exp zeros (at most 15)
    store16(p, digits);
    p += n;
    std::memset(p, '0', 16);
    return p + exp;
  }
  if (first_exp >= 0) {  // the point falls inside the digits
    const int int_digits = first_exp + 1;
    store16(p, digits);
    store16(p + int_digits + 1, digits >> (8 * int_digits));
    p[int_digits] = '.';
    return p + n + 1;
  }
  std::memcpy(p, "0.000000", 8);  // "0." and -first_exp - 1 zeros (at most 3)
  p += 1 - first_exp;
  store16(p, digits);
  return p + n;
}

template <class T, class Bits>
char* shortest(char* p, T v) {
  const auto bits = std::bit_cast<Bits>(v);
  *p = '-';
  p += bits >> (8 * sizeof(Bits) - 1);
  if (static_cast<Bits>(bits << 1) == 0) {
    *p = '0';
    return p + 1;
  }
  const auto dec = fmt::detail::dragonbox::to_decimal(v);
  if constexpr (sizeof(T) == 4) {
    return layout_float(p, dec.significand, dec.exponent);
  } else {
    return layout<17>(p, dec.significand, dec.exponent);
  }
}

}  // namespace

char* write_shortest(char* p, float v) { return shortest<float, std::uint32_t>(p, v); }
char* write_shortest(char* p, double v) { return shortest<double, std::uint64_t>(p, v); }

}  // namespace posenc::io
