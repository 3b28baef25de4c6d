// `posenc model FILE.gguf`: what llama.cpp uses per layer, against llama.cpp's rules re-derived
// here (ggml-org/llama.cpp @ 81ff7abe5, via ../shared/reference/gguf.md §2-3):
//  - set_swa_pattern(n): layer il slides iff il % n < n - 1 (gemma3: n = 6, only when
//    attention.sliding_window > 0; SWA base = rope.freq_base_swa or 10000, SWA scale 1);
//  - llama4 / smollm3: no RoPE on layer il iff (il + 1) % 4 == 0 (llama4 unless
//    attention.sliding_window = 0); llama4 query temperature log(floor((t+1)/8192) + 1)·0.1 + 1;
//  - ALiBi (ggml_soft_max_ext): n = 2^floor(log2 H), m0 = 2^(-b/n), m1 = 2^(-b/2/n), head h < n:
//    m0^(h+1), else m1^(2(h-n)+1); bloom/refact hard-code b = 8, mpt reads attention.max_alibi_bias;
//  - T5: relative_buckets_count, max_distance 128 hard-coded; M-RoPE sector = pair % sum(sections).
// Expected numbers are computed here from those rules or taken from the data README, never
// from posenc's output.
#include "posenc/models/model_gguf.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <variant>

#include "../cli/cli_helpers.hpp"
#include "../formats/gguf_writer.hpp"
#include "posenc/error.hpp"
#include "posenc/formats/gguf.hpp"

using namespace posenc::models;
using posenc::test::GgufWriter;
using posenc::test::shared_gguf;
using Catch::Contains;
using V = std::vector<std::int64_t>;

namespace {

ModelReport gguf_report_of(const GgufWriter& w, const std::string& name = "m.gguf") {
  const std::string bytes = w.bytes();
  const auto f = posenc::formats::parse_gguf(bytes, name);
  return gguf_model(f, [&](const posenc::formats::GgufTensorInfo& t) { return posenc::formats::gguf_f32_from_bytes(f, t, bytes); });
}

template <class T>
T gguf_value(const MechanismUse& m, const std::string& key) {
  for (const auto& [k, v] : m.values)
    if (k == key) return std::get<T>(v);
  FAIL("no value " << key);
  return T{};
}

std::string gguf_source(const MechanismUse& m, const std::string& key) {
  for (const auto& [k, s] : m.sources)
    if (k == key) return s;
  return "";
}

GgufWriter gemma3_writer(bool with_swa_base, bool with_window) {
  GgufWriter w;
  w.str("general.architecture", "gemma3").u32("gemma3.context_length", 131072).u32("gemma3.embedding_length", 2560);
  w.u32("gemma3.block_count", 34).u32("gemma3.attention.head_count", 8).u32("gemma3.attention.key_length", 256);
  w.f32("gemma3.rope.freq_base", 1e6f).str("gemma3.rope.scaling.type", "linear").f32("gemma3.rope.scaling.factor", 8);
  if (with_swa_base) w.f32("gemma3.rope.freq_base_swa", 10000);
  if (with_window) w.u32("gemma3.attention.sliding_window", 1024);
  return w;
}

/// ggml's θ_i is theta_scale^i iterated in float32: ≤ 2·i float32 roundings (≤ 2·128·2^-24 ≈ 1.5e-5 relative).
constexpr double kIterTol = 2e-5;

}  // namespace

