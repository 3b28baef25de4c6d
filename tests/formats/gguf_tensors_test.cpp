// GGUF tensor data: blocks whose values were worked out by hand from the layouts and formulas of
// ggml-common.h and ggml-quants.c dequantize_row_* (llama.cpp @ c392e5094dea, MXFP4 @ 01243c587fec; the
// arithmetic of each expected value is in the comment beside it), F16/BF16 bit patterns with their
// IEEE values, the shape in PyTorch order, the real tiny model of ../shared/data/gguf, and one
// hostile file per rule, each refused in one line naming the file, the tensor and the byte.
// The K-quants and IQ4_XS on random blocks are compared with an independent numpy transcription
// in tests/integration/test_gguf_tensors.py.
#include "posenc/formats/gguf_tensors.hpp"

#include <unistd.h>

#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <vector>

#include "gguf_writer.hpp"
#include "posenc/error.hpp"

using posenc::formats::dequantize_ggml;
using posenc::formats::gguf_tensor_from_bytes;
using posenc::formats::parse_gguf;
using posenc::formats::read_gguf_tensor;
using posenc::test::GgufWriter;
using Catch::Contains;

namespace {

// ggml_type ids (ggml.h).
enum : std::uint32_t { kF32 = 0, kF16 = 1, kQ4_0 = 2, kQ4_1 = 3, kQ5_0 = 6, kQ5_1 = 7, kQ8_0 = 8, kQ2_K = 10,
                       kQ4_K = 12, kQ5_K = 13, kQ6_K = 14, kIQ4_NL = 20, kIQ4_XS = 23, kBF16 = 30, kMXFP4 = 39 };

std::string tensor_bytes_of(std::initializer_list<int> values) {
  std::string s;
  for (int v : values) s += static_cast<char>(v & 0xFF);
  return s;
}

std::string le16_of(std::uint16_t v) { return tensor_bytes_of({v & 0xFF, v >> 8}); }

std::vector<float> dequant_of(std::uint32_t type, const std::string& blocks, std::size_t n, bool big = false) {
  std::vector<float> out(n);
  dequantize_ggml(type, blocks, out, big);
  return out;
}

std::uint32_t float_bits_of(float x) { return std::bit_cast<std::uint32_t>(x); }

std::string tensor_error_of(const std::string& bytes, std::size_t index = 0) {
  try {
    const auto f = parse_gguf(bytes, "t.gguf");
    gguf_tensor_from_bytes(f, f.tensors.at(index), bytes);
  } catch (const posenc::Error& e) {
    return e.what();
  }
  return "(no error)";
}

struct GgufTensorTempDir {
  std::filesystem::path path = std::filesystem::temp_directory_path() / ("posenc_gguf_tensors_" + std::to_string(::getpid()));
  GgufTensorTempDir() { std::filesystem::create_directories(path); }
  ~GgufTensorTempDir() { std::filesystem::remove_all(path); }
};

}  // namespace

TEST_CASE("gguf tensors: F16 bit patterns are IEEE binary16", "[gguf_tensors]") {
  const std::string b = le16_of(0x3C00) + le16_of(0xC000) + le16_of(0x7BFF) + le16_of(0x0001) + le16_of(0x03FF) +
                        le16_of(0x8000) + le16_of(0x7C00) + le16_of(0xFC00) + le16_of(0x3555) + le16_of(0x7E00) +
                        le16_of(0x7C01) + le16_of(0x0400);
  const auto v = dequant_of(kF16, b, 12);
  CHECK(v[0] == 1.0f);                                   // 0 01111 0000000000
  CHECK(v[1] == -2.0f);                                  // 1 10000 0000000000
  CHECK(v[2] == 65504.0f);                               // largest finite: (2 - 2^-10) * 2^15
  CHECK(v[3] == std::ldexp(1.0f, -24));                  // smallest subnormal 2^-24
  CHECK(v[4] == std::ldexp(1023.0f, -24));               // largest subnormal 1023 * 2^-24
  CHECK(float_bits_of(v[5]) == 0x80000000u);             // -0
  CHECK(v[6] == std::numeric_limits<float>::infinity());
  CHECK(v[7] == -std::numeric_limits<float>::infinity());
  CHECK(v[8] == 0.333251953125f);                        // 1.0101010101b * 2^-2 = 1365/4096
  CHECK(float_bits_of(v[9]) == 0x7FC00000u);             // quiet NaN, payload moved up 13 bits
  CHECK(float_bits_of(v[10]) == 0x7FC02000u);            // signalling NaN 0x7C01: payload 1 << 13, quieted
  CHECK(v[11] == std::ldexp(1.0f, -14));                 // smallest normal 2^-14
}

