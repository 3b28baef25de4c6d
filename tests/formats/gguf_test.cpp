// The GGUF header reader: the real and independently generated files of ../shared/data/gguf
// (expected values from its README: the generator's inputs, the llama.cpp/ollama files' key
// lists as @huggingface/gguf and ggml read them), files built by the spec-written writer in
// gguf_writer.hpp, and hostile files, each refused with one message naming the byte.
#include "posenc/formats/gguf.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <fstream>
#include <sstream>

#include "gguf_writer.hpp"
#include "posenc/error.hpp"

using posenc::formats::GgufType;
using posenc::formats::parse_gguf;
using posenc::test::GgufWriter;
using posenc::test::shared_gguf;
using Catch::Contains;

namespace {

GgufWriter llama_like(std::uint32_t version = 3, bool big_endian = false) {
  GgufWriter w;
  w.version = version, w.big_endian = big_endian;  // before any record: they are encoded as added
  w.str("general.architecture", "llama").u32("llama.context_length", 8192).u32("llama.embedding_length", 4096);
  w.u32("llama.attention.head_count", 32).f32("llama.rope.freq_base", 500000.0f);
  return w;
}

std::string gguf_error_of(const std::string& bytes) {
  try {
    parse_gguf(bytes, "x.gguf");
  } catch (const posenc::Error& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

TEST_CASE("gguf: llama3-rope-freqs.gguf (generated, README values)", "[gguf]") {
  for (const char* name : {"generated/llama3-rope-freqs.gguf", "generated/llama3-rope-freqs-be.gguf"}) {
    const std::string path = shared_gguf(name);
    if (path.empty()) { WARN("../shared/data/gguf is absent: skipped"); return; }
    INFO(name);
    const auto f = posenc::formats::read_gguf(path);
    CHECK(f.version == 3);
    CHECK(f.big_endian == (std::string(name).find("-be") != std::string::npos));
    CHECK(f.kvs.size() == 10);
    CHECK(f.file_size == 800);
    CHECK(f.alignment == 32);
    CHECK(f.data_offset == 544);  // tensor infos end at 515, padded to 32
    REQUIRE(f.find("llama.rope.freq_base") != nullptr);
    CHECK(f.find("llama.rope.freq_base")->value.type == GgufType::kF32);
    CHECK(f.find("llama.rope.freq_base")->value.number == 500000.0);
    CHECK(f.find("llama.context_length")->value.uinteger == 131072);
    CHECK(f.find("llama.attention.head_count_kv")->value.uinteger == 8);
    const auto* t = f.tensor("rope_freqs.weight");
    REQUIRE(t != nullptr);
    CHECK(t->dims == std::vector<std::uint64_t>{64});
    const auto v = posenc::formats::read_gguf_f32(f, *t);
    REQUIRE(v.size() == 64);
    for (int i = 0; i <= 28; ++i) CHECK(v[static_cast<std::size_t>(i)] == 1.0f);
    const float mid[] = {1.20748401f, 1.55341458f, 2.0263133f, 2.69453001f, 3.68425322f, 5.25732708f};
    for (int i = 29; i <= 34; ++i) CHECK(v[static_cast<std::size_t>(i)] == Approx(mid[i - 29]).epsilon(1e-7));
    for (int i = 35; i < 64; ++i) CHECK(v[static_cast<std::size_t>(i)] == 8.0f);
  }
}

TEST_CASE("gguf: general.alignment 64 moves the data start (phi3-longrope-align64.gguf)", "[gguf]") {
  const std::string path = shared_gguf("generated/phi3-longrope-align64.gguf");
  if (path.empty()) { WARN("../shared/data/gguf is absent: skipped"); return; }
  const auto f = posenc::formats::read_gguf(path);
  CHECK(f.alignment == 64);
  CHECK(f.data_offset == 704);  // infos end at 671; 672 would be the default alignment's answer
  REQUIRE(f.tensors.size() == 2);
  const auto lng = posenc::formats::read_gguf_f32(f, *f.tensor("rope_factors_long.weight"));
  const auto sht = posenc::formats::read_gguf_f32(f, *f.tensor("rope_factors_short.weight"));
  REQUIRE(lng.size() == 48);
  REQUIRE(sht.size() == 48);
  for (std::size_t i = 0; i < 48; ++i) {
    CHECK(lng[i] == static_cast<float>(1.0 + 0.5 * static_cast<double>(i)));
    CHECK(sht[i] == static_cast<float>(1.0 + 0.01 * static_cast<double>(i)));
  }
  CHECK(f.find("phi3.rope.scaling.attn_factor")->value.number == Approx(1.19023812).epsilon(1e-7));
}

TEST_CASE("gguf: arrays, wide types, v1 and v2 files", "[gguf]") {
  if (const auto p = shared_gguf("generated/qwen2vl-mrope.gguf"); !p.empty()) {
    const auto f = posenc::formats::read_gguf(p);
    const auto& v = f.find("qwen2vl.rope.dimension_sections")->value;
    CHECK(v.type_text() == "arr[i32,4]");
    CHECK(v.numbers == std::vector<double>{16, 24, 24, 0});
  }
  if (const auto p = shared_gguf("generated/v2-wide-types.gguf"); !p.empty()) {
    const auto f = posenc::formats::read_gguf(p);
    CHECK(f.version == 2);
    CHECK(f.find("llama.context_length")->value.type == GgufType::kU64);
    CHECK(f.find("llama.context_length")->value.uinteger == 4096);
    CHECK(f.find("llama.rope.freq_base")->value.type == GgufType::kF64);
    CHECK(f.find("llama.rope.freq_base")->value.number == 10000.0);
  }
  if (const auto p = shared_gguf("generated/v1-llama-metadata.gguf"); !p.empty()) {
    const auto f = posenc::formats::read_gguf(p);
    CHECK(f.version == 1);
    CHECK(f.find("llama.context_length")->value.uinteger == 2048);
    CHECK(f.find("llama.rope.dimension_count")->value.uinteger == 128);
  }
  const std::string v1 = shared_gguf("llama.cpp/ggml-vocab-llama.v1-6381d4e.gguf");
  if (v1.empty()) { WARN("../shared/data/gguf is absent: skipped"); return; }
  const auto f = posenc::formats::read_gguf(v1);
  CHECK(f.version == 1);
  CHECK(f.find("tokenizer.ggml.tokens")->value.type_text() == "arr[str,32000]");
  CHECK(f.find("tokenizer.ggml.scores")->value.count == 32000);
  CHECK_FALSE(f.find("tokenizer.ggml.scores")->value.elements_kept);  // long arrays are walked, not stored
}

TEST_CASE("gguf: every real file of ../shared/data/gguf reads with the README's keys", "[gguf]") {
  struct Real {
    const char* file;
    std::uint32_t version;
    const char* arch;
    const char* key;
    double value;
  };
  const Real files[] = {
      {"llama.cpp/ggml-vocab-llama-spm.gguf", 3, "llama", "llama.rope.dimension_count", 128},
      {"llama.cpp/ggml-vocab-deepseek-coder.gguf", 3, "llama", "llama.rope.scaling.factor", 4},
      {"llama.cpp/ggml-vocab-deepseek-llm.gguf", 3, "llama", "llama.rope.freq_base", 10000},
      {"llama.cpp/ggml-vocab-phi-3.gguf", 3, "phi3", "phi3.rope.scaling.original_context_length", 4096},
      {"llama.cpp/ggml-vocab-starcoder.gguf", 3, "starcoder2", "starcoder2.rope.freq_base", 999999.4375},
      {"llama.cpp/ggml-vocab-gpt-neox.gguf", 3, "gptneox", "gptneox.rope.dimension_count", 24},
      {"llama.cpp/ggml-vocab-mpt.gguf", 3, "mpt", "mpt.attention.max_alibi_bias", 8},
      {"llama.cpp/ggml-vocab-baichuan.gguf", 3, "baichuan", "baichuan.block_count", 32},
      {"llama.cpp/ggml-vocab-refact.gguf", 3, "refact", "refact.context_length", 4096},
      {"llama.cpp/ggml-vocab-gpt-2.gguf", 3, "gpt2", "gpt2.context_length", 1024},
      {"llama.cpp/ggml-vocab-bert-bge.gguf", 3, "bert", "bert.context_length", 512},
      {"llama.cpp/ggml-vocab-falcon.v2-ff5a3f0.gguf", 2, "falcon", "falcon.attention.head_count", 71},
      {"llama.cpp/ggml-vocab-stablelm-3b-4e1t-36eed0c.gguf", 3, "stablelm", "stablelm.rope.dimension_count", 20},
      {"llama.cpp/ggml-vocab-mpt-storywriter-9e70cc0.gguf", 3, "mpt", "mpt.attention.max_alibi_bias", 16},
      {"ollama/llama-2-tiny-random.gguf", 3, "llama", "llama.rope.dimension_count", 4},
  };
  int read = 0;
  for (const auto& r : files) {
    const std::string path = shared_gguf(r.file);
    if (path.empty()) continue;
    INFO(r.file);
    const auto f = posenc::formats::read_gguf(path);
    CHECK(f.version == r.version);
    CHECK(f.find("general.architecture")->value.text == r.arch);
    REQUIRE(f.find(r.key) != nullptr);
    CHECK(f.find(r.key)->value.number == r.value);
    ++read;
  }
  if (read == 0) { WARN("../shared/data/gguf is absent: skipped"); return; }
  const std::string tiny = shared_gguf("ollama/llama-2-tiny-random.gguf");
  if (tiny.empty()) return;
  const auto f = posenc::formats::read_gguf(tiny);
  CHECK(f.tensors.size() == 12);
  CHECK(f.data_offset == 724416);
  for (const auto& t : f.tensors) CHECK((t.type == 0 || t.type == 1));  // F32 or F16
}

TEST_CASE("gguf: the truncated real file is refused at the byte where it ends", "[gguf]") {
  const std::string path = shared_gguf("ollama/test-truncated.gguf");
  if (path.empty()) { WARN("../shared/data/gguf is absent: skipped"); return; }
  CHECK_THROWS_WITH(posenc::formats::read_gguf(path), Contains("byte 4: the file ends after 6 bytes: the version needs 4 bytes, 2 left"));
}

TEST_CASE("gguf: files from the spec-written writer, both byte orders and versions", "[gguf]") {
  for (bool be : {false, true}) {
    for (std::uint32_t version : {1u, 2u, 3u}) {
      INFO("big-endian " << be << " version " << version);
      GgufWriter w = llama_like(version, be);
      w.i32s("llama.rope.dimension_sections", {16, 24, 24, 0}).boolean("llama.flag", true);
      w.strs("tokenizer.ggml.tokens", {"a", "bb", ""}).f32s("llama.f", {0.5f, -2.0f});
      w.tensor_f32("rope_freqs.weight", {1.0f, 2.0f, 4.0f, 8.0f});
      const std::string bytes = w.bytes();
      const auto f = parse_gguf(bytes);
      CHECK(f.version == version);
      CHECK(f.big_endian == be);
      CHECK(f.kvs.size() == 9);
      CHECK(f.find("general.architecture")->value.text == "llama");
      CHECK(f.find("llama.rope.freq_base")->value.number == 500000.0);
      CHECK(f.find("llama.rope.dimension_sections")->value.numbers == std::vector<double>{16, 24, 24, 0});
      CHECK(f.find("llama.flag")->value.uinteger == 1);
      CHECK(f.find("tokenizer.ggml.tokens")->value.count == 3);
      CHECK(f.find("llama.f")->value.numbers == std::vector<double>{0.5, -2.0});
      CHECK(f.data_offset % 32 == 0);
      CHECK(posenc::formats::gguf_f32_from_bytes(f, f.tensors.at(0), bytes) == std::vector<float>{1, 2, 4, 8});
    }
  }
}

TEST_CASE("gguf: every truncation of a valid file is refused with the byte offset", "[gguf]") {
  GgufWriter w = llama_like();
  w.i32s("llama.rope.dimension_sections", {16, 24, 24, 0}).strs("t", {"x", "yz"});
  w.tensor_f32("rope_freqs.weight", {1.0f, 2.0f});
  const std::string bytes = w.bytes();
  REQUIRE_NOTHROW(parse_gguf(bytes));
  // The last tensor's padding (24 bytes after its 8 data bytes) is not needed: stop before it.
  for (std::size_t n = 0; n < bytes.size() - 24; ++n) {
    INFO(n);
    const std::string e = gguf_error_of(bytes.substr(0, n));
    CHECK_THAT(e, Contains("x.gguf: byte "));
  }
}

TEST_CASE("gguf: hostile headers name the byte and what was wrong", "[gguf]") {
  CHECK_THAT(gguf_error_of("GGUX\3\0\0\0"), Contains("byte 0: not a GGUF file"));
  GgufWriter w = llama_like();
  std::string b = w.bytes();
  b[4] = 0;  // version 0
  CHECK_THAT(gguf_error_of(b), Contains("byte 4: GGUF version 0 is not supported"));
  b[4] = 4;
  CHECK_THAT(gguf_error_of(b), Contains("byte 4: GGUF version 4 is not supported"));
  // Counts and lengths past the end of the file.
  CHECK_THAT(gguf_error_of(llama_like().bytes(UINT64_MAX - 1)), Contains("metadata count 18446744073709551614 cannot fit"));
  CHECK_THAT(gguf_error_of(llama_like().bytes(UINT64_MAX, 1u << 30)), Contains("tensor count 1073741824 cannot fit"));
  {
    GgufWriter h;
    std::string key_len = h.bytes_of(UINT64_MAX, 8);
    CHECK_THAT(gguf_error_of("GGUF" + h.bytes_of(3, 4) + h.bytes_of(0, 8) + h.bytes_of(1, 8) + key_len + std::string(20, 'k')),
               Contains("byte 24: the key length 18446744073709551615 runs past the end of the file"));
  }
  GgufWriter h;
  CHECK_THAT(gguf_error_of(GgufWriter().raw("k", 13, "").bytes()), Contains("the value type 13 is not a GGUF value type"));
  CHECK_THAT(gguf_error_of(GgufWriter().raw("k", GgufWriter::ARR, h.bytes_of(9, 4) + h.bytes_of(1, 8)).bytes()),
             Contains("an array of arrays"));
  CHECK_THAT(gguf_error_of(GgufWriter().raw("k", GgufWriter::ARR, h.bytes_of(GgufWriter::U32, 4) + h.bytes_of(1ull << 62, 8)).bytes()),
             Contains("array of 4611686018427387904 u32 values cannot fit"));
  CHECK_THAT(gguf_error_of(GgufWriter().raw("k", GgufWriter::STR, h.bytes_of(1000, 8)).bytes()),
             Contains("the string length 1000 runs past the end of the file"));
  CHECK_THAT(gguf_error_of(GgufWriter().u32("a", 1).u32("a", 2).bytes()), Contains("byte 41: duplicate metadata key 'a' (first at byte 24)"));
  CHECK_THAT(gguf_error_of(GgufWriter().u32("", 1).bytes()), Contains("byte 24: empty metadata key"));
  CHECK_THAT(gguf_error_of(GgufWriter().u64("general.alignment", 32).bytes()), Contains("general.alignment must be of type u32 (got u64)"));
  CHECK_THAT(gguf_error_of(GgufWriter().u32("general.alignment", 0).bytes()), Contains("general.alignment must be a power of two (got 0)"));
  CHECK_THAT(gguf_error_of(GgufWriter().u32("general.alignment", 48).bytes()), Contains("general.alignment must be a power of two (got 48)"));
  // Version 1 has no u64/i64/f64 values.
  GgufWriter v1;
  v1.version = 1;
  CHECK_THAT(gguf_error_of(v1.u64("k", 1).bytes()), Contains("the value type 10 is not a GGUF value type (0..9 in version 1)"));
}

TEST_CASE("gguf: hostile tensor infos", "[gguf]") {
  CHECK_THAT(gguf_error_of(GgufWriter().tensor_f32(std::string(64, 'n'), {1}).bytes()), Contains("tensor name of 64 bytes (ggml allows at most 63)"));
  CHECK_THAT(gguf_error_of(GgufWriter().tensor_f32("a", {1}).tensor_f32("a", {1}).bytes()), Contains("duplicate tensor name 'a'"));
  CHECK_THAT(gguf_error_of(GgufWriter().tensor("a", {1, 1, 1, 1, 1}, 0, "").bytes()), Contains("tensor 'a' has 5 dimensions"));
  CHECK_THAT(gguf_error_of(GgufWriter().tensor("a", {1ull << 62, 1ull << 62}, 0, "").bytes()), Contains("element count overflows"));
  CHECK_THAT(gguf_error_of(GgufWriter().tensor("a", {1ull << 63}, 0, "").bytes()), Contains("negative as int64"));
  CHECK_THAT(gguf_error_of(GgufWriter().tensor("a", {4}, 4, "").bytes()), Contains("ggml type 4, which ggml does not define"));
  CHECK_THAT(gguf_error_of(GgufWriter().tensor("a", {4}, 40, "").bytes()), Contains("ggml type 40"));
  CHECK_THAT(gguf_error_of(GgufWriter().tensor("a", {31}, 8, "").bytes()), Contains("ne[0] = 31 is not a multiple of the block size 32"));
  CHECK_THAT(gguf_error_of(GgufWriter().tensor("a", {1000}, 0, std::string(16, '\0')).bytes()),
             Contains("tensor 'a' data (bytes 64 + 0 + 4000) runs past the end of the file (96 bytes)"));
  // A misaligned offset: the second tensor's offset moved by 4.
  std::string b = GgufWriter().tensor_f32("a", {1}).tensor_f32("b", {1}).bytes();
  const auto at = b.find(std::string("b") + '\1');  // name "b", then n_dims 1
  REQUIRE(at != std::string::npos);
  b[at + 1 + 4 + 8 + 4] = 36;  // offset 32 → 36
  CHECK_THAT(gguf_error_of(b), Contains("tensor 'b' offset 36 is not a multiple of the alignment 32"));
  // A zero-element tensor is legal (ggml crashed on it before c2cdd2b2).
  CHECK_NOTHROW(parse_gguf(GgufWriter().tensor("z", {0, 5}, 0, "").bytes()));
}

TEST_CASE("gguf: frequency tensors must be 1-D F32", "[gguf]") {
  const std::string bytes = GgufWriter().tensor("f", {2}, 1, std::string(4, '\0')).tensor("g", {2, 2}, 0, std::string(16, '\0')).bytes();
  const auto f = parse_gguf(bytes);
  CHECK_THROWS_WITH(posenc::formats::gguf_f32_from_bytes(f, f.tensors[0], bytes), Contains("tensor 'f' must be F32 (got F16)"));
  CHECK_THROWS_WITH(posenc::formats::gguf_f32_from_bytes(f, f.tensors[1], bytes), Contains("tensor 'g' must be 1-D"));
}