TEST_CASE("gguf model: gemma3 sliding layers (period 6) use freq_base_swa, unscaled", "[models][gguf]") {
  const ModelReport r = gguf_report_of(gemma3_writer(true, true));
  CHECK(r.input == "gguf");
  CHECK(r.convention == "ggml");
  CHECK(r.num_layers == 34);
  REQUIRE(r.gguf);
  CHECK(r.gguf->architecture == "gemma3");
  REQUIRE(r.mechanisms.size() == 2);
  const auto& full = r.mechanisms[0];
  const auto& swa = r.mechanisms[1];
  CHECK(full.layer_type == "full_attention");
  CHECK(full.layers == V{5, 11, 17, 23, 29});  // il % 6 == 5
  CHECK(swa.layer_type == "sliding_attention");
  CHECK(swa.layers.size() == 29);
  CHECK(swa.layers.front() == 0);
  CHECK(gguf_value<double>(swa, "base") == 10000.0);
  CHECK(gguf_value<std::string>(swa, "scaling") == "none");
  CHECK(gguf_value<double>(full, "base") == 1e6);
  CHECK(gguf_value<std::string>(full, "scaling") == "linear");
  CHECK(gguf_value<std::string>(full, "layout") == "half");  // NEOX
  CHECK(gguf_source(swa, "base") == "GGUF gemma3.rope.freq_base_swa");
  CHECK(gguf_source(full, "base") == "GGUF gemma3.rope.freq_base");
  CHECK(gguf_value<std::int64_t>(swa, "sliding_window") == 1024);
  const auto inv_swa = gguf_value<std::vector<double>>(swa, "inv_freq");
  const auto inv_full = gguf_value<std::vector<double>>(full, "inv_freq");
  REQUIRE(inv_swa.size() == 128);
  for (int i : {0, 1, 17, 64, 127}) {
    CHECK(inv_swa[i] == Approx(std::pow(10000.0, -2.0 * i / 256)).epsilon(kIterTol));
    CHECK(inv_full[i] == Approx(std::pow(1e6, -2.0 * i / 256) / 8).epsilon(kIterTol));  // linear: θ·freq_scale
  }
}

TEST_CASE("gguf model: gemma3 defaults: SWA base 10000 without the key; no SWA without a window", "[models][gguf]") {
  const ModelReport r = gguf_report_of(gemma3_writer(false, true));
  REQUIRE(r.mechanisms.size() == 2);
  CHECK(gguf_value<double>(r.mechanisms[1], "base") == 10000.0);
  CHECK_THAT(gguf_source(r.mechanisms[1], "base"), Contains("llama.cpp default") && Contains("10000"));
  const ModelReport n = gguf_report_of(gemma3_writer(true, false));
  REQUIRE(n.mechanisms.size() == 1);
  CHECK(n.mechanisms[0].where == "every layer");
  CHECK(n.layer_types.empty());
}

TEST_CASE("gguf model: llama4 and smollm3 skip RoPE on every 4th layer", "[models][gguf]") {
  GgufWriter w;
  w.str("general.architecture", "llama4").u32("llama4.context_length", 1048576).u32("llama4.embedding_length", 5120);
  w.u32("llama4.block_count", 8).u32("llama4.attention.head_count", 40).u32("llama4.rope.dimension_count", 128);
  w.f32("llama4.rope.freq_base", 500000);
  const ModelReport r = gguf_report_of(w);
  REQUIRE(r.mechanisms.size() == 2);
  CHECK(r.mechanisms[0].kind == Mechanism::kRope);
  CHECK(r.mechanisms[0].layers == V{0, 1, 2, 4, 5, 6});
  CHECK(gguf_value<std::string>(r.mechanisms[0], "layout") == "interleaved");  // NORM
  const auto& nope = r.mechanisms[1];
  CHECK(nope.kind == Mechanism::kNope);
  CHECK(nope.layers == V{3, 7});
  const auto t = gguf_value<std::vector<double>>(nope, "temperature");
  REQUIRE(t.size() == 4);  // positions 0, 8191, 16·8192 − 1, 128·8192 − 1
  CHECK(t[0] == Approx(1.0).epsilon(1e-12));
  CHECK(t[1] == Approx(1.0 + 0.1 * std::log(2.0)).epsilon(1e-12));
  CHECK(t[2] == Approx(1.0 + 0.1 * std::log(17.0)).epsilon(1e-12));
  CHECK(t[3] == Approx(1.0 + 0.1 * std::log(129.0)).epsilon(1e-12));
  // attention.sliding_window = 0: every layer rotates.
  w.u32("llama4.attention.sliding_window", 0);
  const ModelReport all = gguf_report_of(w);
  REQUIRE(all.mechanisms.size() == 1);
  CHECK(all.mechanisms[0].layers.size() == 8);

  GgufWriter s;
  s.str("general.architecture", "smollm3").u32("smollm3.context_length", 65536).u32("smollm3.embedding_length", 2048);
  s.u32("smollm3.block_count", 36).u32("smollm3.attention.head_count", 16).f32("smollm3.rope.freq_base", 5e6f);
  const ModelReport sm = gguf_report_of(s);
  REQUIRE(sm.mechanisms.size() == 2);
  CHECK(sm.mechanisms[1].layers == V{3, 7, 11, 15, 19, 23, 27, 31, 35});
  CHECK_THAT(gguf_source(sm.mechanisms[1], "layers"), Contains("n_no_rope_layer_step = 4"));
}