TEST_CASE("gguf tensors: BF16 is the top half of a float32", "[gguf_tensors]") {
  const std::string b = le16_of(0x3F80) + le16_of(0x4049) + le16_of(0xC2F7) + le16_of(0x0001) + le16_of(0x7FC1);
  const auto v = dequant_of(kBF16, b, 5);
  CHECK(v[0] == 1.0f);
  CHECK(v[1] == 3.140625f);                  // 0x40490000
  CHECK(v[2] == -123.5f);                    // 0xC2F70000
  CHECK(float_bits_of(v[3]) == 0x00010000u);  // a float32 subnormal, kept
  CHECK(float_bits_of(v[4]) == 0x7FC10000u);  // a NaN payload kept (ggml shifts, no arithmetic)
}

TEST_CASE("gguf tensors: Q8_0 is q * d", "[gguf_tensors]") {
  std::string b = le16_of(0x3800);  // d = 0.5
  std::string qs(32, '\0');
  qs[0] = static_cast<char>(-128), qs[1] = static_cast<char>(-1), qs[3] = 1, qs[4] = 127, qs[31] = 3;
  const auto v = dequant_of(kQ8_0, b + qs, 32);
  CHECK(v[0] == -64.0f);  // -128 * 0.5
  CHECK(v[1] == -0.5f);
  CHECK(v[2] == 0.0f);
  CHECK(v[3] == 0.5f);
  CHECK(v[4] == 63.5f);   // 127 * 0.5
  CHECK(v[31] == 1.5f);
}

TEST_CASE("gguf tensors: Q4_0 low nibbles are the first half, minus 8", "[gguf_tensors]") {
  std::string b = le16_of(0x4000);  // d = 2
  std::string qs(16, static_cast<char>(0x88));  // every code 8: value 0
  qs[0] = 0x1F, qs[1] = static_cast<char>(0x80);
  const auto v = dequant_of(kQ4_0, b + qs, 32);
  CHECK(v[0] == 14.0f);    // (0xF - 8) * 2
  CHECK(v[16] == -14.0f);  // (0x1 - 8) * 2
  CHECK(v[1] == -16.0f);   // (0x0 - 8) * 2
  CHECK(v[17] == 0.0f);    // (0x8 - 8) * 2
  CHECK(v[5] == 0.0f);
}

TEST_CASE("gguf tensors: Q4_1 is q * d + m", "[gguf_tensors]") {
  std::string b = le16_of(0x3800) + le16_of(0xBC00);  // d = 0.5, m = -1
  std::string qs(16, '\0');
  qs[0] = static_cast<char>(0xF3);
  const auto v = dequant_of(kQ4_1, b + qs, 32);
  CHECK(v[0] == 0.5f);   // 3 * 0.5 - 1
  CHECK(v[16] == 6.5f);  // 15 * 0.5 - 1
  CHECK(v[1] == -1.0f);  // 0 * 0.5 - 1
}

TEST_CASE("gguf tensors: Q5_0 and Q5_1 take the fifth bit from qh", "[gguf_tensors]") {
  // Q5_0: d = 1, qh bits 0 and 16 set: values 0 and 16 get +16.
  std::string b = le16_of(0x3C00) + tensor_bytes_of({0x01, 0x00, 0x01, 0x00});
  std::string qs(16, '\0');
  qs[0] = 0x21;
  const auto v = dequant_of(kQ5_0, b + qs, 32);
  CHECK(v[0] == 1.0f);     // (0x1 | 16) - 16
  CHECK(v[16] == 2.0f);    // (0x2 | 16) - 16
  CHECK(v[1] == -16.0f);   // (0 | 0) - 16
  CHECK(v[17] == -16.0f);
  // Q5_1: d = 0.5, m = 1, qh bit 31 set: value 31 (the high nibble of qs[15]) gets +16.
  std::string c = le16_of(0x3800) + le16_of(0x3C00) + tensor_bytes_of({0x00, 0x00, 0x00, 0x80});
  std::string cq(16, '\0');
  cq[15] = static_cast<char>(0xF0);
  const auto w = dequant_of(kQ5_1, c + cq, 32);
  CHECK(w[15] == 1.0f);   // 0 * 0.5 + 1
  CHECK(w[31] == 16.5f);  // (15 | 16) * 0.5 + 1
  CHECK(w[30] == 1.0f);
}

