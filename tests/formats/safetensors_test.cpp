// The safetensors reader: files written here by a tiny writer that follows the format (8 bytes
// little-endian header length, the JSON header, the data section; huggingface/safetensors
// README "Format"), every dtype decode against values worked out by hand from the bit layouts
// (IEEE 754 binary16; bfloat16 = the high half of binary32; OCP 8-bit FP spec / arXiv
// 2209.05433 for E4M3 (the FN variant) and E5M2), and one hostile file per rule of
// shared/reference/weights.md §1.9, each refused with one line naming the file, the byte and the
// tensor.
#include "posenc/formats/safetensors.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <tuple>
#include <nlohmann/json.hpp>

#include "cli/cli_helpers.hpp"
#include "posenc/error.hpp"
#include "posenc/formats/output.hpp"
#include "posenc/formats/tensor_table.hpp"
#include "posenc/formats/writers.hpp"

namespace st = posenc::formats;
using Catch::Contains;

namespace {

struct StEntry {
  std::string name, dtype;
  std::vector<long long> shape;
  std::string data;
  std::vector<long long> offsets = {};  ///< explicit data_offsets; empty = where the data goes
};

/// A safetensors file from its parts: the header compact, as json.dumps(separators=(",", ":")).
struct StWriter {
  std::vector<StEntry> entries;
  nlohmann::ordered_json metadata;  ///< null = no __metadata__
  std::string extra_data;           ///< bytes after the tensors' data
  std::string pad;                  ///< after the JSON (spaces, or NULs for a hostile file)
  std::string header_override;      ///< the header text itself, when not empty

