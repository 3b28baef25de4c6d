#include "posenc/formats/float_decimal.hpp"
#include "posenc/cpu.hpp"

#include <immintrin.h>

#include <bit>

// GCC 12's AVX-512 intrinsics start from _mm512_undefined_*(), which -Wuninitialized (in
// debug builds) and -Wmaybe-uninitialized (optimised) report at every inlined use: a known
// false positive of the header, not of this code.
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

namespace posenc::formats::detail {

#if defined(__x86_64__) && defined(__GNUC__)

bool have_float_texts_avx512() {
  using cpu::Feature;
  static const bool has = cpu::has(Feature::kAvx512f) && cpu::has(Feature::kAvx512bw) && cpu::has(Feature::kAvx512dq) &&
                          cpu::has(Feature::kAvx512cd) && cpu::has(Feature::kAvx512vbmi) &&
                          cpu::has(Feature::kAvx512vbmi2);
  return has;
}

namespace {

#define POSENC_AVX512 __attribute__((target("avx512f,avx512bw,avx512dq,avx512cd,avx512vbmi,avx512vbmi2")))

POSENC_AVX512 __m512i set1(std::int64_t x) { return _mm512_set1_epi64(x); }

/// The high 64 bits of the 128-bit products of the 64-bit lanes, from four 32x32 products.
POSENC_AVX512 __m512i mulhi64(__m512i a, __m512i b) {
  const __m512i low32 = set1(0xFFFFFFFF);
  const __m512i ah = _mm512_srli_epi64(a, 32), bh = _mm512_srli_epi64(b, 32);
  const __m512i ll = _mm512_mul_epu32(a, b), lh = _mm512_mul_epu32(a, bh);
  const __m512i hl = _mm512_mul_epu32(ah, b), hh = _mm512_mul_epu32(ah, bh);
  const __m512i mid = _mm512_add_epi64(_mm512_add_epi64(_mm512_srli_epi64(ll, 32), _mm512_and_si512(lh, low32)),
                                       _mm512_and_si512(hl, low32));
  return _mm512_add_epi64(_mm512_add_epi64(hh, _mm512_srli_epi64(lh, 32)),
                          _mm512_add_epi64(_mm512_srli_epi64(hl, 32), _mm512_srli_epi64(mid, 32)));
}

/// Schubfach's rop: the top of g·cp, shifted so that 2 bits of fraction remain, rounded to odd.
POSENC_AVX512 __m512i round_to_odd(__m512i g, __m512i cp) {
  const __m512i low32 = set1(0xFFFFFFFF);
  const __m512i x = mulhi64(g, cp);
  return _mm512_or_si512(_mm512_srli_epi64(x, 31), _mm512_srli_epi64(_mm512_add_epi64(_mm512_and_si512(x, low32), low32), 32));
}

/// floor((x·m + add) / 2^s) for small signed x.
POSENC_AVX512 __m512i mul_shift(__m512i x, std::int64_t m, std::int64_t add, int s) {
  return _mm512_srai_epi64(_mm512_add_epi64(_mm512_mul_epi32(x, set1(m)), set1(add)), s);
}

/// The decimal of eight normal floats (their 64-bit lanes `bits`): digits·10^exponent,
/// the same Schubfach as the AVX2 kernel (float_decimal_avx2.cpp), eight lanes at a time.
struct Decimals {
  __m512i digits;    // < 10^9, may end in zeros
  __m512i exponent;  // of the last digit
};

POSENC_AVX512 Decimals schubfach(__m512i bits) {
  const __m512i zero = _mm512_setzero_si512();
  const __m512i frac = _mm512_and_si512(bits, set1(0x7FFFFF));
  const __m512i biased = _mm512_and_si512(_mm512_srli_epi64(bits, 23), set1(0xFF));
  const __m512i c = _mm512_or_si512(frac, set1(1 << 23));  // significand, v = c·2^q
  const __m512i q = _mm512_sub_epi64(biased, set1(150));
  // Integers below 2^24 are their own shortest digits.
  const __m512i mq = _mm512_sub_epi64(zero, q);
  const __m512i f = _mm512_srlv_epi64(c, mq);
  const __mmask8 integer = _mm512_cmpgt_epi64_mask(mq, zero) & _mm512_cmpgt_epi64_mask(set1(24), mq) &
                           _mm512_cmpeq_epi64_mask(_mm512_sllv_epi64(f, mq), c);
  // A power of two has a rounding interval a quarter narrower below: k = ⌊log10(¾·2^q)⌋.
  const __mmask8 shorter = _mm512_cmpeq_epi64_mask(frac, zero);
  const __m512i k = _mm512_mask_blend_epi64(shorter, mul_shift(q, 315653, 0, 20), mul_shift(q, 315653, -131237, 20));
  const __m512i h = _mm512_and_si512(
      _mm512_add_epi64(_mm512_add_epi64(q, mul_shift(_mm512_sub_epi64(zero, k), 1741647, 0, 19)), set1(33)),
      set1(63));
  // Lanes that are not normal have any k: keep the index inside the table.
  const __m512i index = _mm512_min_epu64(_mm512_and_si512(_mm512_sub_epi64(k, set1(kPow10Min)), set1(127)),
                                         set1(kPow10Max - kPow10Min));
  const __m512i g = _mm512_i64gather_epi64(index, kFloatPow10, 8);
  const __m512i cb = _mm512_slli_epi64(c, 2);
  const __m512i cbl = _mm512_sub_epi64(cb, _mm512_mask_blend_epi64(shorter, set1(2), set1(1)));
  const __m512i cbr = _mm512_add_epi64(cb, set1(2));
  // 4·v·10^-k and the interval ends, rounded to odd.
  const __m512i vb = round_to_odd(g, _mm512_sllv_epi64(cb, h));
  const __m512i vbl = round_to_odd(g, _mm512_sllv_epi64(cbl, h));
  const __m512i vbr = round_to_odd(g, _mm512_sllv_epi64(cbr, h));
  const __m512i odd = _mm512_and_si512(c, set1(1));  // an odd significand excludes the interval ends
  const __m512i lower = _mm512_add_epi64(vbl, odd);
  const __m512i s = _mm512_srli_epi64(vb, 2);
  // One digit fewer: s rounded down or up to a multiple of 10, if exactly one lies inside.
  const __m512i s10 = _mm512_srli_epi64(_mm512_mul_epu32(s, set1(0xCCCCCCCD)), 35);
  const __m512i down10 = _mm512_add_epi64(_mm512_slli_epi64(s10, 3), _mm512_slli_epi64(s10, 1));
  const __m512i up10 = _mm512_add_epi64(down10, set1(10));
  const __mmask8 down10_in = _mm512_cmple_epu64_mask(lower, _mm512_slli_epi64(down10, 2));
  const __mmask8 up10_in = _mm512_cmple_epu64_mask(_mm512_add_epi64(_mm512_slli_epi64(up10, 2), odd), vbr);
  const __mmask8 shorter_one = down10_in ^ up10_in;
  const __m512i shorter_pick = _mm512_mask_blend_epi64(down10_in, up10, down10);
  // Else s or s + 1: the one inside, or the closer (ties to even).
  const __m512i t = _mm512_add_epi64(s, set1(1));
  const __mmask8 s_in = _mm512_cmple_epu64_mask(lower, _mm512_slli_epi64(s, 2));
  const __mmask8 t_in = _mm512_cmple_epu64_mask(_mm512_add_epi64(_mm512_slli_epi64(t, 2), odd), vbr);
  const __mmask8 one_in = s_in ^ t_in;
  const __m512i one_pick = _mm512_mask_blend_epi64(s_in, t, s);
  const __m512i mid = _mm512_slli_epi64(_mm512_add_epi64(s, t), 1);
  const __mmask8 s_closer = _mm512_cmpgt_epu64_mask(mid, vb) |
                            (_mm512_cmpeq_epi64_mask(mid, vb) & _mm512_testn_epi64_mask(s, set1(1)));
  const __m512i closer_pick = _mm512_mask_blend_epi64(s_closer, t, s);
  __m512i digits = _mm512_mask_blend_epi64(shorter_one, _mm512_mask_blend_epi64(one_in, closer_pick, one_pick), shorter_pick);
  digits = _mm512_mask_blend_epi64(integer, digits, f);
  return {digits, _mm512_maskz_mov_epi64(static_cast<__mmask8>(~integer), k)};
}

/// Where each byte of a number's 16-byte slot comes from, for pshufb: digit i of the
/// nine-digit (zero-padded) significand is byte i; then these.
constexpr char kZeroAt = 9, kMinusAt = 10, kPointAt = 11, kSepAt = 12;

/// Byte indices for vpermb / vpermi2b, for the four numbers 4·half .. 4·half + 3 of eight
/// (64-bit lanes), slot i (16 bytes) for number 4·half + i:
///   field[f]: every byte of slot i takes byte f of that number's lane;
///   digits: slot i's bytes 0..8 take the number's leading digit (second table, its lane's
///   byte 0) and its eight other digits (first table), bytes 9..15 a zero byte.
struct SlotIndices {
  alignas(64) char field[4][64];
  alignas(64) char digits[64];
};

constexpr SlotIndices slot_indices(int half) {
  SlotIndices t{};
  for (int i = 0; i < 4; ++i) {
    const int lane = 8 * (4 * half + i);
    for (int j = 0; j < 16; ++j) {
      for (int f = 0; f < 4; ++f) t.field[f][16 * i + j] = static_cast<char>(lane + f);
      t.digits[16 * i + j] = static_cast<char>(j == 0 ? 64 + lane : j < 9 ? lane + j - 1 : 64 + lane + 1);
    }
  }
  return t;
}

constexpr SlotIndices kSlotIndices[2] = {slot_indices(0), slot_indices(1)};

/// The texts of four numbers (half 0 or 1 of eight), each followed by `sep`, packed
/// together at `p` (a 64-byte store); returns the end.
///   fields: per number (64-bit lane) byte 0 B, the slot position of the units digit;
///   byte 1 C, so that slot byte j ≤ B shows digit j + C (j + C − 1 after the point);
///   byte 2 the separator's position; byte 3 the sign (0 or 1).
POSENC_AVX512 char* write_four(const SlotIndices& at, char* p, __m512i fields, __m512i low_digits, __m512i lead_digit, __m512i constants) {
  alignas(64) static const char kPositions[64] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
                                                  0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
                                                  0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
                                                  0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
  const __m512i j = _mm512_load_si512(kPositions);
  const __m512i one = _mm512_set1_epi8(1);
  const __m512i units = _mm512_permutexvar_epi8(_mm512_load_si512(at.field[0]), fields);
  const __m512i offset = _mm512_permutexvar_epi8(_mm512_load_si512(at.field[1]), fields);
  const __m512i sep_at = _mm512_permutexvar_epi8(_mm512_load_si512(at.field[2]), fields);
  const __m512i sign = _mm512_permutexvar_epi8(_mm512_load_si512(at.field[3]), fields);
  // Each slot's own 16 source bytes: its nine digits in ASCII, '0', '-', '.', sep.
  const __m512i source =
      _mm512_add_epi8(_mm512_permutex2var_epi8(low_digits, _mm512_load_si512(at.digits), lead_digit), constants);
  __m512i idx = _mm512_add_epi8(j, offset);
  idx = _mm512_mask_sub_epi8(idx, _mm512_cmpgt_epu8_mask(j, units), idx, one);  // past the point
  idx = _mm512_min_epu8(idx, _mm512_set1_epi8(kZeroAt));  // before or after the nine digits: '0'
  idx = _mm512_mask_mov_epi8(idx, _mm512_cmplt_epu8_mask(j, sign), _mm512_set1_epi8(kMinusAt));
  idx = _mm512_mask_mov_epi8(idx, _mm512_cmpeq_epi8_mask(j, _mm512_add_epi8(units, one)), _mm512_set1_epi8(kPointAt));
  idx = _mm512_mask_mov_epi8(idx, _mm512_cmpeq_epi8_mask(j, sep_at), _mm512_set1_epi8(kSepAt));
  const __m512i text = _mm512_shuffle_epi8(source, idx);
  const __mmask64 keep = _mm512_cmple_epu8_mask(j, sep_at);
  _mm512_storeu_si512(p, _mm512_maskz_compress_epi8(keep, text));
  return p + std::popcount(static_cast<std::uint64_t>(keep));
}

}  // namespace

POSENC_AVX512 std::size_t float_texts_avx512(char*& out, const float* v, std::size_t n, char sep) {
  const __m512i zero = _mm512_setzero_si512();
  alignas(64) char slot_constants[64];
  for (int i = 0; i < 4; ++i) {
    for (int j = 0; j < 16; ++j) slot_constants[16 * i + j] = j <= kZeroAt ? '0' : 0;
    slot_constants[16 * i + kMinusAt] = '-';
    slot_constants[16 * i + kPointAt] = '.';
    slot_constants[16 * i + kSepAt] = sep;
  }
  const __m512i constants = _mm512_load_si512(slot_constants);
  char* p = out;
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m512i bits = _mm512_cvtepu32_epi64(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(v + i)));
    const __m512i biased = _mm512_and_si512(_mm512_srli_epi64(bits, 23), set1(0xFF));
    const __mmask8 normal = _mm512_cmpneq_epi64_mask(biased, zero) & _mm512_cmpneq_epi64_mask(biased, set1(0xFF));
    const auto [sig, exp] = schubfach(bits);
    // The nine digits: the leading one, then eight in one lane (first digit in the lowest
    // byte): 10^4 halves in 32-bit lanes, 10^2 quarters in 16-bit lanes, digits in bytes.
    const __m512i lead = _mm512_srli_epi64(_mm512_mul_epu32(sig, set1(1441151881)), 57);  // sig / 10^8
    const __m512i low = _mm512_sub_epi64(sig, _mm512_mul_epu32(lead, set1(100000000)));
    const __m512i top4 = _mm512_srli_epi64(_mm512_mul_epu32(low, set1(3518437209)), 45);  // low / 10^4
    __m512i d = _mm512_or_si512(top4, _mm512_slli_epi64(_mm512_sub_epi64(low, _mm512_mul_epu32(top4, set1(10000))), 32));
    const __m512i hundreds = _mm512_srli_epi32(_mm512_mullo_epi32(d, _mm512_set1_epi32(5243)), 19);  // x / 100
    d = _mm512_sub_epi32(_mm512_slli_epi32(d, 16), _mm512_mullo_epi32(hundreds, _mm512_set1_epi32(100 * 65536 - 1)));
    const __m512i tens = _mm512_srli_epi16(_mm512_mullo_epi16(d, _mm512_set1_epi16(103)), 10);  // x / 10
    d = _mm512_sub_epi16(_mm512_slli_epi16(d, 8), _mm512_mullo_epi16(tens, _mm512_set1_epi16(10 * 256 - 1)));
    // The last digit that is not zero (T) and the first (L), as positions 0..8 of the nine.
    const __m512i nonzero = _mm512_and_si512(_mm512_add_epi64(d, set1(0x7F7F7F7F7F7F7F7FLL)),
                                             set1(static_cast<std::int64_t>(0x8080808080808080ULL)));
    const __m512i last = _mm512_add_epi64(
        _mm512_srai_epi64(_mm512_sub_epi64(set1(63), _mm512_lzcnt_epi64(nonzero)), 3), set1(1));
    const __m512i lowest = _mm512_and_si512(nonzero, _mm512_sub_epi64(zero, nonzero));
    const __m512i first = _mm512_maskz_add_epi64(_mm512_cmpeq_epi64_mask(lead, zero),
                                                 _mm512_srli_epi64(_mm512_sub_epi64(set1(63), _mm512_lzcnt_epi64(lowest)), 3),
                                                 set1(1));
    // Decimal exponents: of the first digit (fe), the last kept one; the slot's layout.
    const __m512i exp8 = _mm512_add_epi64(exp, set1(8));
    const __m512i first_exp = _mm512_sub_epi64(exp8, first);
    const __m512i units_exp = _mm512_max_epi64(first_exp, zero);  // the first digit shown
    const __m512i last_exp = _mm512_min_epi64(_mm512_sub_epi64(exp8, last), zero);  // the last shown
    const __m512i point = _mm512_srli_epi64(last_exp, 63);  // 1 if there is a fraction
    const __m512i s = _mm512_srli_epi64(bits, 31);
    const __m512i units = _mm512_add_epi64(s, units_exp);
    const __m512i offset = _mm512_sub_epi64(_mm512_sub_epi64(exp8, units_exp), s);
    const __m512i sep_at = _mm512_add_epi64(_mm512_sub_epi64(_mm512_add_epi64(units, point), last_exp), set1(1));
    const __mmask8 fits = normal & _mm512_cmpge_epi64_mask(first_exp, set1(-4)) &
                          _mm512_cmplt_epi64_mask(sep_at, set1(16));
    if (fits != 0xFF) break;  // the caller writes this group
    const __m512i fields = _mm512_or_si512(
        _mm512_or_si512(units, _mm512_slli_epi64(_mm512_and_si512(offset, set1(0xFF)), 8)),
        _mm512_or_si512(_mm512_slli_epi64(sep_at, 16), _mm512_slli_epi64(s, 24)));
    p = write_four(kSlotIndices[0], p, fields, d, lead, constants);
    p = write_four(kSlotIndices[1], p, fields, d, lead, constants);
  }
  out = p;
  return i;
}

#else

bool have_float_texts_avx512() { return false; }
std::size_t float_texts_avx512(char*&, const float*, std::size_t, char) { return 0; }

#endif

}  // namespace posenc::formats::detail