TEST_CASE("gguf tensors: IQ4_NL maps codes through kvalues_iq4nl", "[gguf_tensors]") {
  std::string b = le16_of(0x3800);  // d = 0.5
  std::string qs(16, '\0');
  qs[0] = static_cast<char>(0xF0), qs[1] = static_cast<char>(0x87);
  const auto v = dequant_of(kIQ4_NL, b + qs, 32);
  CHECK(v[0] == -63.5f);  // 0.5 * K[0] = 0.5 * -127
  CHECK(v[16] == 56.5f);  // 0.5 * K[15] = 0.5 * 113
  CHECK(v[1] == -5.0f);   // 0.5 * K[7] = 0.5 * -10
  CHECK(v[17] == 0.5f);   // 0.5 * K[8] = 0.5 * 1
}

TEST_CASE("gguf tensors: MXFP4 is an E8M0 scale times doubled E2M1 codes", "[gguf_tensors]") {
  // qs[0] = 0x97: low code 7 (E2M1 6.0, doubled 12), high code 9 (-0.5, doubled -1).
  std::string qs(16, '\0');
  qs[0] = static_cast<char>(0x97);
  const auto one = dequant_of(kMXFP4, tensor_bytes_of({128}) + qs, 32);  // 2^(128-128) = 1
  CHECK(one[0] == 12.0f);
  CHECK(one[16] == -1.0f);
  CHECK(one[1] == 0.0f);
  const auto tiny = dequant_of(kMXFP4, tensor_bytes_of({0}) + qs, 32);  // 2^-128, a float32 subnormal
  CHECK(tiny[0] == std::ldexp(12.0f, -128));
  CHECK(tiny[16] == -std::ldexp(1.0f, -128));
  const auto huge = dequant_of(kMXFP4, tensor_bytes_of({255}) + qs, 32);  // 2^127: 12 * 2^127 overflows
  CHECK(huge[0] == std::numeric_limits<float>::infinity());
  CHECK(huge[16] == -std::ldexp(1.0f, 127));
}

TEST_CASE("gguf tensors: a Q4_K block by hand", "[gguf_tensors]") {
  // d = 1, dmin = 0.5. scales[0] = 0x42: sub-block 0 scale 2, and 1 as the top bits of sub-block 4's
  // scale; scales[4] = 3: sub-block 0 min 3; scales[8] = 0x31: sub-block 4 scale 1 | 16 = 17, min 3.
  std::string b = le16_of(0x3C00) + le16_of(0x3800);
  std::string scales(12, '\0');
  scales[0] = 0x42, scales[4] = 3, scales[8] = 0x31;
  std::string qs(128, '\0');
  qs[0] = 0x5A, qs[64] = 0x02;
  const auto v = dequant_of(kQ4_K, b + scales + qs, 256);
  CHECK(v[0] == 18.5f);    // (1 * 2) * 0xA - 0.5 * 3
  CHECK(v[1] == -1.5f);    // (1 * 2) * 0 - 0.5 * 3
  CHECK(v[32] == 0.0f);    // sub-block 1: scale 0, min 0
  CHECK(v[128] == 32.5f);  // sub-block 4: (1 * 17) * 2 - 0.5 * 3
  CHECK(v[160] == 0.0f);   // sub-block 5
}

TEST_CASE("gguf tensors: a Q6_K block by hand", "[gguf_tensors]") {
  // d (the last field) = 0.25; scales[0] = 4, scales[2] = -2, scales[8] = 1.
  std::string ql(128, '\0'), qh(64, '\0'), sc(16, '\0');
  ql[0] = 0x35, qh[0] = static_cast<char>(0x0E), sc[0] = 4, sc[2] = static_cast<char>(-2), sc[8] = 1;
  ql[64] = 0x01, qh[32] = 0x03;
  const auto v = dequant_of(kQ6_K, ql + qh + sc + le16_of(0x3400), 256);
  CHECK(v[0] == 5.0f);      // (0.25 * 4) * ((0x5 | (qh bits 0-1 = 0b10) << 4) - 32) = 1 * 5
  CHECK(v[32] == -8.0f);    // (0.25 * -2) * ((ql[32] low 0 | (bits 2-3 = 0b11) << 4) - 32) = -0.5 * 16
  CHECK(v[64] == 0.0f);     // (0.25 * scales[4] = 0) * ((0x3 | 0) - 32) = 0 * -29 = -0
  CHECK(std::signbit(v[64]));
  CHECK(v[128] == 4.25f);   // second half: (0.25 * scales[8] = 1) * ((0x1 | 0b11 << 4) - 32) = 0.25 * 17
}

