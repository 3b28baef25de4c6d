"""ggml's dequantisation in numpy, for tests: an independent transcription of the scalar reference
of ggml (ggml/src/ggml-quants.c dequantize_row_*, the block layouts of ggml-common.h and
ggml_compute_fp16_to_fp32 / ggml_e8m0_to_fp32_half of ggml-impl.h), read in llama.cpp @ c392e5094dea
(2025-02-20; MXFP4 from llama.cpp @ 01243c587fec and ggml @ d99724f2b141, where the other formulas
are the same). Written from the C source, vectorised over blocks, not from posenc's C++.

Every value is computed in float32 with ggml's operations in ggml's order: an integer code converted
to float32, then the products and sums of the C expression from left to right (Q6_K: (d * sc) * q;
Q4_K/Q5_K: (d * sc) * q - (dmin * m); Q4_1/Q5_1: q * d + m; numpy never fuses a * b + c).
`dequantize(type_id, data)` takes the little-endian bytes of whole blocks, returns float32 values.
"""
import numpy as np

F32 = np.float32
# ggml_type: (elements per block, bytes per block)
BLOCKS = {0: (1, 4), 1: (1, 2), 2: (32, 18), 3: (32, 20), 6: (32, 22), 7: (32, 24), 8: (32, 34),
          12: (256, 144), 13: (256, 176), 14: (256, 210), 20: (32, 18), 23: (256, 136), 30: (1, 2),
          39: (32, 17)}
NAMES = {0: "F32", 1: "F16", 2: "Q4_0", 3: "Q4_1", 6: "Q5_0", 7: "Q5_1", 8: "Q8_0", 12: "Q4_K",
         13: "Q5_K", 14: "Q6_K", 20: "IQ4_NL", 23: "IQ4_XS", 30: "BF16", 39: "MXFP4"}
# kvalues_iq4nl and kvalues_mxfp4 (ggml-common.h)
IQ4NL = np.array([-127, -104, -83, -65, -49, -35, -22, -10, 1, 13, 25, 38, 53, 69, 89, 113], dtype=np.int8)
FP4 = np.array([0, 1, 2, 3, 4, 6, 8, 12, 0, -1, -2, -3, -4, -6, -8, -12], dtype=np.int8)


def fp16_to_fp32(h):
    """ggml_compute_fp16_to_fp32: the magic-number conversion (exponent offset, multiply by 2^-112;
    subnormals through 0.5 + m * 2^-24 - 0.5), as float32 arithmetic."""
    w = h.astype(np.uint32) << np.uint32(16)
    sign = w & np.uint32(0x80000000)
    two_w = w + w  # wraps: the sign bit leaves
    exp_offset = np.uint32(0xE0 << 23)
    with np.errstate(all="ignore"):
        normalized = ((two_w >> np.uint32(4)) + exp_offset).view(F32) * F32(2.0 ** -112)
        denormalized = ((two_w >> np.uint32(17)) | np.uint32(126 << 23)).view(F32) - F32(0.5)
    bits = np.where(two_w < np.uint32(1 << 27), denormalized.view(np.uint32), normalized.view(np.uint32))
    return (sign | bits).view(F32)


def e8m0_to_fp32_half(e):
    """ggml_e8m0_to_fp32_half: 2^(e - 128); e < 2 give the subnormal patterns 0x00200000 << e."""
    e = e.astype(np.uint32)
    bits = np.where(e < 2, np.uint32(0x00200000) << e, (e - np.uint32(1)) << np.uint32(23))
    return bits.astype(np.uint32).view(F32)


def _half(b, at):
    return fp16_to_fp32(b[:, at:at + 2].copy().view("<u2")[:, 0])


def _nibbles(qs):
    """(n, 16) bytes -> (n, 32) codes: low nibbles first (values 0-15), then high (16-31)."""
    return np.concatenate([qs & 0x0F, qs >> 4], axis=1)


def _q5_codes(qh_bytes, qs):
    qh = qh_bytes.copy().view("<u4")[:, 0]
    bits = (qh[:, None] >> np.arange(32, dtype=np.uint32)[None, :]) & np.uint32(1)
    return _nibbles(qs).astype(np.int32) | (bits.astype(np.int32) << 4)


def q4_0(b):
    d = _half(b, 0)[:, None]
    return (_nibbles(b[:, 2:18]).astype(np.int32) - 8).astype(F32) * d


def q4_1(b):
    d, m = _half(b, 0)[:, None], _half(b, 2)[:, None]
    return _nibbles(b[:, 4:20]).astype(F32) * d + m


def q5_0(b):
    d = _half(b, 0)[:, None]
    return (_q5_codes(b[:, 2:6], b[:, 6:22]) - 16).astype(F32) * d


def q5_1(b):
    d, m = _half(b, 0)[:, None], _half(b, 2)[:, None]
    return _q5_codes(b[:, 4:8], b[:, 8:24]).astype(F32) * d + m


def q8_0(b):
    d = _half(b, 0)[:, None]
    return b[:, 2:34].view(np.int8).astype(F32) * d