// As a config.json's num_hidden_layers: more than 8192 layers (docs/models.md) is refused in one
// line naming the key and the limit, instead of a report listing a million layers.
TEST_CASE("gguf model: a block_count beyond 8192 is refused naming the key and the limit", "[models][gguf]") {
  GgufWriter w;
  w.str("general.architecture", "bloom").u32("bloom.context_length", 2048).u32("bloom.embedding_length", 768);
  w.u32("bloom.block_count", 1000000).u32("bloom.attention.head_count", 12);
  std::string message;
  try {
    gguf_report_of(w);
  } catch (const posenc::Error& e) {
    message = e.what();
  }
  CHECK_THAT(message, Contains("key bloom.block_count must be an integer within [1, 8192] (got 1000000)"));
  CHECK(message.find('\n') == std::string::npos);
}

TEST_CASE("gguf model: ALiBi slopes as ggml computes them", "[models][gguf]") {
  GgufWriter w;  // bloom: max_bias 8 hard-coded; 12 heads (not a power of two)
  w.str("general.architecture", "bloom").u32("bloom.context_length", 2048).u32("bloom.embedding_length", 768);
  w.u32("bloom.block_count", 12).u32("bloom.attention.head_count", 12);
  const ModelReport r = gguf_report_of(w);
  REQUIRE(r.mechanisms.size() == 1);
  CHECK(r.mechanisms[0].kind == Mechanism::kAlibi);
  const auto s = gguf_value<std::vector<double>>(r.mechanisms[0], "slopes");
  // Press et al.: the 8 slopes 2^-1 … 2^-8, then every other slope of 16 heads: 2^-0.5, 2^-1.5, 2^-2.5, 2^-3.5.
  const std::vector<double> want = {0.5, 0.25, 0.125, 0.0625, 0.03125, 0.015625, 0.0078125, 0.00390625,
                                    std::pow(2.0, -0.5), std::pow(2.0, -1.5), std::pow(2.0, -2.5), std::pow(2.0, -3.5)};
  REQUIRE(s.size() == want.size());
  for (std::size_t h = 0; h < s.size(); ++h) CHECK(s[h] == Approx(want[h]).epsilon(1e-6));  // float32
  CHECK_THAT(gguf_source(r.mechanisms[0], "alibi_bias_max"), Contains("hard-coded"));
  // baichuan: 40 layers (13B) → ALiBi 8; 32 layers (7B) → RoPE.
  GgufWriter b;
  b.str("general.architecture", "baichuan").u32("baichuan.context_length", 4096).u32("baichuan.embedding_length", 5120);
  b.u32("baichuan.block_count", 40).u32("baichuan.attention.head_count", 40);
  REQUIRE(gguf_report_of(b).mechanisms.at(0).kind == Mechanism::kAlibi);
  // mpt without attention.max_alibi_bias: f_max_alibi_bias 0, no positions at all.
  GgufWriter m;
  m.str("general.architecture", "mpt").u32("mpt.context_length", 2048).u32("mpt.embedding_length", 4096);
  m.u32("mpt.block_count", 32).u32("mpt.attention.head_count", 32);
  const ModelReport none = gguf_report_of(m);
  CHECK(none.mechanisms.empty());
  CHECK_THAT(none.notes.at(0), Contains("without ALiBi"));
}

