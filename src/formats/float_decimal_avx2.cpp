#include "posenc/formats/float_decimal.hpp"
#include "posenc/cpu.hpp"

#include <immintrin.h>

namespace posenc::formats::detail {

// Computed exactly with Python's integers and fractions:
//   r = floor(log2(10^-k)) - 125;  g = floor(10^-k / 2^r) + 1;  G = (g >> 63) + 1
// tests/io/number_text_test.cpp recomputes each entry in long double.
const std::uint64_t kFloatPow10[kPow10Max - kPow10Min + 1] = {
    0x59aedfc10d7279c6ULL,  // k = -45
    0x47bf19673df52e38ULL,  // k = -44
    0x72cb5bd86321e38dULL,  // k = -43
    0x5bd5e313828182d7ULL,  // k = -42
    0x4977e8dc68679be0ULL,  // k = -41
    0x758ca7c70d7292ffULL,  // k = -40
    0x5e0a1fd271287599ULL,  // k = -39
    0x4b3b4ca85a86c47bULL,  // k = -38
    0x785ee10d5da46d91ULL,  // k = -37
    0x604be73de4838adaULL,  // k = -36
    0x4d0985cb1d3608afULL,  // k = -35
    0x7b426fab61f00de4ULL,  // k = -34
    0x629b8c891b267183ULL,  // k = -33
    0x4ee2d6d415b85acfULL,  // k = -32
    0x7e37be2022c0914cULL,  // k = -31
    0x64f964e68233a770ULL,  // k = -30
    0x50c783eb9b5c85f3ULL,  // k = -29
    0x409f9cbc7c4a04c3ULL,  // k = -28
    0x6765c793fa10079eULL,  // k = -27
    0x52b7d2dcc80cd2e5ULL,  // k = -26
    0x422ca8b0a00a4251ULL,  // k = -25
    0x69e10de76676d081ULL,  // k = -24
    0x54b40b1f852bda01ULL,  // k = -23
    0x43c33c1937564801ULL,  // k = -22
    0x6c6b935b8bbd4001ULL,  // k = -21
    0x56bc75e2d6310001ULL,  // k = -20
    0x4563918244f40001ULL,  // k = -19
    0x6f05b59d3b200001ULL,  // k = -18
    0x58d15e1762800001ULL,  // k = -17
    0x470de4df82000001ULL,  // k = -16
    0x71afd498d0000001ULL,  // k = -15
    0x5af3107a40000001ULL,  // k = -14
    0x48c2739500000001ULL,  // k = -13
    0x746a528800000001ULL,  // k = -12
    0x5d21dba000000001ULL,  // k = -11
    0x4a817c8000000001ULL,  // k = -10
    0x7735940000000001ULL,  // k = -9
    0x5f5e100000000001ULL,  // k = -8
    0x4c4b400000000001ULL,  // k = -7
    0x7a12000000000001ULL,  // k = -6
    0x61a8000000000001ULL,  // k = -5
    0x4e20000000000001ULL,  // k = -4
    0x7d00000000000001ULL,  // k = -3
    0x6400000000000001ULL,  // k = -2
    0x5000000000000001ULL,  // k = -1
    0x4000000000000001ULL,  // k = 0
    0x6666666666666667ULL,  // k = 1
    0x51eb851eb851eb86ULL,  // k = 2
    0x4189374bc6a7ef9eULL,  // k = 3
    0x68db8bac710cb296ULL,  // k = 4
    0x53e2d6238da3c212ULL,  // k = 5
    0x431bde82d7b634dbULL,  // k = 6
    0x6b5fca6af2bd215fULL,  // k = 7
    0x55e63b88c230e77fULL,  // k = 8
    0x44b82fa09b5a52ccULL,  // k = 9
    0x6df37f675ef6eae0ULL,  // k = 10
    0x57f5ff85e5925580ULL,  // k = 11
    0x465e6604b7a84466ULL,  // k = 12
    0x709709a125da070aULL,  // k = 13
    0x5a126e1a84ae6c08ULL,  // k = 14
    0x480ebe7b9d58566dULL,  // k = 15
    0x734aca5f6226f0aeULL,  // k = 16
    0x5c3bd5191b525a25ULL,  // k = 17
    0x49c97747490eae84ULL,  // k = 18
    0x760f253edb4ab0d3ULL,  // k = 19
    0x5e72843249088d76ULL,  // k = 20
    0x4b8ed0283a6d3df8ULL,  // k = 21
    0x78e480405d7b9659ULL,  // k = 22
    0x60b6cd004ac94514ULL,  // k = 23
    0x4d5f0a66a23a9daaULL,  // k = 24
    0x7bcb43d769f762a9ULL,  // k = 25
    0x63090312bb2c4eeeULL,  // k = 26
    0x4f3a68dbc8f03f25ULL,  // k = 27
    0x7ec3daf941806507ULL,  // k = 28
    0x65697bfa9acd1da0ULL,  // k = 29
    0x51212ffbaf0a7e19ULL,  // k = 30
    0x40e7599625a1fe7bULL,  // k = 31
    0x67d88f56a29cca5eULL,  // k = 32
    0x5313a5dee87d6eb1ULL,  // k = 33
    0x42761e4bed31255bULL,  // k = 34
    0x6a5696dfe1e83bc4ULL,  // k = 35
    0x5512124cb4b9c96aULL,  // k = 36
    0x440e750a2a2e3abbULL,  // k = 37
    0x6ce3ee76a9e3912bULL,  // k = 38
    0x571cbec554b60dbcULL,  // k = 39
};

#if defined(__x86_64__) && defined(__GNUC__)

bool have_float_decimals_avx2() {
  static const bool has = cpu::has(cpu::Feature::kAvx2);
  return has;
}

namespace {

#define POSENC_AVX2 __attribute__((target("avx2")))

POSENC_AVX2 __m256i set1(std::int64_t x) { return _mm256_set1_epi64x(x); }

/// The high 64 bits of the 128-bit products of the 64-bit lanes, from four 32x32 products.
POSENC_AVX2 __m256i mulhi64(__m256i a, __m256i b) {
  const __m256i low32 = set1(0xFFFFFFFF);
  const __m256i ah = _mm256_srli_epi64(a, 32), bh = _mm256_srli_epi64(b, 32);
  const __m256i ll = _mm256_mul_epu32(a, b), lh = _mm256_mul_epu32(a, bh);
  const __m256i hl = _mm256_mul_epu32(ah, b), hh = _mm256_mul_epu32(ah, bh);
  const __m256i mid = _mm256_add_epi64(_mm256_add_epi64(_mm256_srli_epi64(ll, 32), _mm256_and_si256(lh, low32)),
                                       _mm256_and_si256(hl, low32));
  return _mm256_add_epi64(_mm256_add_epi64(hh, _mm256_srli_epi64(lh, 32)),
                          _mm256_add_epi64(_mm256_srli_epi64(hl, 32), _mm256_srli_epi64(mid, 32)));
}

/// Schubfach's rop: the top of g·cp, shifted so that 2 bits of fraction remain, rounded to odd.
POSENC_AVX2 __m256i round_to_odd(__m256i g, __m256i cp) {
  const __m256i low32 = set1(0xFFFFFFFF);
  const __m256i x = mulhi64(g, cp);
  return _mm256_or_si256(_mm256_srli_epi64(x, 31), _mm256_srli_epi64(_mm256_add_epi64(_mm256_and_si256(x, low32), low32), 32));
}

/// a <= b, for lanes in [0, 2^63).
POSENC_AVX2 __m256i less_equal(__m256i a, __m256i b) { return _mm256_xor_si256(_mm256_cmpgt_epi64(a, b), set1(-1)); }

/// floor((x·m + add) / 2^s) for small signed x (|x·m + add| < 2^40): the bias makes the
/// shift logical (AVX2 has no 64-bit arithmetic shift).
POSENC_AVX2 __m256i mul_shift(__m256i x, std::int64_t m, std::int64_t add, int s) {
  constexpr std::int64_t kBias = std::int64_t{1} << 40;
  const __m256i p = _mm256_add_epi64(_mm256_mul_epi32(x, set1(m)), set1(add + kBias));
  return _mm256_sub_epi64(_mm256_srli_epi64(p, s), set1(kBias >> s));
}

POSENC_AVX2 void four(const float* v, std::uint32_t* sig, std::int32_t* exp) {
  const __m256i zero = _mm256_setzero_si256();
  const __m256i bits = _mm256_cvtepu32_epi64(_mm_loadu_si128(reinterpret_cast<const __m128i*>(v)));
  const __m256i frac = _mm256_and_si256(bits, set1(0x7FFFFF));
  const __m256i biased = _mm256_and_si256(_mm256_srli_epi64(bits, 23), set1(0xFF));
  const __m256i c = _mm256_or_si256(frac, set1(1 << 23));  // significand, v = c·2^q
  const __m256i q = _mm256_sub_epi64(biased, set1(150));
  // Integers below 2^24 are their own shortest digits.
  const __m256i mq = _mm256_sub_epi64(zero, q);
  const __m256i f = _mm256_srlv_epi64(c, mq);
  const __m256i integer = _mm256_and_si256(
      _mm256_and_si256(_mm256_cmpgt_epi64(mq, zero), _mm256_cmpgt_epi64(set1(24), mq)),
      _mm256_cmpeq_epi64(_mm256_sllv_epi64(f, mq), c));
  // A power of two has a rounding interval a quarter narrower below: k = ⌊log10(¾·2^q)⌋.
  const __m256i shorter = _mm256_cmpeq_epi64(frac, zero);
  const __m256i k =
      _mm256_blendv_epi8(mul_shift(q, 315653, 0, 20), mul_shift(q, 315653, -131237, 20), shorter);  // ⌊log10 2^q⌋
  const __m256i h = _mm256_and_si256(
      _mm256_add_epi64(_mm256_add_epi64(q, mul_shift(_mm256_sub_epi64(zero, k), 1741647, 0, 19)), set1(33)),
      set1(63));
  // Lanes that are not normal have any k: keep the index inside the table.
  const __m256i index = _mm256_min_epu32(_mm256_and_si256(_mm256_sub_epi64(k, set1(kPow10Min)), set1(127)),
                                         set1(kPow10Max - kPow10Min));
  const __m256i g = _mm256_i64gather_epi64(reinterpret_cast<const long long*>(kFloatPow10), index, 8);
  const __m256i cb = _mm256_slli_epi64(c, 2);
  const __m256i cbl = _mm256_sub_epi64(cb, _mm256_blendv_epi8(set1(2), set1(1), shorter));
  const __m256i cbr = _mm256_add_epi64(cb, set1(2));
  // 4·v·10^-k and the interval ends, rounded to odd.
  const __m256i vb = round_to_odd(g, _mm256_sllv_epi64(cb, h));
  const __m256i vbl = round_to_odd(g, _mm256_sllv_epi64(cbl, h));
  const __m256i vbr = round_to_odd(g, _mm256_sllv_epi64(cbr, h));
  const __m256i odd = _mm256_and_si256(c, set1(1));  // an odd significand excludes the interval ends
  const __m256i lower = _mm256_add_epi64(vbl, odd);
  const __m256i s = _mm256_srli_epi64(vb, 2);
  // One digit fewer: s rounded down or up to a multiple of 10, if exactly one lies inside.
  const __m256i s10 = _mm256_srli_epi64(_mm256_mul_epu32(s, set1(0xCCCCCCCD)), 35);
  const __m256i down10 = _mm256_add_epi64(_mm256_slli_epi64(s10, 3), _mm256_slli_epi64(s10, 1));
  const __m256i up10 = _mm256_add_epi64(down10, set1(10));
  const __m256i down10_in = less_equal(lower, _mm256_slli_epi64(down10, 2));
  const __m256i up10_in = less_equal(_mm256_add_epi64(_mm256_slli_epi64(up10, 2), odd), vbr);
  const __m256i shorter_one = _mm256_xor_si256(down10_in, up10_in);
  const __m256i shorter_pick = _mm256_blendv_epi8(up10, down10, down10_in);
  // Else s or s + 1: the one inside, or the closer (ties to even).
  const __m256i t = _mm256_add_epi64(s, set1(1));
  const __m256i s_in = less_equal(lower, _mm256_slli_epi64(s, 2));
  const __m256i t_in = less_equal(_mm256_add_epi64(_mm256_slli_epi64(t, 2), odd), vbr);
  const __m256i one_in = _mm256_xor_si256(s_in, t_in);
  const __m256i one_pick = _mm256_blendv_epi8(t, s, s_in);
  const __m256i mid = _mm256_slli_epi64(_mm256_add_epi64(s, t), 1);
  const __m256i s_closer = _mm256_or_si256(
      _mm256_cmpgt_epi64(mid, vb),
      _mm256_and_si256(_mm256_cmpeq_epi64(mid, vb), _mm256_cmpeq_epi64(_mm256_and_si256(s, set1(1)), zero)));
  const __m256i closer_pick = _mm256_blendv_epi8(t, s, s_closer);
  __m256i digits = _mm256_blendv_epi8(_mm256_blendv_epi8(closer_pick, one_pick, one_in), shorter_pick, shorter_one);
  digits = _mm256_blendv_epi8(digits, f, integer);
  const __m256i exponent = _mm256_blendv_epi8(k, zero, integer);
  const __m256i low_halves = _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6);
  _mm_storeu_si128(reinterpret_cast<__m128i*>(sig),
                   _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(digits, low_halves)));
  _mm_storeu_si128(reinterpret_cast<__m128i*>(exp),
                   _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(exponent, low_halves)));
}

}  // namespace

void float_decimals_avx2(const float* v, std::size_t n, std::uint32_t* sig, std::int32_t* exp) {
  for (std::size_t i = 0; i + 4 <= n; i += 4) four(v + i, sig + i, exp + i);
}

#else

bool have_float_decimals_avx2() { return false; }
void float_decimals_avx2(const float*, std::size_t, std::uint32_t*, std::int32_t*) {}

#endif

}  // namespace posenc::formats::detail