TEST_CASE("gguf tensors: an IQ4_XS block by hand", "[gguf_tensors]") {
  // d = 0.5; sub-block 0: scales_l[0] low nibble 0x3, scales_h bits 0-1 = 0b10: ls = 3 | 32 = 35,
  // dl = 0.5 * (35 - 32) = 1.5; sub-block 7: scales_l[3] high nibble 0, scales_h bits 14-15 = 0:
  // dl = 0.5 * -32 = -16.
  std::string b = le16_of(0x3800) + le16_of(0x0002) + tensor_bytes_of({0x03, 0, 0, 0});
  std::string qs(128, '\0');
  qs[0] = static_cast<char>(0xF8), qs[112] = 0x0F;
  const auto v = dequant_of(kIQ4_XS, b + qs, 256);
  CHECK(v[0] == 1.5f);       // 1.5 * K[8] = 1.5 * 1
  CHECK(v[16] == 169.5f);    // 1.5 * K[15] = 1.5 * 113
  CHECK(v[224] == -1808.0f); // -16 * K[15]
  CHECK(v[240] == 2032.0f);  // -16 * K[0] = -16 * -127
}

TEST_CASE("gguf tensors: big-endian blocks swap every multi-byte field", "[gguf_tensors]") {
  std::string qs(16, '\0');
  qs[0] = 0x21;
  // Q5_0 as ggml on a big-endian host stores it: d = 1 (0x3C00 high byte first), qh = 0x00010001.
  const auto v = dequant_of(kQ5_0, tensor_bytes_of({0x3C, 0x00, 0x00, 0x01, 0x00, 0x01}) + qs, 32, true);
  CHECK(v[0] == 1.0f);
  CHECK(v[16] == 2.0f);
  CHECK(dequant_of(kF16, tensor_bytes_of({0xC0, 0x00}), 1, true)[0] == -2.0f);
  CHECK(dequant_of(kF32, tensor_bytes_of({0x3F, 0x80, 0, 0}), 1, true)[0] == 1.0f);
}

TEST_CASE("gguf tensors: shape in PyTorch order, from memory and from the file", "[gguf_tensors]") {
  // A Q8_0 matrix of ggml ne = {64, 3}: 3 rows of 2 blocks; block k of row r has d = 1, q = r*2+k.
  std::string data;
  for (int r = 0; r < 3; ++r)
    for (int k = 0; k < 2; ++k) data += le16_of(0x3C00) + std::string(32, static_cast<char>(r * 2 + k));
  GgufWriter w;
  w.str("general.architecture", "llama").tensor_f32("freqs", {1.0f, 0.5f, 0.25f}).tensor("m", {64, 3}, kQ8_0, data);
  const std::string bytes = w.bytes();
  const auto f = parse_gguf(bytes, "m.gguf");
  const auto t = gguf_tensor_from_bytes(f, f.tensors[1], bytes);
  CHECK(t.dtype == "Q8_0");
  CHECK(t.shape == std::vector<std::size_t>{3, 64});
  REQUIRE(t.values.size() == 192);
  CHECK(t.values[0] == 0.0f);
  CHECK(t.values[32] == 1.0f);
  CHECK(t.values[64] == 2.0f);
  CHECK(t.values[191] == 5.0f);
  const auto a = gguf_tensor_from_bytes(f, f.tensors[0], bytes);
  CHECK(a.shape == std::vector<std::size_t>{3});
  CHECK(a.values == std::vector<float>{1.0f, 0.5f, 0.25f});
  // The same through pread of the file.
  GgufTensorTempDir dir;
  const auto path = (dir.path / "m.gguf").string();
  std::ofstream(path, std::ios::binary) << bytes;
  auto g = posenc::formats::read_gguf(path);
  CHECK(read_gguf_tensor(g, g.tensors[1]).values == t.values);
  CHECK(read_gguf_tensor(g, g.tensors[0]).values == a.values);
  // The file shrinks after its header was read: one line, no crash.
  std::filesystem::resize_file(path, bytes.size() - 10);
  CHECK_THROWS_WITH(read_gguf_tensor(g, g.tensors[1]), Contains("tensor 'm': cannot read: the file is now"));
}