TEST_CASE("gguf model: T5 buckets from relative_buckets_count, max_distance 128", "[models][gguf]") {
  GgufWriter w;
  w.str("general.architecture", "t5").u32("t5.context_length", 512).u32("t5.embedding_length", 768);
  w.u32("t5.block_count", 12).u32("t5.attention.head_count", 12).u32("t5.attention.relative_buckets_count", 32);
  const ModelReport r = gguf_report_of(w);
  REQUIRE(r.mechanisms.size() == 2);
  CHECK(r.mechanisms[0].layer_type == "encoder");
  CHECK(gguf_value<bool>(r.mechanisms[0], "bidirectional"));
  CHECK(gguf_value<std::int64_t>(r.mechanisms[0], "max_exact") == 8);   // 32 / 2 / 2
  CHECK(gguf_value<std::int64_t>(r.mechanisms[1], "max_exact") == 16);  // 32 / 2
  CHECK(gguf_value<std::int64_t>(r.mechanisms[1], "max_distance") == 128);
  GgufWriter e;
  e.str("general.architecture", "t5encoder").u32("t5encoder.context_length", 512);
  e.u32("t5encoder.embedding_length", 768).u32("t5encoder.block_count", 12);
  CHECK_THROWS_WITH(gguf_report_of(e), Contains("t5encoder.attention.relative_buckets_count"));
  e.u32("t5encoder.attention.relative_buckets_count", 32);
  CHECK(gguf_report_of(e).mechanisms.size() == 1);
}

TEST_CASE("gguf model: M-RoPE sections (contiguous and interleaved) and refusals", "[models][gguf]") {
  GgufWriter w;  // qwen3vl: IMROPE; sections [24, 20, 20, 0] over 64 pairs
  w.str("general.architecture", "qwen3vl").u32("qwen3vl.context_length", 262144).u32("qwen3vl.embedding_length", 4096);
  w.u32("qwen3vl.block_count", 36).u32("qwen3vl.attention.head_count", 32).u32("qwen3vl.attention.key_length", 128);
  w.f32("qwen3vl.rope.freq_base", 5e6f).i32s("qwen3vl.rope.dimension_sections", {24, 20, 20, 0});
  const ModelReport r = gguf_report_of(w);
  REQUIRE(r.mechanisms.size() == 2);
  const auto& m = r.mechanisms[1];
  CHECK(m.kind == Mechanism::kMrope);
  CHECK(gguf_value<bool>(m, "interleaved"));
  const auto axis = gguf_value<std::vector<std::int64_t>>(m, "pair_axis");
  REQUIRE(axis.size() == 64);
  // s % 3 == 1 and s < 60 → h; s % 3 == 2 and s < 60 → w; s % 3 == 0 and s < 72 → t; else e (61, 62).
  CHECK(axis[0] == 0);
  CHECK(axis[1] == 1);
  CHECK(axis[2] == 2);
  CHECK(axis[60] == 0);
  CHECK(axis[61] == 3);
  CHECK(axis[62] == 3);
  CHECK(axis[63] == 0);
  CHECK(gguf_value<std::int64_t>(m, "pairs_t") == 22);
  CHECK(gguf_value<std::int64_t>(m, "pairs_h") == 20);
  CHECK(gguf_value<std::int64_t>(m, "pairs_e") == 2);

  GgufWriter mamba;
  mamba.str("general.architecture", "mamba").u32("mamba.context_length", 2048).u32("mamba.block_count", 24);
  CHECK_THROWS_WITH(gguf_report_of(mamba), Contains("without position encoding"));
  GgufWriter no_layers;
  no_layers.str("general.architecture", "llama").u32("llama.context_length", 2048);
  CHECK_THROWS_WITH(gguf_report_of(no_layers), Contains("llama.block_count"));
}