  std::string header() const {
    if (!header_override.empty()) return header_override;
    nlohmann::ordered_json h = nlohmann::ordered_json::object();
    if (!metadata.is_null()) h["__metadata__"] = metadata;
    long long pos = 0;
    for (const auto& e : entries) {
      const long long size = static_cast<long long>(e.data.size());
      h[e.name] = {{"dtype", e.dtype}, {"shape", e.shape},
                   {"data_offsets", e.offsets.empty() ? std::vector<long long>{pos, pos + size} : e.offsets}};
      pos += size;
    }
    return h.dump() + pad;
  }
  std::string bytes() const {
    const std::string h = header();
    std::string out(8, '\0');
    std::uint64_t n = h.size();
    for (int i = 0; i < 8; ++i) out[static_cast<std::size_t>(i)] = static_cast<char>((n >> (8 * i)) & 0xFF);
    out += h;
    for (const auto& e : entries) out += e.data;
    return out + extra_data;
  }
};

template <class T>
std::string le(std::initializer_list<T> values) {
  std::string out;
  for (const T v : values) {
    char b[sizeof(T)];
    std::memcpy(b, &v, sizeof(T));  // the test machine is little-endian (x86-64)
    out.append(b, sizeof(T));
  }
  return out;
}

std::string u16s(std::initializer_list<std::uint16_t> v) { return le<std::uint16_t>(v); }

/// The message of the Error that parsing `bytes` throws, "(no error)" if none.
std::string st_error(const std::string& bytes) {
  try {
    st::parse_safetensors(bytes, "bad.safetensors");
  } catch (const posenc::Error& e) {
    return e.what();
  }
  return "(no error)";
}

std::string st_error(const StWriter& w) { return st_error(w.bytes()); }

/// A fresh folder under the system's temporary folder.
std::filesystem::path st_temp_dir(const std::string& tag) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("posenc_st_" + tag + "_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

void st_write(const std::filesystem::path& p, const std::string& bytes) {
  std::ofstream f(p, std::ios::binary);
  f << bytes;
}

StWriter table_2x3() {
  StWriter w;
  w.metadata = {{"format", "pt"}};
  w.entries.push_back({"wpe.weight", "F32", {2, 3}, le<float>({0.f, 1.f, 2.f, 3.f, 4.f, 5.f})});
  w.entries.push_back({"ln.bias", "F16", {3}, u16s({0x3C00, 0xC000, 0x3800})});  // 1, -2, 0.5
  return w;
}

/// table_2x3 and "cube", 2 x 2 x 3 F32 of value 100 i + 10 j + k.
StWriter table_2x3_and_cube() {
  StWriter w = table_2x3();
  std::string cube;
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      for (int k = 0; k < 3; ++k) cube += le<float>({static_cast<float>(100 * i + 10 * j + k)});
  w.entries.push_back({"cube", "F32", {2, 2, 3}, cube});
  return w;
}

}  // namespace

TEST_CASE("safetensors: a valid file lists its tensors, metadata and values", "[safetensors]") {
  const StWriter w = table_2x3();
  const std::string bytes = w.bytes();
  const st::StFile f = st::parse_safetensors(bytes, "m.safetensors");
  REQUIRE(f.tensors.size() == 2);
  CHECK(f.header_size == w.header().size());
  CHECK(f.data_offset == 8 + w.header().size());
  CHECK(f.metadata == std::vector<std::pair<std::string, std::string>>{{"format", "pt"}});
  CHECK(f.tensors[0].name == "wpe.weight");
  CHECK(f.tensors[0].shape == std::vector<std::uint64_t>{2, 3});
  CHECK(f.tensors[0].bytes() == 24);
  CHECK(f.tensors[1].dtype == st::StDtype::kF16);
  CHECK(f.tensors[1].begin == 24);
  CHECK(st::tensor_from_bytes(f, f.tensors[0], bytes) == std::vector<double>{0, 1, 2, 3, 4, 5});
  CHECK(st::tensor_from_bytes(f, f.tensors[1], bytes) == std::vector<double>{1, -2, 0.5});

  // The same from a file on disk, read with pread.
  const auto dir = st_temp_dir("valid");
  st_write(dir / "m.safetensors", bytes);
  const st::StCheckpoint c = st::open_safetensors((dir / "m.safetensors").string());
  REQUIRE(c.find("ln.bias") != nullptr);
  CHECK(st::read_tensor(c, *c.find("ln.bias")) == std::vector<double>{1, -2, 0.5});
  CHECK(st::read_tensor_f32(c, *c.find("wpe.weight")) == std::vector<float>{0, 1, 2, 3, 4, 5});
  // A folder holding one file reads it.
  CHECK(st::open_safetensors(dir.string()).tensors.size() == 2);
  std::filesystem::remove_all(dir);
}

TEST_CASE("safetensors: the empty file of the reference tests, padding, scalars, zero-size tensors", "[safetensors]") {
  // test_empty: 08 00 .. 7B 7D + 6 spaces.
  const std::string empty = std::string("\x08\0\0\0\0\0\0\0", 8) + "{}      ";
  CHECK(st::parse_safetensors(empty).tensors.empty());
  StWriter w = table_2x3();
  w.pad = "    \n\t";  // trailing JSON whitespace (PR #686)
  CHECK(st::parse_safetensors(w.bytes()).tensors.size() == 2);
  w.header_override = "  " + table_2x3().header();  // leading whitespace
  CHECK(st::parse_safetensors(w.bytes()).tensors.size() == 2);
  StWriter s;
  s.entries.push_back({"scalar", "F64", {}, le<double>({2.5})});
  s.entries.push_back({"none", "F32", {0, 7}, ""});
  const std::string b = s.bytes();
  const auto f = st::parse_safetensors(b);
  CHECK(f.tensors[0].elements == 1);
  CHECK(st::tensor_from_bytes(f, f.tensors[0], b) == std::vector<double>{2.5});
  CHECK(f.tensors[1].elements == 0);
  CHECK(f.tensors[1].begin == 8);
  CHECK(f.tensors[1].end == 8);
}

TEST_CASE("safetensors: a header as writers write it and one the general reader takes give the same file",
          "[safetensors]") {
  // The fast path (plain ASCII strings, integers) and the general reader (here: the same header
  // with one metadata value written as a JSON escape, "\u0041" for "A", placed last so that every
  // key keeps its byte) must agree: names, dtypes, shapes, offsets, the key's byte, metadata.
  const std::string data = le<float>({1.f, 2.f, 3.f, 4.f, 5.f, 6.f}) + u16s({0x3C00, 0xC000});
  const std::string entries =
      "{ \"b.weight\" : {\"data_offsets\":[0,24], \"shape\" : [ 2 , 3 ], \"dtype\":\"F32\"},\n"
      "\t\"a.bias\":{\"dtype\":\"BF16\",\"shape\":[2],\"data_offsets\":[24,28]},\r\n\"__metadata__\":{\"format\":\"pt\",\"k\":";
  for (const std::string& value : {std::string("\"A\"}}"), std::string("\"\\u0041\"}}")}) {
    StWriter w;
    w.header_override = entries + value + "  ";
    w.extra_data = data;
    const st::StFile f = st::parse_safetensors(w.bytes(), "m.safetensors");
    INFO(value);
    REQUIRE(f.tensors.size() == 2);
    CHECK(f.tensors[0].name == "b.weight");
    CHECK(f.tensors[0].dtype == st::StDtype::kF32);
    CHECK(f.tensors[0].shape == std::vector<std::uint64_t>{2, 3});
    CHECK(f.tensors[0].elements == 6);
    CHECK((f.tensors[0].begin == 0 && f.tensors[0].end == 24));
    CHECK(f.tensors[0].header_byte == 8 + entries.find("\"b.weight\""));
    CHECK(f.tensors[1].name == "a.bias");
    CHECK(f.tensors[1].dtype == st::StDtype::kBF16);
    CHECK(f.tensors[1].shape == std::vector<std::uint64_t>{2});
    CHECK((f.tensors[1].begin == 24 && f.tensors[1].end == 28));
    CHECK(f.tensors[1].header_byte == 8 + entries.find("\"a.bias\""));
    CHECK(f.metadata == std::vector<std::pair<std::string, std::string>>{{"format", "pt"}, {"k", "A"}});
  }
  // What the fast path leaves to the general reader is refused in the general reader's words:
  // a leading zero, a number with an exponent, a field twice, a name with a path separator.
  const std::string good = "{\"t\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0,4]}}";
  for (const auto& [from, to, message] : std::vector<std::tuple<std::string, std::string, std::string>>{
           {"[1]", "[01]", "not valid JSON"},
           {"[1]", "[1e0]", "shape must hold non-negative integers"},
           {"\"shape\":[1]", "\"shape\":[1],\"shape\":[1]", "gives the field 'shape' twice"},
           {"\"t\"", "\"a/t\"", "path separator"}}) {
    StWriter w;
    w.header_override = good;
    w.header_override.replace(good.find(from), from.size(), to);
    w.extra_data = le<float>({1.f});
    CHECK_THAT(st_error(w), Contains(message) && Contains("bad.safetensors"));
  }
}

TEST_CASE("safetensors: dtype decodes against hand-worked bit patterns", "[safetensors]") {
  // bfloat16: 0x3F80 -> float32 0x3F800000 = 1.0; 0xC0A0 -> 0xC0A00000 = -5.0;
  // 0x0001 -> float32 0x00010000, a subnormal: mantissa 2^16 * 2^-149 = 2^-133.
  CHECK(st::bf16_value(0x3F80) == 1.0);
  CHECK(st::bf16_value(0xC0A0) == -5.0);
  CHECK(st::bf16_value(0x0001) == 9.183549615799121e-41);  // 2^-133
  CHECK(std::isinf(st::bf16_value(0xFF80)));
  CHECK(st::bf16_value(0xFF80) < 0);
  CHECK(std::isnan(st::bf16_value(0x7FC0)));
  // binary16: 0x3C00 = 1; 0x0001 = 2^-24 = 5.960464477539063e-08 (smallest subnormal);
  // 0x03FF = 1023 * 2^-24 = 6.097555160522461e-05 (largest subnormal); 0x0400 = 2^-14
  // = 6.103515625e-05 (smallest normal); 0x7BFF = 65504 (largest); 0x3555 = 0.333251953125
  // (1 + 0x155/1024) * 2^-2; 0x8000 = -0.
  CHECK(st::f16_value(0x3C00) == 1.0);
  CHECK(st::f16_value(0x0001) == 5.960464477539063e-08);
  CHECK(st::f16_value(0x03FF) == 6.097555160522461e-05);
  CHECK(st::f16_value(0x0400) == 6.103515625e-05);
  CHECK(st::f16_value(0x7BFF) == 65504.0);
  CHECK(st::f16_value(0x3555) == 0.333251953125);
  CHECK(st::f16_value(0x8000) == 0.0);
  CHECK(std::signbit(st::f16_value(0x8000)));
  CHECK(st::f16_value(0x7C00) == HUGE_VAL);
  CHECK(st::f16_value(0xFC00) == -HUGE_VAL);
  CHECK(std::isnan(st::f16_value(0x7E00)));
  // float8_e4m3fn: S EEEE MMM, bias 7. 0x7E = 0 1111 110 = 1.75 * 2^8 = 448 (largest);
  // 0x38 = 0 0111 000 = 1; 0x01 = 1/8 * 2^-6 = 2^-9 = 0.001953125 (smallest subnormal);
  // 0x07 = 7/8 * 2^-6 = 0.013671875; 0x08 = 2^-6 = 0.015625; 0xB4 = 1 0110 100 = -1.5 * 2^-1
  // = -0.75; 0x7F and 0xFF = NaN (no infinities); 0xFE = -448.
  CHECK(st::f8_e4m3_value(0x7E) == 448.0);
  CHECK(st::f8_e4m3_value(0x38) == 1.0);
  CHECK(st::f8_e4m3_value(0x01) == 0.001953125);
  CHECK(st::f8_e4m3_value(0x07) == 0.013671875);
  CHECK(st::f8_e4m3_value(0x08) == 0.015625);
  CHECK(st::f8_e4m3_value(0xB4) == -0.75);
  CHECK(st::f8_e4m3_value(0xFE) == -448.0);
  CHECK(std::isnan(st::f8_e4m3_value(0x7F)));
  CHECK(std::isnan(st::f8_e4m3_value(0xFF)));
  CHECK(st::f8_e4m3_value(0x78) == 256.0);  // 0 1111 000: a normal value in the FN variant, not inf
  // float8_e5m2: S EEEEE MM, bias 15. 0x7B = 0 11110 11 = 1.75 * 2^15 = 57344 (largest);
  // 0x3C = 1; 0x01 = 1/4 * 2^-14 = 2^-16 = 1.52587890625e-05; 0x03 = 3/4 * 2^-14 =
  // 4.57763671875e-05; 0x7C = inf; 0xFC = -inf; 0x7D/0x7E/0x7F = NaN; 0xC2 = 1 10000 10 = -3.
  CHECK(st::f8_e5m2_value(0x7B) == 57344.0);
  CHECK(st::f8_e5m2_value(0x3C) == 1.0);
  CHECK(st::f8_e5m2_value(0x01) == 1.52587890625e-05);
  CHECK(st::f8_e5m2_value(0x03) == 4.57763671875e-05);
  CHECK(st::f8_e5m2_value(0x7C) == HUGE_VAL);
  CHECK(st::f8_e5m2_value(0xFC) == -HUGE_VAL);
  CHECK(std::isnan(st::f8_e5m2_value(0x7D)));
  CHECK(std::isnan(st::f8_e5m2_value(0x7F)));
  CHECK(st::f8_e5m2_value(0xC2) == -3.0);

  // Integers, little-endian two's complement; BOOL is 0 or 1; every dtype through a file.
  StWriter w;
  w.entries.push_back({"i8", "I8", {3}, std::string("\xFF\x7F\x80", 3)});                  // -1, 127, -128
  w.entries.push_back({"u8", "U8", {2}, std::string("\xFF\x00", 2)});                      // 255, 0
  w.entries.push_back({"i16", "I16", {2}, std::string("\xFE\xFF\x00\x80", 4)});            // -2, -32768
  w.entries.push_back({"u16", "U16", {1}, std::string("\xFF\xFF", 2)});                    // 65535
  w.entries.push_back({"i32", "I32", {1}, std::string("\x00\x00\x00\x80", 4)});            // -2^31
  w.entries.push_back({"u32", "U32", {1}, std::string("\xFF\xFF\xFF\xFF", 4)});            // 2^32 - 1
  w.entries.push_back({"i64", "I64", {1}, std::string(8, '\xFF')});                        // -1
  w.entries.push_back({"u64", "U64", {1}, std::string("\0\0\0\0\0\0\0\x80", 8)});          // 2^63
  w.entries.push_back({"b", "BOOL", {3}, std::string("\x00\x01\x02", 3)});                 // 0, 1, 1
  w.entries.push_back({"f64", "F64", {1}, std::string("\0\0\0\0\0\0\xF8\x3F", 8)});        // 1.5
  w.entries.push_back({"f32", "F32", {1}, std::string("\x00\x00\x80\xBF", 4)});            // -1
  w.entries.push_back({"bf16", "BF16", {1}, std::string("\x80\x3F", 2)});                  // 1
  w.entries.push_back({"e4m3", "F8_E4M3", {2}, std::string("\x7E\xFE", 2)});              // 448, -448
  w.entries.push_back({"e5m2", "F8_E5M2", {2}, std::string("\x7B\x01", 2)});              // 57344, 2^-16
  const std::string b = w.bytes();
  const auto f = st::parse_safetensors(b);
  const auto v = [&](std::size_t i) { return st::tensor_from_bytes(f, f.tensors[i], b); };
  CHECK(v(0) == std::vector<double>{-1, 127, -128});
  CHECK(v(1) == std::vector<double>{255, 0});
  CHECK(v(2) == std::vector<double>{-2, -32768});
  CHECK(v(3) == std::vector<double>{65535});
  CHECK(v(4) == std::vector<double>{-2147483648.0});
  CHECK(v(5) == std::vector<double>{4294967295.0});
  CHECK(v(6) == std::vector<double>{-1});
  CHECK(v(7) == std::vector<double>{9223372036854775808.0});
  CHECK(v(8) == std::vector<double>{0, 1, 1});
  CHECK(v(9) == std::vector<double>{1.5});
  CHECK(v(10) == std::vector<double>{-1});
  CHECK(v(11) == std::vector<double>{1});
  CHECK(v(12) == std::vector<double>{448, -448});
  CHECK(v(13) == std::vector<double>{57344, 1.52587890625e-05});
  // float32 output: the same values (all exactly representable).
  std::vector<float> out(2);
  st::decode_elements(st::StDtype::kF8E5M2, std::string_view("\x7B\x01", 2), std::span<float>(out));
  CHECK(out == std::vector<float>{57344.f, 1.52587890625e-05f});
}

TEST_CASE("safetensors: listed dtypes posenc does not decode are refused when read", "[safetensors]") {
  StWriter w;
  w.entries.push_back({"scales", "F8_E8M0", {2}, "\x7F\x80"});
  w.entries.push_back({"packed", "F4", {4}, "\x12\x34"});  // 4 elements of 4 bits: 2 bytes
  const std::string b = w.bytes();
  const auto f = st::parse_safetensors(b);  // listed: known dtypes
  CHECK(f.tensors[1].bytes() == 2);
  CHECK_THROWS_WITH(st::tensor_from_bytes(f, f.tensors[0], b), Contains("dtype F8_E8M0 is not read"));
  StWriter odd;
  odd.entries.push_back({"packed", "F4", {3}, "\x12\x34"});  // 12 bits: not whole bytes
  CHECK_THAT(st_error(odd), Contains("tensor 'packed'") && Contains("do not fill whole bytes"));
}

TEST_CASE("safetensors: a hostile file per rule, each refused in one line naming file, byte and tensor",
          "[safetensors]") {
  const auto one_line_msg = [](const std::string& m) { return m.find('\n') == std::string::npos && m != "(no error)"; };
  // File shorter than the length field.
  CHECK_THAT(st_error(std::string("\x02\0\0", 3)), Contains("'bad.safetensors': byte 0: the file holds 3 bytes"));
  // Huge header length (u64 max): refused before any allocation.
  CHECK_THAT(st_error(std::string(8, '\xFF') + "{}"),
             Contains("byte 0: header length 18446744073709551615 is more than the 100000000 bytes allowed"));
  // Header past the end.
  CHECK_THAT(st_error(std::string("\x40\0\0\0\0\0\0\0{}", 10)),
             Contains("byte 0: header length 64 runs past the end of the file (2 bytes after the length)"));
  // Not JSON; NUL padding (strict readers reject it too); not an object.
  CHECK_THAT(st_error(std::string("\x03\0\0\0\0\0\0\0{a}", 11)), Contains("byte 9: the header is not valid JSON"));
  StWriter nul = table_2x3();
  nul.pad = std::string(3, '\0');
  // nlohmann reads NUL as the end of the input: without its own check the padding (or anything
  // after a NUL) would pass.
  CHECK_THAT(st_error(nul), Contains(fmt::format("byte {}: the header holds a NUL byte", 8 + table_2x3().header().size())));
  CHECK_THAT(st_error(std::string("\x02\0\0\0\0\0\0\0[]", 10)), Contains("byte 8: the header must be a JSON object"));
  // A number beyond double's range (found by fuzz_safetensors: nlohmann throws out_of_range, not parse_error).
  CHECK_THAT(st_error(std::string("\x0B\0\0\0\0\0\0\0{\"a\":4e622}", 19)), Contains("byte 8: the header is not valid JSON"));
  CHECK_THROWS_WITH(st::parse_safetensors_index("[1e999]", "i.json"), Contains("the index is not valid JSON"));
  // Nesting deeper than a header needs.
  CHECK_THAT(st_error(std::string("\x0C\0\0\0\0\0\0\0{\"a\":[[[]]]}", 20)),
             Contains("byte 15: the header nests JSON deeper"));

  StWriter w = table_2x3();
  // Duplicate names: the second 'a' at header byte 53 of this text (file byte 61).
  w.header_override = R"({"a":{"dtype":"U8","shape":[1],"data_offsets":[0,1]},"a":{"dtype":"U8","shape":[1],"data_offsets":[1,2]}})";
  w.entries.clear();
  w.extra_data = "\x01\x02";
  const std::string dup = st_error(w);
  CHECK_THAT(dup, Contains("'bad.safetensors': byte 61: tensor 'a': the name appears twice"));
  CHECK(one_line_msg(dup));

  // __metadata__ with a value that is not a string.
  StWriter m = table_2x3();
  m.metadata = {{"format", "pt"}, {"epoch", 3}};
  CHECK_THAT(st_error(m), Contains("byte 9: __metadata__ 'epoch': values must be strings (got 3)"));

  // The first tensor key is at header byte 1: file byte 9.
  const auto entry = [](std::string dtype, std::vector<long long> shape, std::string data,
                        std::vector<long long> offsets = {}) {
    StWriter x;
    x.entries.push_back({"t.weight", std::move(dtype), std::move(shape), std::move(data), std::move(offsets)});
    return x;
  };
  CHECK_THAT(st_error(entry("F12", {1}, "ab")), Contains("byte 9: tensor 't.weight': unknown dtype 'F12'"));
  CHECK_THAT(st_error(entry("F32", {-1}, "")), Contains("byte 9: tensor 't.weight': shape must hold non-negative integers (got -1)"));
  StWriter frac = entry("F32", {1}, "abcd");
  frac.header_override = R"({"t.weight":{"dtype":"F32","shape":[1.0],"data_offsets":[0,4]}})";
  CHECK_THAT(st_error(frac), Contains("shape must hold non-negative integers (got 1.0)"));
  CHECK_THAT(st_error(entry("F32", {4294967296LL, 4294967296LL, 2}, "", {0, 0})),
             Contains("tensor 't.weight': the shape [4294967296,4294967296,2] holds more than 2^64 elements"));
  CHECK_THAT(st_error(entry("F32", {4611686018427387904LL}, "", {0, 0})),
             Contains("tensor 't.weight': 4611686018427387904 elements of 32 bits overflow 64 bits"));
  CHECK_THAT(st_error(entry("F32", {2, 2}, std::string(12, 'x'))),
             Contains("byte 9: tensor 't.weight': data_offsets [0, 12] hold 12 bytes, but F32 [2,2] needs 16"));
  CHECK_THAT(st_error(entry("U8", {0}, "", {4, 0})), Contains("data_offsets [4, 0] end before they begin"));
  CHECK_THAT(st_error(entry("U8", {2}, "ab", {0, -2})), Contains("data_offsets must hold non-negative integers"));
  // Past the end (truncated data).
  StWriter cut = entry("U8", {4}, "ab", {0, 4});
  CHECK_THAT(st_error(cut), Contains("tensor 't.weight': data_offsets [0, 4] run past the end of the file (2 bytes"));

  // Offsets: overlap, gap, trailing bytes. Data section at file byte 8 + N.
  StWriter ov;
  ov.entries.push_back({"a", "U8", {4}, "abcd", {0, 4}});
  ov.entries.push_back({"b", "U8", {2}, "", {2, 4}});
  const std::size_t n_ov = ov.header().size();
  CHECK_THAT(st_error(ov), Contains(fmt::format("byte {}: tensor 'b': data_offsets [2, 4] overlap tensor 'a'", 8 + n_ov + 2)));
  StWriter gap;
  gap.entries.push_back({"a", "U8", {2}, "ab", {0, 2}});
  gap.entries.push_back({"b", "U8", {2}, "cdef", {4, 6}});
  const std::size_t n_gap = gap.header().size();
  CHECK_THAT(st_error(gap), Contains(fmt::format("byte {}: tensor 'b': data_offsets [4, 6] leave a gap of 2 bytes after "
                                                 "tensor 'a'",
                                                 8 + n_gap + 2)));
  StWriter first_gap;
  first_gap.entries.push_back({"a", "U8", {2}, "xyab", {2, 4}});
  CHECK_THAT(st_error(first_gap), Contains("tensor 'a': data_offsets [2, 4] leave a gap of 2 bytes after the start"));
  StWriter trail = table_2x3();
  trail.extra_data = "PK";  // a polyglot's tail
  const std::size_t n_tr = trail.header().size();
  CHECK_THAT(st_error(trail), Contains(fmt::format("byte {}: 2 trailing bytes after the last tensor ('ln.bias')",
                                                   8 + n_tr + 30)));

  // Names: NUL, '/', '\'.
  StWriter nul_name;
  nul_name.entries.push_back({std::string("wpe\0.weight", 11), "U8", {1}, "a"});
  CHECK_THAT(st_error(nul_name), Contains("byte 9: tensor 'wpe\\x00.weight': the name holds a NUL byte"));
  StWriter slash;
  slash.entries.push_back({"../../etc/passwd", "U8", {1}, "a"});
  CHECK_THAT(st_error(slash), Contains("tensor '../../etc/passwd': the name holds a path separator"));
  StWriter back;
  back.entries.push_back({"a\\b", "U8", {1}, "a"});
  CHECK_THAT(st_error(back), Contains("tensor 'a\\b': the name holds a path separator"));
  // A field missing, a field twice.
  StWriter missing;
  missing.header_override = R"({"t":{"dtype":"U8","shape":[1]}})";
  CHECK_THAT(st_error(missing), Contains("byte 9: tensor 't': the entry has no \"data_offsets\""));
  StWriter twice;
  twice.header_override = R"({"t":{"dtype":"U8","dtype":"I8","shape":[1],"data_offsets":[0,1]}})";
  twice.extra_data = "a";
  CHECK_THAT(st_error(twice), Contains("tensor 't': its entry gives the field 'dtype' twice"));

  // PyTorch files: a zip, a pickle.
  CHECK_THAT(st_error(std::string("PK\x03\x04\x14\0\0\0\0\0", 10)), Contains("is a PyTorch checkpoint") && Contains("save_file"));
  CHECK_THAT(st_error(std::string("\x80\x02}q\0(X\x06\0\0\0", 12)), Contains("is a PyTorch checkpoint"));
}

TEST_CASE("safetensors: a sharded checkpoint through its index, and the index's rules", "[safetensors]") {
  const auto dir = st_temp_dir("shards");
  StWriter s1, s2;
  s1.entries.push_back({"a", "F32", {2}, le<float>({1.f, 2.f})});
  s2.entries.push_back({"b", "BF16", {1, 2}, u16s({0x4040, 0xBF80})});  // 3, -1
  st_write(dir / "model-00001-of-00002.safetensors", s1.bytes());
  st_write(dir / "model-00002-of-00002.safetensors", s2.bytes());
  const auto write_index = [&](const std::string& weight_map) {
    st_write(dir / "model.safetensors.index.json", R"({"metadata": {"total_size": 12}, "weight_map": )" + weight_map + "}");
  };
  write_index(R"({"a": "model-00001-of-00002.safetensors", "b": "model-00002-of-00002.safetensors"})");
  const st::StCheckpoint c = st::open_safetensors(dir.string());
  REQUIRE(c.tensors.size() == 2);
  CHECK(c.files.size() == 2);
  CHECK(c.index_metadata == std::vector<std::pair<std::string, std::string>>{{"total_size", "12"}});
  CHECK(c.find("b")->file == 1);
  CHECK(st::read_tensor(c, *c.find("b")) == std::vector<double>{3, -1});
  CHECK(st::open_safetensors((dir / "model.safetensors.index.json").string()).tensors.size() == 2);

  const auto index_error = [&](const std::string& weight_map) {
    write_index(weight_map);
    try {
      st::open_safetensors(dir.string());
    } catch (const posenc::Error& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  // The index text: {"metadata": {"total_size": 12}, "weight_map": {"a": ...: key "a" at byte 48.
  CHECK_THAT(index_error(R"({"a": "../model-00001-of-00002.safetensors", "b": "model-00002-of-00002.safetensors"})"),
             Contains("model.safetensors.index.json': byte 48: tensor 'a': shard '../model-00001-of-00002.safetensors' "
                      "is not a plain file name"));
  CHECK_THAT(index_error(R"({"a": "/etc/passwd", "b": "model-00002-of-00002.safetensors"})"),
             Contains("shard '/etc/passwd' is not a plain file name"));
  CHECK_THAT(index_error(R"({"a": "model-00001-of-00002.safetensors", "b": "model-00003-of-00003.safetensors"})"),
             Contains("byte 89: tensor 'b': shard 'model-00003-of-00003.safetensors' is missing"));
  CHECK_THAT(index_error(R"({"a": "model-00001-of-00002.safetensors", "a": "model-00002-of-00002.safetensors"})"),
             Contains("byte 89: tensor 'a': the name appears twice in the index"));
  CHECK_THAT(index_error(R"({"a": "model-00002-of-00002.safetensors", "b": "model-00002-of-00002.safetensors"})"),
             Contains("tensor 'a': the index puts it in 'model-00002-of-00002.safetensors', which does not hold it"));
  CHECK_THAT(index_error(R"({"a": "model-00001-of-00002.safetensors", "b": "model-00001-of-00002.safetensors"})"),
             Contains("tensor 'b': the index puts it in 'model-00001-of-00002.safetensors'"));
  // A shard holding a tensor the index leaves out.
  st_write(dir / "model-00001-of-00002.safetensors", [&] {
    StWriter x = s1;
    x.entries.push_back({"extra", "U8", {1}, "z"});
    return x.bytes();
  }());
  CHECK_THAT(index_error(R"({"a": "model-00001-of-00002.safetensors", "b": "model-00002-of-00002.safetensors"})"),
             Contains("tensor 'extra' is not in the index"));
  st_write(dir / "model-00001-of-00002.safetensors", s1.bytes());
  CHECK_THAT(index_error(R"({"a": "model-00001-of-00002.safetensors", "b": "model-00002-of-00002.safetensors", "c": "model-00002-of-00002.safetensors"})"),
             Contains("tensor 'c': the index puts it in 'model-00002-of-00002.safetensors', which does not hold it"));
  // A tensor in two shards.
  st_write(dir / "model-00002-of-00002.safetensors", [&] {
    StWriter x = s2;
    x.entries.push_back({"a", "F32", {2}, le<float>({1.f, 2.f})});
    return x.bytes();
  }());
  const std::string two = index_error(R"({"a": "model-00001-of-00002.safetensors", "b": "model-00002-of-00002.safetensors"})");
  CHECK_THAT(two, Contains("model-00002-of-00002.safetensors': byte ") && Contains("tensor 'a' is also in shard"));
  std::filesystem::remove_all(dir);
}

TEST_CASE("safetensors: folders and PyTorch checkpoints", "[safetensors]") {
  const auto dir = st_temp_dir("folders");
  st_write(dir / "pytorch_model.bin", std::string("PK\x03\x04", 4));
  CHECK_THROWS_WITH(st::open_safetensors(dir.string()), Contains("pytorch_model.bin' is a PyTorch checkpoint") &&
                                                            Contains("from safetensors.torch import save_file"));
  CHECK_THROWS_WITH(st::open_safetensors((dir / "pytorch_model.bin").string()), Contains("is a PyTorch checkpoint"));
  st_write(dir / "a.safetensors", table_2x3().bytes());
  st_write(dir / "b.safetensors", table_2x3().bytes());
  CHECK_THROWS_WITH(st::open_safetensors(dir.string()),
                    Contains("holds 2 .safetensors files and no index (a.safetensors or b.safetensors)"));
  std::filesystem::remove_all(dir);
}

TEST_CASE("safetensors: --input FILE:NAME reads a tensor as a table", "[safetensors]") {
  const auto dir = st_temp_dir("input");
  StWriter w = table_2x3_and_cube();
  const std::string file = (dir / "m.safetensors").string();
  st_write(file, w.bytes());
  const auto t = posenc::formats::read_input(file + ":wpe.weight");
  CHECK(t.values.rows() == 2);
  CHECK(t.values.cols() == 3);
  CHECK(t.values(1, 2) == 5.0);
  const auto col = posenc::formats::read_input(file + ":ln.bias");
  CHECK(col.values.rows() == 3);
  CHECK(col.values.cols() == 1);
  CHECK(col.values(1, 0) == -2.0);
  const auto slice = posenc::formats::read_input(file + ":cube[1]");
  CHECK(slice.values.rows() == 2);
  CHECK(slice.values(1, 2) == 112.0);
  CHECK(posenc::formats::read_input(file + ":cube[-1,0]").values(2, 0) == 102.0);
  posenc::formats::ReadOptions rows;
  rows.rows = "1:";
  CHECK(posenc::formats::read_input(dir.string() + ":wpe.weight", rows).values(0, 0) == 3.0);
  CHECK_THROWS_WITH(posenc::formats::read_input(file + ":cube"),
                    Contains("tensor 'cube' is 3-D [2, 2, 3], and posenc reads 2-D tables") &&
                        Contains(":cube[0]' (a [2, 3] table)"));
  CHECK_THROWS_WITH(posenc::formats::read_input(file + ":cube[2]"), Contains("index 2 is outside axis 0"));
  CHECK_THROWS_WITH(posenc::formats::read_input(file + ":wpe.weigth"),
                    Contains("no tensor 'wpe.weigth'") && Contains("did you mean 'wpe.weight'?"));
  CHECK_THROWS_WITH(posenc::formats::read_input(file), Contains("name the tensor to read"));
  // A file whose own name holds a ':' after a folder's name is read as that file.
  std::filesystem::create_directories(dir / "runs");
  st_write(dir / "runs:1.csv", "a,b\n1,2\n");
  CHECK(posenc::formats::read_input((dir / "runs").string() + ":1.csv").values(0, 1) == 2.0);
  CHECK(st::split_tensor_input((dir / "runs").string() + ":x") ==
        std::pair<std::string, std::string>{(dir / "runs").string(), "x"});

  // The command line: exit 2, one line naming the file and the tensor.
  const CliResult r = run_cli({"generate", "--input", file + ":cube", "-o", "-", "--format", "csv"});
  CHECK(r.code == 2);
  CHECK(one_line(r.err));
  const CliResult ok = run_cli({"generate", "--input", file + ":wpe.weight", "-o", "-", "--format", "csv"});
  CHECK(ok.code == 0);
  CHECK_THAT(ok.out, Contains("3,4,5"));
  std::filesystem::remove_all(dir);
}

TEST_CASE("safetensors: a tensor read as it is written (open_tensor_table)", "[safetensors]") {
  const auto dir = st_temp_dir("stream");
  StWriter w = table_2x3_and_cube();
  std::string big;  // 4096 x 8 F16, every value 1.5 (0x3E00)
  for (int i = 0; i < 4096 * 8; ++i) big += u16s({0x3E00});
  w.entries.push_back({"big", "F16", {4096, 8}, big});
  const std::string file = (dir / "m.safetensors").string();
  st_write(file, w.bytes());

  CHECK(posenc::formats::open_tensor_table(file, {}, nullptr) == nullptr);  // not FILE:NAME
  // The selection and --rows as read_input applies them: cube[1] rows 1: is the row 110, 111, 112.
  posenc::formats::ReadOptions rows;
  rows.rows = "1:";
  std::vector<std::string> notes;
  const auto t = posenc::formats::open_tensor_table(file + ":cube[1]", rows, &notes);
  REQUIRE(t != nullptr);
  CHECK(t->info().shape == std::vector<std::size_t>{1, 3});
  CHECK(t->info().first_position == 1);
  REQUIRE(notes.size() == 1);
  CHECK_THAT(notes[0], Contains("--rows 1:: rows 1 … 1 of"));
  std::vector<double> d(3);
  t->fill(0, 1, d);
  CHECK(d == std::vector<double>{110.0, 111.0, 112.0});
  const auto col = posenc::formats::open_tensor_table(file + ":ln.bias", {}, nullptr);
  std::vector<float> f(3);
  col->fill_f32(0, 3, f);
  CHECK(f == std::vector<float>{1.0f, -2.0f, 0.5f});  // binary16 0x3C00, 0xC000, 0x3800

  // The tensor's file shrinks while it is written: the run fails naming the byte, and the
  // existing output keeps its bytes (no partial file, no temporary left).
  const std::string out = (dir / "out.npy").string();
  st_write(out, "old");
  const auto streamed = posenc::formats::open_tensor_table(file + ":big", {}, nullptr);
  std::filesystem::resize_file(file, std::filesystem::file_size(file) - 4096);
  CHECK_THROWS_WITH(posenc::formats::write_atomically(
                        out, true,
                        [&](std::ostream& s) { posenc::formats::write_npy(*streamed, s, posenc::formats::DType::kFloat32); }),
                    Contains("m.safetensors': byte ") && Contains("the file shrank while it was read"));
  std::ifstream in(out, std::ios::binary);
  CHECK(std::string(std::istreambuf_iterator<char>(in), {}) == "old");
  CHECK(std::distance(std::filesystem::directory_iterator(dir), std::filesystem::directory_iterator()) == 2);
  std::filesystem::remove_all(dir);
}