TEST_CASE("gguf tensors: a tensor of many chunks is decoded whole", "[gguf_tensors]") {
  // 60,000 Q4_0 blocks (1,080,000 bytes: two reads of 1 MiB at most, 1,920,000 values, many decode
  // buffers); code j of
  // block b is (b + j) % 16, d = 1: value (code - 8).
  std::string data;
  for (int b = 0; b < 60000; ++b) {
    data += le16_of(0x3C00);
    for (int j = 0; j < 16; ++j) data += static_cast<char>(((b + j) % 16) | (((b + j + 3) % 16) << 4));
  }
  const std::string bytes = GgufWriter().tensor("big", {1280, 1500}, kQ4_0, data).bytes();
  const auto f = parse_gguf(bytes);
  const auto t = gguf_tensor_from_bytes(f, f.tensors[0], bytes);
  REQUIRE(t.values.size() == 1920000);
  bool ok = true;
  for (std::size_t b = 0; b < 60000 && ok; ++b)
    for (std::size_t j = 0; j < 16; ++j) {
      ok = ok && t.values[32 * b + j] == static_cast<float>(static_cast<int>((b + j) % 16) - 8);
      ok = ok && t.values[32 * b + j + 16] == static_cast<float>(static_cast<int>((b + j + 3) % 16) - 8);
    }
  CHECK(ok);
}

TEST_CASE("gguf tensors: the tiny llama of ../shared, every tensor", "[gguf_tensors]") {
  const std::string path = posenc::test::shared_gguf("ollama/llama-2-tiny-random.gguf");
  if (path.empty()) {
    WARN("../shared/data/gguf is absent: skipped");
    return;
  }
  const auto f = posenc::formats::read_gguf(path);
  REQUIRE(f.tensors.size() == 12);  // README: 12 tensors, F16/F32
  std::ifstream in(path, std::ios::binary);
  for (const auto& info : f.tensors) {
    INFO(info.name);
    const auto t = read_gguf_tensor(f, info);
    std::size_t n = 1;
    for (auto d : t.shape) n *= d;
    CHECK(t.values.size() == n);
    CHECK(t.shape.front() == info.dims.back());
    // Each value against the raw bytes, converted here with ldexp (F16) or a bit copy (F32).
    std::string raw(static_cast<std::size_t>(info.bytes), '\0');
    in.seekg(static_cast<std::streamoff>(f.data_offset + info.offset));
    in.read(raw.data(), static_cast<std::streamsize>(raw.size()));
    REQUIRE((info.type == kF16 || info.type == kF32));
    bool same = true;
    for (std::size_t i = 0; i < n && same; ++i) {
      float want = 0;
      if (info.type == kF32) {
        std::uint32_t u = 0;
        for (int k = 0; k < 4; ++k) u |= static_cast<std::uint32_t>(static_cast<unsigned char>(raw[4 * i + k])) << (8 * k);
        want = std::bit_cast<float>(u);
      } else {
        const auto h = static_cast<unsigned>(static_cast<unsigned char>(raw[2 * i]) |
                                             (static_cast<unsigned char>(raw[2 * i + 1]) << 8));
        const int e = static_cast<int>((h >> 10) & 31), m = static_cast<int>(h & 1023);
        same = e != 31;  // random weights: finite
        want = e == 0 ? std::ldexp(static_cast<float>(m), -24) : std::ldexp(static_cast<float>(m + 1024), e - 25);
        if (h & 0x8000) want = -want;
      }
      same = same && float_bits_of(t.values[i]) == float_bits_of(want);
    }
    CHECK(same);
  }
}