TEST_CASE("gguf model: the real files of ../shared/data/gguf", "[models][gguf]") {
  const std::string mpt = shared_gguf("llama.cpp/ggml-vocab-mpt.gguf");
  if (mpt.empty()) {
    WARN("../shared/data/gguf absent: skipped");
    return;
  }
  {  // README: mpt.attention.max_alibi_bias 8, 32 heads → 2^(-8(h+1)/32)
    const ModelReport r = read_gguf_model(mpt);
    REQUIRE(r.mechanisms.size() == 1);
    const auto s = gguf_value<std::vector<double>>(r.mechanisms[0], "slopes");
    REQUIRE(s.size() == 32);
    for (std::size_t h = 0; h < 32; ++h) CHECK(s[h] == Approx(std::pow(2.0, -(static_cast<double>(h) + 1.0) / 4)).epsilon(1e-6));
    CHECK(gguf_source(r.mechanisms[0], "alibi_bias_max") == "GGUF mpt.attention.max_alibi_bias");
  }
  {  // storywriter: max_alibi_bias 16 → 2^(-16(h+1)/32)
    const auto s = gguf_value<std::vector<double>>(
        read_gguf_model(shared_gguf("llama.cpp/ggml-vocab-mpt-storywriter-9e70cc0.gguf")).mechanisms.at(0), "slopes");
    CHECK(s.at(0) == Approx(std::pow(2.0, -0.5)).epsilon(1e-6));
    CHECK(s.at(31) == Approx(std::pow(2.0, -16.0)).epsilon(1e-6));
  }
  {  // refact: no key, ALiBi 8 hard-coded, 32 heads
    const auto r = read_gguf_model(shared_gguf("llama.cpp/ggml-vocab-refact.gguf"));
    CHECK(gguf_value<double>(r.mechanisms.at(0), "alibi_bias_max") == 8.0);
  }
  {  // baichuan 7B: 32 layers → RoPE, NORM, base 10000 (no freq_base), n_rot 128
    const auto r = read_gguf_model(shared_gguf("llama.cpp/ggml-vocab-baichuan.gguf"));
    REQUIRE(r.mechanisms.at(0).kind == Mechanism::kRope);
    CHECK(gguf_value<double>(r.mechanisms[0], "base") == 10000.0);
    CHECK(gguf_value<std::string>(r.mechanisms[0], "layout") == "interleaved");
    CHECK_THAT(gguf_source(r.mechanisms[0], "base"), Contains("llama.cpp default"));
  }
  {  // gpt-2: learned table 1024 × 768; bert-bge: 512 × 384
    const auto g = read_gguf_model(shared_gguf("llama.cpp/ggml-vocab-gpt-2.gguf"));
    REQUIRE(g.mechanisms.at(0).kind == Mechanism::kLearned);
    CHECK(gguf_value<std::int64_t>(g.mechanisms[0], "rows") == 1024);
    CHECK(gguf_value<std::int64_t>(g.mechanisms[0], "width") == 768);
    const auto b = read_gguf_model(shared_gguf("llama.cpp/ggml-vocab-bert-bge.gguf"));
    CHECK(gguf_value<std::int64_t>(b.mechanisms.at(0), "rows") == 512);
    CHECK(gguf_value<std::int64_t>(b.mechanisms.at(0), "width") == 384);
  }
  {  // gemma3-swa-linear: 34 layers, window 1024, freq_base_swa 10000, linear 8
    const auto r = read_gguf_model(shared_gguf("generated/gemma3-swa-linear.gguf"));
    REQUIRE(r.mechanisms.size() == 2);
    CHECK(r.mechanisms[0].layers == V{5, 11, 17, 23, 29});
    CHECK(gguf_value<double>(r.mechanisms[1], "base") == 10000.0);
    CHECK(gguf_value<double>(r.mechanisms[0], "factor") == 8.0);
  }
  {  // qwen2vl: sections [16, 24, 24, 0], contiguous: pairs 0-15 t, 16-39 h, 40-63 w
    const auto r = read_gguf_model(shared_gguf("generated/qwen2vl-mrope.gguf"));
    REQUIRE(r.mechanisms.size() == 2);
    const auto axis = gguf_value<std::vector<std::int64_t>>(r.mechanisms[1], "pair_axis");
    REQUIRE(axis.size() == 64);
    CHECK(axis[15] == 0);
    CHECK(axis[16] == 1);
    CHECK(axis[39] == 1);
    CHECK(axis[40] == 2);
    CHECK(axis[63] == 2);
    CHECK_FALSE(gguf_value<bool>(r.mechanisms[1], "interleaved"));
  }
  {  // deepseek2: MLA, n_rot 64 of key_length_mla 192; mscale = 1 + 0.1·1·ln 40 (yarn_log_multiplier 0.1 ÷ 0.1)
    const auto r = read_gguf_model(shared_gguf("generated/deepseek2-yarn-mla.gguf"));
    REQUIRE(r.mechanisms.size() == 2);
    const auto& m = r.mechanisms[1];
    CHECK(m.kind == Mechanism::kMla);
    CHECK(gguf_value<std::int64_t>(m, "qk_rope_head_dim") == 64);
    CHECK(gguf_value<std::int64_t>(m, "qk_nope_head_dim") == 128);
    const double ms = 1.0 + 0.1 * std::log(40.0);
    CHECK(gguf_value<double>(m, "softmax_mscale") == Approx(ms).epsilon(1e-6));
    CHECK(gguf_value<double>(m, "softmax_scale") == Approx(ms * ms / std::sqrt(192.0)).epsilon(1e-6));
  }
}