def mxfp4(b):
    d = e8m0_to_fp32_half(b[:, 0])[:, None]
    return FP4[_nibbles(b[:, 1:17])].astype(F32) * d


def iq4_nl(b):
    d = _half(b, 0)[:, None]
    return d * IQ4NL[_nibbles(b[:, 2:18])].astype(F32)


def _k4_scales_mins(s):
    """get_scale_min_k4 for j = 0..7 of each block: (n, 8) scales and mins."""
    sc = np.concatenate([s[:, 0:4] & 63, (s[:, 8:12] & 0x0F) | ((s[:, 0:4] >> 6) << 4)], axis=1)
    mn = np.concatenate([s[:, 4:8] & 63, (s[:, 8:12] >> 4) | ((s[:, 4:8] >> 6) << 4)], axis=1)
    return sc.astype(F32), mn.astype(F32)


def _k4_low_high(qs):
    """(n, 128) bytes -> (n, 8, 32) 4-bit codes: sub-block 2c = low nibbles of bytes 32c..32c+31,
    2c + 1 = their high nibbles."""
    q = qs.reshape(-1, 4, 1, 32)
    return np.concatenate([q & 0x0F, q >> 4], axis=2).reshape(-1, 8, 32)


def q4_k(b):
    d, dmin = _half(b, 0)[:, None], _half(b, 2)[:, None]
    sc, mn = _k4_scales_mins(b[:, 4:16])
    d1, m1 = d * sc, dmin * mn  # (n, 8): d * sc, min * m
    q = _k4_low_high(b[:, 16:144]).astype(F32)
    return (d1[:, :, None] * q - m1[:, :, None]).reshape(-1, 256)


def q5_k(b):
    d, dmin = _half(b, 0)[:, None], _half(b, 2)[:, None]
    sc, mn = _k4_scales_mins(b[:, 4:16])
    d1, m1 = d * sc, dmin * mn
    qh = b[:, 16:48]
    # sub-block j = 2c (+1): bit u1 = 1 << 2c (u2 = 2 << 2c) of qh[l], i.e. bit j
    high = (qh[:, None, :] >> np.arange(8, dtype=np.uint8)[None, :, None]) & 1
    q = (_k4_low_high(b[:, 48:176]).astype(np.int32) + 16 * high.astype(np.int32)).astype(F32)
    return (d1[:, :, None] * q - m1[:, :, None]).reshape(-1, 256)


def q6_k(b):
    ql = b[:, 0:128].reshape(-1, 2, 2, 32)   # [half, l or l + 32, l]
    qh = b[:, 128:192].reshape(-1, 2, 32)    # [half, l]
    sc = b[:, 192:208].view(np.int8).reshape(-1, 2, 8)
    d = _half(b, 208)
    low = np.concatenate([ql & 0x0F, ql >> 4], axis=2)  # [half, k = 0..3, l]: q1, q2, q3, q4
    high = (qh[:, :, None, :] >> (2 * np.arange(4, dtype=np.uint8))[None, None, :, None]) & 3
    q = (low.astype(np.int32) | (high.astype(np.int32) << 4)) - 32
    idx = 2 * np.arange(4)[:, None] + np.arange(32)[None, :] // 16  # scale of (k, l): is + 2k
    scale = sc[:, :, idx]  # (n, half, k, l)
    ds = d[:, None, None, None] * scale.astype(F32)
    return (ds * q.astype(F32)).reshape(-1, 256)


def iq4_xs(b):
    d = _half(b, 0)
    scales_h = b[:, 2:4].copy().view("<u2")[:, 0].astype(np.int32)
    scales_l = b[:, 4:8].astype(np.int32)
    ib = np.arange(8)
    ls = ((scales_l[:, ib // 2] >> (4 * (ib % 2))) & 0x0F) | (((scales_h[:, None] >> (2 * ib)) & 3) << 4)
    dl = d[:, None] * (ls - 32).astype(F32)  # (n, 8)
    qs = b[:, 8:136].reshape(-1, 8, 16)
    codes = np.concatenate([qs & 0x0F, qs >> 4], axis=2)  # (n, 8, 32)
    return (dl[:, :, None] * IQ4NL[codes].astype(F32)).reshape(-1, 256)


def dequantize(type_id, data):
    """float32 values of the whole blocks in `data` (bytes), as ggml's to_float gives them."""
    raw = np.frombuffer(data, dtype=np.uint8)
    if type_id == 0:
        return raw.view("<f4").astype(F32)
    if type_id == 1:
        return fp16_to_fp32(raw.view("<u2"))
    if type_id == 30:
        return (raw.view("<u2").astype(np.uint32) << np.uint32(16)).view(F32)
    block, size = BLOCKS[type_id]
    blocks = raw.reshape(-1, size)
    fn = {2: q4_0, 3: q4_1, 6: q5_0, 7: q5_1, 8: q8_0, 12: q4_k, 13: q5_k, 14: q6_k, 20: iq4_nl, 23: iq4_xs,
          39: mxfp4}[type_id]
    with np.errstate(all="ignore"):
        return np.ascontiguousarray(fn(blocks), dtype=F32).reshape(-1)
