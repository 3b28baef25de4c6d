// Dequantisation of ggml's block types, written from the block layouts of ggml-common.h and the
// scalar reference `dequantize_row_*` of ggml-quants.c, read in llama.cpp's ggml/src/ggml-quants.c
// and ggml-common.h @ c392e5094deaf2d1a7c18683214f007fad3fe42b (2025-02-20; MXFP4, newer, @
// 01243c587feceaa5d6a6c2305535ef2f549c48b8) and ggml-org/ggml src/ggml-quants.c @
// d99724f2b141fed9e1a9f402213506c081433465: the same bodies for these types.
// Each value is computed with the float32 operations ggml uses, in its order: an integer code is
// converted to float, then multiplied (Q6_K: (d * scale) * q; Q4_K/Q5_K: (d * sc) * q - dmin * m;
// Q4_1/Q5_1: q * d + m). The build's -ffp-contract=off keeps a * b + c two roundings, as the
// reference is on x86-64 (its C compiler without FMA contraction). The loops are written so that
// the compiler vectorises them; vector and scalar float operations round alike.
#include "ggml_dequant.hpp"

#include <array>
#include <bit>
#include <cstring>

namespace posenc::formats::ggml_dequant {
namespace {

// kvalues_iq4nl: IQ4_NL and IQ4_XS codes.
constexpr std::array<std::int8_t, 16> kIq4nlValues = {-127, -104, -83, -65, -49, -35, -22, -10,
                                                      1,    13,   25,  38,  53,  69,  89,  113};
// kvalues_mxfp4: E2M1 values doubled (the E8M0 scale is halved to match).
constexpr std::array<std::int8_t, 16> kFp4Values = {0, 1, 2, 3, 4, 6, 8, 12, 0, -1, -2, -3, -4, -6, -8, -12};

template <bool kBig>
inline std::uint16_t dq_u16(const unsigned char* p) {
  return kBig ? static_cast<std::uint16_t>((p[0] << 8) | p[1]) : static_cast<std::uint16_t>(p[0] | (p[1] << 8));
}

template <bool kBig>
inline std::uint32_t dq_u32(const unsigned char* p) {
  const std::uint32_t a = p[0], b = p[1], c = p[2], d = p[3];
  return kBig ? (a << 24) | (b << 16) | (c << 8) | d : a | (b << 8) | (c << 16) | (d << 24);
}

float half_bits_to_float(std::uint16_t h) {
  const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
  const std::uint32_t exponent = (h >> 10) & 0x1Fu;
  const std::uint32_t mantissa = h & 0x3FFu;
  std::uint32_t bits = 0;
  if (exponent == 0x1F) {
    bits = 0x7F800000u | (mantissa << 13) | (mantissa != 0 ? 0x00400000u : 0u);
  } else if (exponent != 0) {
    bits = ((exponent + 112) << 23) | (mantissa << 13);
  } else if (mantissa != 0) {  // subnormal: mantissa * 2^-24, exact in float32
    bits = std::bit_cast<std::uint32_t>(static_cast<float>(mantissa) * 0x1p-24f);
  }
  return std::bit_cast<float>(sign | bits);
}

// All 65536 conversions, built once (256 KiB): F16 tensors convert every element.
const std::array<float, 65536>& half_table() {
  static const auto table = [] {
    std::array<float, 65536> t{};
    for (std::uint32_t h = 0; h < 65536; ++h) t[h] = half_bits_to_float(static_cast<std::uint16_t>(h));
    return t;
  }();
  return table;
}

template <bool kBig>
inline float dq_half(const unsigned char* p, const std::array<float, 65536>& table) {
  return table[dq_u16<kBig>(p)];
}

// GGML_E8M0_TO_FP32_HALF: 2^(e - 128); e = 0 and 1 are the subnormals 2^-128 and 2^-127.
inline float e8m0_half(std::uint8_t e) {
  const std::uint32_t bits = e < 2 ? 0x00200000u << e : static_cast<std::uint32_t>(e - 1) << 23;
  return std::bit_cast<float>(bits);
}

using HalfTable = std::array<float, 65536>;

template <bool kBig>
void dq_f32(const unsigned char* p, std::size_t n, float* y, const HalfTable&) {
  for (std::size_t i = 0; i < n; ++i) y[i] = std::bit_cast<float>(dq_u32<kBig>(p + 4 * i));
}

template <bool kBig>
void dq_f16(const unsigned char* p, std::size_t n, float* y, const HalfTable& h) {
  for (std::size_t i = 0; i < n; ++i) y[i] = dq_half<kBig>(p + 2 * i, h);
}

template <bool kBig>
void dq_bf16(const unsigned char* p, std::size_t n, float* y, const HalfTable&) {
  for (std::size_t i = 0; i < n; ++i) y[i] = std::bit_cast<float>(static_cast<std::uint32_t>(dq_u16<kBig>(p + 2 * i)) << 16);
}

template <bool kBig>
void dq_q4_0(const unsigned char* p, std::size_t n, float* y, const HalfTable& h) {
  for (std::size_t b = 0; b < n; ++b, p += 18, y += 32) {
    const float d = dq_half<kBig>(p, h);
    const unsigned char* qs = p + 2;
    for (int j = 0; j < 16; ++j) {
      y[j] = static_cast<float>((qs[j] & 0x0F) - 8) * d;
      y[j + 16] = static_cast<float>((qs[j] >> 4) - 8) * d;
    }
  }
}

template <bool kBig>
void dq_q4_1(const unsigned char* p, std::size_t n, float* y, const HalfTable& h) {
  for (std::size_t b = 0; b < n; ++b, p += 20, y += 32) {
    const float d = dq_half<kBig>(p, h);
    const float m = dq_half<kBig>(p + 2, h);
    const unsigned char* qs = p + 4;
    for (int j = 0; j < 16; ++j) {
      y[j] = static_cast<float>(qs[j] & 0x0F) * d + m;
      y[j + 16] = static_cast<float>(qs[j] >> 4) * d + m;
    }
  }
}

// Q5_0/Q5_1: bit j of qh is the fifth bit of value j, bit j + 16 that of value j + 16.
template <bool kBig>
void dq_q5_0(const unsigned char* p, std::size_t n, float* y, const HalfTable& h) {
  for (std::size_t b = 0; b < n; ++b, p += 22, y += 32) {
    const float d = dq_half<kBig>(p, h);
    const std::uint32_t qh = dq_u32<kBig>(p + 2);
    const unsigned char* qs = p + 6;
    for (int j = 0; j < 16; ++j) {
      const int hi0 = static_cast<int>((qh >> j) & 1u) << 4;
      const int hi1 = static_cast<int>((qh >> (j + 16)) & 1u) << 4;
      y[j] = static_cast<float>(((qs[j] & 0x0F) | hi0) - 16) * d;
      y[j + 16] = static_cast<float>(((qs[j] >> 4) | hi1) - 16) * d;
    }
  }
}

template <bool kBig>
void dq_q5_1(const unsigned char* p, std::size_t n, float* y, const HalfTable& h) {
  for (std::size_t b = 0; b < n; ++b, p += 24, y += 32) {
    const float d = dq_half<kBig>(p, h);
    const float m = dq_half<kBig>(p + 2, h);
    const std::uint32_t qh = dq_u32<kBig>(p + 4);
    const unsigned char* qs = p + 8;
    for (int j = 0; j < 16; ++j) {
      const int hi0 = static_cast<int>((qh >> j) & 1u) << 4;
      const int hi1 = static_cast<int>((qh >> (j + 16)) & 1u) << 4;
      y[j] = static_cast<float>((qs[j] & 0x0F) | hi0) * d + m;
      y[j + 16] = static_cast<float>((qs[j] >> 4) | hi1) * d + m;
    }
  }
}

template <bool kBig>
void dq_q8_0(const unsigned char* p, std::size_t n, float* y, const HalfTable& h) {
  for (std::size_t b = 0; b < n; ++b, p += 34, y += 32) {
    const float d = dq_half<kBig>(p, h);
    for (int j = 0; j < 32; ++j) y[j] = static_cast<float>(static_cast<std::int8_t>(p[2 + j])) * d;
  }
}

template <bool kBig>
void dq_mxfp4(const unsigned char* p, std::size_t n, float* y, const HalfTable&) {
  for (std::size_t b = 0; b < n; ++b, p += 17, y += 32) {
    const float d = e8m0_half(p[0]);
    const unsigned char* qs = p + 1;
    for (int j = 0; j < 16; ++j) {
      y[j] = static_cast<float>(kFp4Values[qs[j] & 0x0F]) * d;
      y[j + 16] = static_cast<float>(kFp4Values[qs[j] >> 4]) * d;
    }
  }
}

// The 6-bit scale and min of sub-block j of a Q4_K/Q5_K super-block (get_scale_min_k4): sub-blocks
// 0-3 keep theirs in the low 6 bits of bytes j and j + 4; 4-7 in the nibbles of byte j + 4 with
// the top two bits of bytes j - 4 (scale) and j (min).
inline void k4_scale_min(int j, const unsigned char* s, int& sc, int& m) {
  if (j < 4) {
    sc = s[j] & 63;
    m = s[j + 4] & 63;
  } else {
    sc = (s[j + 4] & 0x0F) | ((s[j - 4] >> 6) << 4);
    m = (s[j + 4] >> 4) | ((s[j] >> 6) << 4);
  }
}

template <bool kBig>
void dq_q4_k(const unsigned char* p, std::size_t n, float* y, const HalfTable& h) {
  for (std::size_t b = 0; b < n; ++b, p += 144) {
    const float d = dq_half<kBig>(p, h);
    const float dmin = dq_half<kBig>(p + 2, h);
    const unsigned char* scales = p + 4;
    const unsigned char* q = p + 16;
    for (int c = 0; c < 4; ++c, q += 32, y += 64) {
      int sc = 0, m = 0;
      k4_scale_min(2 * c, scales, sc, m);
      const float d1 = d * static_cast<float>(sc), m1 = dmin * static_cast<float>(m);
      k4_scale_min(2 * c + 1, scales, sc, m);
      const float d2 = d * static_cast<float>(sc), m2 = dmin * static_cast<float>(m);
      for (int l = 0; l < 32; ++l) y[l] = d1 * static_cast<float>(q[l] & 0x0F) - m1;
      for (int l = 0; l < 32; ++l) y[32 + l] = d2 * static_cast<float>(q[l] >> 4) - m2;
    }
  }
}

// Q5_K: the fifth bit of value 64c + l is bit 2c of qh[l], that of 64c + 32 + l bit 2c + 1.
template <bool kBig>
void dq_q5_k(const unsigned char* p, std::size_t n, float* y, const HalfTable& h) {
  for (std::size_t b = 0; b < n; ++b, p += 176) {
    const float d = dq_half<kBig>(p, h);
    const float dmin = dq_half<kBig>(p + 2, h);
    const unsigned char* scales = p + 4;
    const unsigned char* qh = p + 16;
    const unsigned char* ql = p + 48;
    for (int c = 0; c < 4; ++c, ql += 32, y += 64) {
      int sc = 0, m = 0;
      k4_scale_min(2 * c, scales, sc, m);
      const float d1 = d * static_cast<float>(sc), m1 = dmin * static_cast<float>(m);
      k4_scale_min(2 * c + 1, scales, sc, m);
      const float d2 = d * static_cast<float>(sc), m2 = dmin * static_cast<float>(m);
      const int lo = 2 * c, hi = 2 * c + 1;
      for (int l = 0; l < 32; ++l) y[l] = d1 * static_cast<float>((ql[l] & 0x0F) + (((qh[l] >> lo) & 1) << 4)) - m1;
      for (int l = 0; l < 32; ++l) y[32 + l] = d2 * static_cast<float>((ql[l] >> 4) + (((qh[l] >> hi) & 1) << 4)) - m2;
    }
  }
}

// Q6_K: d is the last field; each half (128 values) takes 64 bytes of ql, 32 of qh, 8 scales.
// Value 32k + l of a half (k = 0..3, l = 0..31): low 4 bits from ql[l + 32 (k % 2)] (low nibble for
// k < 2, high for k >= 2), high 2 bits from bits 2k, 2k + 1 of qh[l], scale scales[2k + l / 16];
// ggml's loop computes the four k at once per l, the same values.
template <bool kBig>
void dq_q6_k(const unsigned char* p, std::size_t n, float* y, const HalfTable& h) {
  for (std::size_t b = 0; b < n; ++b, p += 210) {
    const float d = dq_half<kBig>(p + 208, h);
    const unsigned char* ql = p;
    const unsigned char* qh = p + 128;
    const unsigned char* sc = p + 192;
    for (int half = 0; half < 2; ++half, ql += 64, qh += 32, sc += 8, y += 128) {
      for (int k = 0; k < 4; ++k) {
        const unsigned char* low = ql + 32 * (k % 2);
        const int nibble = 4 * (k / 2), shift = 2 * k;
        float q[32];
        for (int l = 0; l < 32; ++l)
          q[l] = static_cast<float>(static_cast<int>(((low[l] >> nibble) & 0x0F) | (((qh[l] >> shift) & 3) << 4)) - 32);
        const float ds0 = d * static_cast<float>(static_cast<std::int8_t>(sc[2 * k]));
        const float ds1 = d * static_cast<float>(static_cast<std::int8_t>(sc[2 * k + 1]));
        for (int l = 0; l < 16; ++l) y[32 * k + l] = ds0 * q[l];
        for (int l = 16; l < 32; ++l) y[32 * k + l] = ds1 * q[l];
      }
    }
  }
}

template <bool kBig>
void dq_iq4_nl(const unsigned char* p, std::size_t n, float* y, const HalfTable& h) {
  for (std::size_t b = 0; b < n; ++b, p += 18, y += 32) {
    const float d = dq_half<kBig>(p, h);
    const unsigned char* qs = p + 2;
    for (int j = 0; j < 16; ++j) {
      y[j] = d * static_cast<float>(kIq4nlValues[qs[j] & 0x0F]);
      y[j + 16] = d * static_cast<float>(kIq4nlValues[qs[j] >> 4]);
    }
  }
}

// IQ4_XS: eight sub-blocks of 32, each with a 6-bit scale (4 low bits in scales_l, 2 high bits in
// scales_h), stored minus 32.
template <bool kBig>
void dq_iq4_xs(const unsigned char* p, std::size_t n, float* y, const HalfTable& h) {
  for (std::size_t b = 0; b < n; ++b, p += 136) {
    const float d = dq_half<kBig>(p, h);
    const std::uint32_t scales_h = dq_u16<kBig>(p + 2);
    const unsigned char* scales_l = p + 4;
    const unsigned char* qs = p + 8;
    for (int ib = 0; ib < 8; ++ib, qs += 16, y += 32) {
      const int ls = static_cast<int>(((scales_l[ib / 2] >> (4 * (ib % 2))) & 0x0F) | (((scales_h >> (2 * ib)) & 3u) << 4));
      const float dl = d * static_cast<float>(ls - 32);
      for (int j = 0; j < 16; ++j) {
        y[j] = dl * static_cast<float>(kIq4nlValues[qs[j] & 0x0F]);
        y[j + 16] = dl * static_cast<float>(kIq4nlValues[qs[j] >> 4]);
      }
    }
  }
}

using Decoder = void (*)(const unsigned char*, std::size_t, float*, const HalfTable&);

struct DecoderPair {
  Decoder little = nullptr, big = nullptr;
};

#define POSENC_DQ_PAIR(fn) DecoderPair{&fn<false>, &fn<true>}

DecoderPair decoder_of(std::uint32_t type) {
  switch (type) {
    case 0: return POSENC_DQ_PAIR(dq_f32);
    case 1: return POSENC_DQ_PAIR(dq_f16);
    case 2: return POSENC_DQ_PAIR(dq_q4_0);
    case 3: return POSENC_DQ_PAIR(dq_q4_1);
    case 6: return POSENC_DQ_PAIR(dq_q5_0);
    case 7: return POSENC_DQ_PAIR(dq_q5_1);
    case 8: return POSENC_DQ_PAIR(dq_q8_0);
    case 12: return POSENC_DQ_PAIR(dq_q4_k);
    case 13: return POSENC_DQ_PAIR(dq_q5_k);
    case 14: return POSENC_DQ_PAIR(dq_q6_k);
    case 20: return POSENC_DQ_PAIR(dq_iq4_nl);
    case 23: return POSENC_DQ_PAIR(dq_iq4_xs);
    case 30: return POSENC_DQ_PAIR(dq_bf16);
    case 39: return POSENC_DQ_PAIR(dq_mxfp4);
    default: return {};
  }
}

#undef POSENC_DQ_PAIR

}  // namespace

float half_to_float(std::uint16_t h) { return half_table()[h]; }

bool supported(std::uint32_t type) { return decoder_of(type).little != nullptr; }

void decode_blocks(std::uint32_t type, const unsigned char* src, std::size_t n_blocks, float* dst, bool big_endian) {
  const DecoderPair pair = decoder_of(type);
  (big_endian ? pair.big : pair.little)(src, n_blocks, dst, half_table());
}

}  // namespace posenc::formats::ggml_dequant