TEST_CASE("gguf tensors: hostile files, one line naming the file, the tensor and the byte", "[gguf_tensors]") {
  const std::string a32(32 * 4, '\0');
  // Data past the end of the file.
  // Header 24 bytes; the info record of a one-letter name at byte 24: its dimensions at 33, its type
  // at 45; data from byte 64 (the writer pads the data to 32 bytes: 64 here).
  CHECK_THAT(tensor_error_of(GgufWriter().tensor("w", {64}, kQ8_0, std::string(34, '\0')).bytes()),
             Contains("t.gguf: byte 24: tensor 'w' data (bytes 64 + 0 + 68) runs past the end of the file (128 bytes)"));
  // Out of order: 'b' stored before 'a' although listed after it; and overlapping.
  for (std::uint64_t b_offset : {0u, 96u}) {
    GgufWriter w;
    w.tensor("a", {32}, kF32, a32).tensor("b", {32}, kF32, a32);
    std::string bytes = w.bytes();
    const auto at = bytes.find(std::string("b") + '\1');
    REQUIRE(at != std::string::npos);
    bytes.replace(at + 1 + 4 + 8 + 4, 8, w.bytes_of(b_offset, 8));  // b: offset 128 -> 0 or 96
    bytes.replace(at - 8 - 8, 8, w.bytes_of(b_offset == 0 ? 128 : 0, 8));  // a: offset 0 -> 128 (swapped) or kept
    CHECK_THAT(tensor_error_of(bytes), Contains("t.gguf: byte "));
    CHECK_THAT(tensor_error_of(bytes), Contains("tensor 'b' data (offset " + std::to_string(b_offset) +
                                                ", 128 bytes) starts before the end of tensor 'a'"));
  }
  // An unknown type, a type posenc does not dequantise, a row that is not whole blocks, overflow.
  CHECK_THAT(tensor_error_of(GgufWriter().tensor("u", {32}, 31, std::string(18, '\0')).bytes()),
             Contains("t.gguf: byte 45: tensor 'u' has ggml type 31, which ggml does not define"));
  CHECK_THAT(tensor_error_of(GgufWriter().tensor("q", {256}, kQ2_K, std::string(84, '\0')).bytes()),
             Contains("t.gguf: byte 24: tensor 'q' has type Q2_K, which posenc does not dequantise"));
  CHECK_THAT(tensor_error_of(GgufWriter().tensor("r", {48, 2}, kQ4_0, std::string(54, '\0')).bytes()),
             Contains("t.gguf: byte 33: tensor 'r' of type Q4_0: ne[0] = 48 is not a multiple of the block size 32"));
  CHECK_THAT(tensor_error_of(GgufWriter().tensor("o", {1ull << 40, 1ull << 40}, kQ4_K, "").bytes()),
             Contains("t.gguf: byte 33: tensor 'o' element count overflows int64"));
  CHECK_THAT(tensor_error_of(GgufWriter().tensor("s", {1ull << 62}, kF32, "").bytes()),
             Contains("t.gguf: byte 33: tensor 's' byte size overflows"));
}

TEST_CASE("gguf tensors: the rules hold for a header changed after it was read", "[gguf_tensors]") {
  const std::string a32(32 * 4, '\0');
  const std::string bytes = GgufWriter().tensor("a", {32}, kF32, a32).tensor("b", {32}, kF32, a32).bytes();
  const auto good = parse_gguf(bytes, "h.gguf");
  const auto error_of = [&](auto change, std::size_t index) {
    auto f = good;
    change(f.tensors[index]);
    try {
      gguf_tensor_from_bytes(f, f.tensors[index], bytes);
    } catch (const posenc::Error& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  const std::string b_at = "h.gguf: byte " + std::to_string(good.tensors[1].record_offset) + ": tensor 'b' ";
  CHECK(error_of([](auto& t) { t.offset = 0; }, 1) ==
        b_at + "data (offset 0, 128 bytes) starts before the end of tensor 'a' (offset 0, 128 bytes), listed before it: "
               "tensor data must follow the order of the tensor infos without overlapping");
  CHECK_THAT(error_of([](auto& t) { t.offset = 1ull << 62; }, 1), Contains(b_at + "data (bytes"));
  CHECK_THAT(error_of([](auto& t) { t.type = 5; }, 1), Contains(b_at + "has ggml type 5, which ggml does not define"));
  CHECK_THAT(error_of([](auto& t) { t.type = 11; }, 1), Contains(b_at + "has type Q3_K"));
  CHECK_THAT(error_of([](auto& t) { t.type = kQ8_0, t.dims = {31}; }, 1), Contains("ne[0] = 31 is not a multiple"));
  CHECK_THAT(error_of([](auto& t) { t.dims = {1ull << 62, 1ull << 62}; }, 1), Contains("element count overflows int64"));
  CHECK(error_of([](auto& t) { t.dims = {1ull << 62}; }, 1) == b_at + "byte size overflows");
  CHECK(error_of([](auto&) {}, 1) == "(no error)");
  // The block decoder's own entry point: whole blocks only, supported types only.
  CHECK_THROWS_WITH(dequantize_ggml(kQ8_0, std::string(33, '\0'), std::span<float>()), Contains("Q8_0 data of 33 bytes"));
  CHECK_THROWS_WITH(dequantize_ggml(kQ2_K, std::string(84, '\0'), std::span<float>()), Contains("Q2_K is not dequantised"));
}