TEST_CASE("gguf model CLI: a .gguf is recognised by its magic bytes; --gguf; the gguf JSON object", "[models][gguf][cli]") {
  const auto dir = std::filesystem::temp_directory_path() / ("posenc_model_gguf_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "gemma3.bin").string();
  gemma3_writer(true, true).save(path);
  const auto j = run_cli({"model", path, "--format", "json"});
  REQUIRE(j.code == 0);
  CHECK_THAT(j.out, Contains("\"convention\": \"ggml\""));
  CHECK_THAT(j.out, Contains("\"architecture\": \"gemma3\""));
  CHECK_THAT(j.out, Contains("\"byte_order\": \"little\""));
  CHECK_THAT(j.out, Contains("\"base\": \"GGUF gemma3.rope.freq_base_swa\""));
  const auto t = run_cli({"model", "--gguf", path});
  REQUIRE(t.code == 0);
  CHECK_THAT(t.out, Contains("architecture gemma3"));
  CHECK_THAT(t.out, Contains("layers 0-4, 6-10, 12-16, 18-22, 24-28, 30-33 (sliding_attention)"));
  const auto both = run_cli({"model", path, "--gguf", path});
  CHECK(both.code == 2);
  CHECK(one_line(both.err));
  GgufWriter bad;
  bad.str("general.architecture", "mamba").u32("mamba.block_count", 2);
  bad.save(dir / "mamba.gguf");
  const auto m = run_cli({"model", "--gguf", (dir / "mamba.gguf").string()});
  CHECK(m.code == 2);
  CHECK(one_line(m.err));
  CHECK_THAT(m.err, Contains("--gguf"));
  std::filesystem::remove_all(dir);
}
