// The settings llama.cpp uses for a GGUF file: keys, llama.cpp's defaults, frequency tensors and
// the architecture's rope type. Expected values: the ../shared/data/gguf README (generator
// inputs and the files' key lists), llama.cpp's defaults (rope.freq_base 10000, scaling type
// linear, n_ctx_orig_yarn = n_ctx_train, n_embd_head = n_embd / n_head, n_rot = n_embd_head:
// src/llama-model.cpp load_hparams), and ggml's float32 recipe re-derived here.
#include "posenc/models/rope_gguf.hpp"
#include "posenc/models/rope_settings.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>

#include <unistd.h>

#include "../cli/cli_helpers.hpp"
#include "../formats/gguf_writer.hpp"
#include "posenc/rope/rope_config.hpp"
#include "posenc/rope/rope_report.hpp"
#include "posenc/error.hpp"
#include "posenc/formats/gguf.hpp"
#include "posenc/schemes/registry.hpp"

using namespace posenc::encodings;
using namespace posenc::rope;
using namespace posenc::schemes;
using namespace posenc::models;
using posenc::test::GgufWriter;
using posenc::test::shared_gguf;
using Catch::Contains;

namespace {

RopeConfig resolve_file(const std::string& path, const std::string& option = "gguf") {
  posenc::ParamMap p(rope_param_specs());
  p.set(option, path);
  return resolve_rope_config(p);
}

RopeConfig resolve_bytes(const GgufWriter& w) {
  const std::string bytes = w.bytes();
  const auto f = posenc::formats::parse_gguf(bytes, "w.gguf");
  return gguf_rope_config(f, [&](const posenc::formats::GgufTensorInfo& t) { return posenc::formats::gguf_f32_from_bytes(f, t, bytes); });
}

std::string gguf_source_of(const RopeConfig& c, const std::string& name) {
  for (const auto& s : c.sources)
    if (s.name == name) return s.source;
  return "";
}

bool has_note(const RopeConfig& c, const std::string& part) {
  for (const auto& n : c.notes)
    if (n.find(part) != std::string::npos) return true;
  return false;
}

#define SKIP_IF_ABSENT(path) \
  if ((path).empty()) {      \
    WARN("../shared/data/gguf is absent: skipped"); \
    return;                  \
  }

}  // namespace

TEST_CASE("gguf rope: llama3 rope_freqs divide ggml's iterated float32 frequencies", "[gguf][rope]") {
  const std::string path = shared_gguf("generated/llama3-rope-freqs.gguf");
  SKIP_IF_ABSENT(path);
  for (const char* option : {"gguf", "hf-config"}) {  // --hf-config recognises a .gguf by its magic
    INFO(option);
    const RopeConfig c = resolve_file(path, option);
    CHECK(c.convention == RopeConvention::kGgml);
    CHECK(c.layout == RopeLayout::kInterleaved);  // llama: NORM
    CHECK(c.base == 500000.0);
    CHECK(c.head_dim == 128);  // 4096 / 32, no key_length: llama.cpp's default
    CHECK(c.rotary_dim == 128);
    CHECK(gguf_source_of(c, "base") == "GGUF llama.rope.freq_base");
    CHECK(gguf_source_of(c, "dim") == "llama.cpp default: n_embd / n_head = 4096 / 32 (no llama.attention.key_length)");
    CHECK(gguf_source_of(c, "freq-factors").starts_with("GGUF tensor rope_freqs.weight"));
    REQUIRE(c.gguf_freq_factors.size() == 64);
    const auto f = compute_frequencies(c);
    // ggml_rope_cache_init: theta = p; theta *= theta_scale (float), theta_scale = powf(base, -2/n_dims).
    const float theta_scale = std::pow(500000.0f, -2.0f / 128.0f);
    float theta = 1.0f;
    for (std::size_t i = 0; i < 64; ++i) {
      CHECK(f.inv_freq[i] == Approx(static_cast<double>(theta / static_cast<float>(c.gguf_freq_factors[i]))).epsilon(1e-7));
      theta *= theta_scale;
    }
    CHECK(f.attention_factor == 1.0);
  }
  // The big-endian twin resolves to the same settings, with a note that llama.cpp refuses it.
  const std::string be = shared_gguf("generated/llama3-rope-freqs-be.gguf");
  const RopeConfig b = resolve_file(be);
  CHECK(b.gguf_freq_factors == resolve_file(path).gguf_freq_factors);
  CHECK(has_note(b, "big-endian file: llama.cpp on a little-endian host refuses it"));
}

TEST_CASE("gguf rope: phi3 long/short lists and the stored attention factor", "[gguf][rope]") {
  const std::string path = shared_gguf("generated/phi3-longrope-align64.gguf");
  SKIP_IF_ABSENT(path);
  const RopeConfig c = resolve_file(path);
  CHECK(c.scaling == RopeScaling::kLongrope);
  CHECK(c.layout == RopeLayout::kHalf);  // phi3: NEOX
  CHECK(c.rotary_dim == 96);
  CHECK(c.original_max_position_embeddings == 4096);
  CHECK(c.max_position_embeddings == 131072);
  const auto f = compute_frequencies(c);
  CHECK(f.longrope_list == "long");  // llama.cpp: n_ctx (default n_ctx_train 131072) > n_ctx_orig_yarn 4096
  CHECK(f.attention_factor == Approx(1.19023812).epsilon(1e-7));
  // Pair 2: θ = 10000^(-4/96) in ggml's float32 iteration, divided by long[2] = 2.
  const float ts = std::pow(10000.0f, -2.0f / 96.0f);
  CHECK(f.inv_freq[2] == Approx(static_cast<double>(ts * ts / 2.0f)).epsilon(1e-7));
  posenc::ParamMap p(rope_param_specs());
  p.set("gguf", path);
  p.set("seq-len", std::int64_t{4096});
  CHECK(compute_frequencies(resolve_rope_config(p)).longrope_list == "short");
}

TEST_CASE("gguf rope: yarn, deepseek2, gemma3, qwen2vl", "[gguf][rope]") {
  const std::string yarn = shared_gguf("generated/qwen2-yarn.gguf");
  SKIP_IF_ABSENT(yarn);
  {
    const RopeConfig c = resolve_file(yarn);
    CHECK(c.scaling == RopeScaling::kYarn);
    CHECK(*c.factor == 4.0);
    CHECK(c.original_max_position_embeddings == 32768);
    CHECK(c.layout == RopeLayout::kHalf);
    CHECK(c.head_dim == 128);  // 3584 / 28
    // ggml keeps mscale 1 + 0.1 ln 4 in total: llama.cpp's get_mscale(4) ÷ (1 + 0.1 ln 4), × ggml's own.
    CHECK(compute_frequencies(c).attention_factor == Approx(1.0 + 0.1 * std::log(4.0)).epsilon(1e-6));
    CHECK_FALSE(has_note(c, "yarn_beta_fast"));  // 32: what llama.cpp uses anyway
  }
  {
    const RopeConfig c = resolve_file(shared_gguf("generated/deepseek2-yarn-mla.gguf"));
    CHECK(c.layout == RopeLayout::kInterleaved);  // deepseek2: NORM
    CHECK(c.rotary_dim == 64);
    CHECK(c.head_dim == 64);  // MLA: the rotary part
    // The pair table counts dims in the [nope | rope] query head: key_length_mla 192 - 64 rope dims
    // (the file's keys: key_length 576, key_length_mla 192, rope.dimension_count 64), so pair 0 is
    // dims 128, 129 as in DeepSeek's q_pe after qk_nope_head_dim 128.
    CHECK(c.rotary_offset == 128);
    CHECK(rotary_dim_offset(c) == 128);
    CHECK(*c.mscale_all_dim == Approx(1.0));  // yarn_log_multiplier 0.1 ÷ 0.1
    CHECK(*c.factor == 40.0);
    CHECK(compute_frequencies(c).attention_factor == Approx(1.0).epsilon(1e-6));  // mscale = mscale_all_dim = 1
  }
  {
    const RopeConfig c = resolve_file(shared_gguf("generated/gemma3-swa-linear.gguf"));
    CHECK(c.layout == RopeLayout::kHalf);
    CHECK(c.scaling == RopeScaling::kLinear);
    CHECK(*c.factor == 8.0);
    CHECK(c.head_dim == 256);
    CHECK(c.base == 1e6);
    CHECK(has_note(c, "sliding-window layers use base 10000"));
  }
  {
    const RopeConfig c = resolve_file(shared_gguf("generated/qwen2vl-mrope.gguf"));
    CHECK(c.gguf->rope_type == "MROPE");
    CHECK(c.layout == RopeLayout::kHalf);
    CHECK(has_note(c, "M-RoPE sections [16, 24, 24, 0]"));
  }
}

TEST_CASE("gguf rope: llama.cpp's defaults and refusals on the real files", "[gguf][rope]") {
  const std::string star = shared_gguf("llama.cpp/ggml-vocab-starcoder.gguf");
  SKIP_IF_ABSENT(star);
  CHECK(resolve_file(star).base == 999999.4375);  // f32 of 999999.442…
  {
    const RopeConfig c = resolve_file(shared_gguf("llama.cpp/ggml-vocab-gpt-neox.gguf"));
    CHECK(c.head_dim == 96);  // 6144 / 64
    CHECK(c.rotary_dim == 24);
    CHECK(c.base == 10000.0);
    CHECK(gguf_source_of(c, "base") == "llama.cpp default: rope_freq_base_train (no gptneox.rope.freq_base)");
  }
  {
    const RopeConfig c = resolve_file(shared_gguf("llama.cpp/ggml-vocab-falcon.v2-ff5a3f0.gguf"));
    CHECK(c.head_dim == 64);  // 4544 / 71
    CHECK(c.rotary_dim == 64);
    CHECK(c.layout == RopeLayout::kHalf);
    CHECK(c.gguf->version == 2);
  }
  {
    const RopeConfig c = resolve_file(shared_gguf("llama.cpp/ggml-vocab-deepseek-coder.gguf"));
    CHECK(c.scaling == RopeScaling::kLinear);
    CHECK(*c.factor == 4.0);
    CHECK(c.base == 100000.0);
  }
  CHECK(resolve_file(shared_gguf("llama.cpp/ggml-vocab-phi-3.gguf")).original_max_position_embeddings == 4096);
  // bert's rope type is NEOX, but llama.cpp's bert graph adds position_embd and never rotates.
  CHECK_THROWS_WITH(resolve_file(shared_gguf("llama.cpp/ggml-vocab-bert-bge.gguf")),
                    Contains("with a learned position table (position_embd.weight), not RoPE (rope type NEOX, unused"));
  for (const char* none : {"llama.cpp/ggml-vocab-mpt.gguf", "llama.cpp/ggml-vocab-refact.gguf"}) {
    INFO(none);
    CHECK_THROWS_WITH(resolve_file(shared_gguf(none)), Contains("with ALiBi, not RoPE (rope type NONE)"));
  }
  CHECK_THROWS_WITH(resolve_file(shared_gguf("llama.cpp/ggml-vocab-gpt-2.gguf")),
                    Contains("with a learned position table (position_embd.weight), not RoPE (rope type NONE)"));
  const RopeConfig wide = resolve_file(shared_gguf("generated/v2-wide-types.gguf"));
  CHECK(has_note(wide, "llama.context_length is stored as u64; llama.cpp requires u32 and refuses to load the file"));
  CHECK(has_note(wide, "llama.rope.freq_base is stored as f64; llama.cpp requires f32"));
  CHECK(has_note(resolve_file(shared_gguf("generated/v1-llama-metadata.gguf")), "GGUF version 1: llama.cpp refuses it"));
  CHECK_THROWS_WITH(resolve_file(shared_gguf("ollama/test-truncated.gguf")), Contains("byte 4: the file ends after 6 bytes"));
}

TEST_CASE("gguf rope: files llama.cpp cannot run are refused naming the key", "[gguf][rope]") {
  CHECK_THROWS_WITH(resolve_bytes(GgufWriter().u32("llama.context_length", 1)), Contains("no general.architecture key"));
  CHECK_THROWS_WITH(resolve_bytes(GgufWriter().str("general.architecture", "llamaX")),
                    Contains("general.architecture 'llamaX' is not one of llama.cpp's architectures"));
  GgufWriter base;
  base.str("general.architecture", "llama").u32("llama.embedding_length", 4096).u32("llama.attention.head_count", 32);
  CHECK_THROWS_WITH(resolve_bytes(base), Contains("no llama.context_length (llama.cpp requires it)"));
  GgufWriter dyn = base;
  dyn.u32("llama.context_length", 4096).str("llama.rope.scaling.type", "dynamic");
  CHECK_THROWS_WITH(resolve_bytes(dyn), Contains("llama.rope.scaling.type = \"dynamic\": llama.cpp accepts none, linear, yarn or longrope"));
  GgufWriter ctx0 = base;
  ctx0.u32("llama.context_length", 0);
  CHECK_THROWS_WITH(resolve_bytes(ctx0), Contains("llama.context_length must be an integer within [1, 2147483648]"));
  GgufWriter lr = base;
  lr.u32("llama.context_length", 4096).str("llama.rope.scaling.type", "longrope");
  CHECK_THROWS_WITH(resolve_bytes(lr), Contains("scaling longrope needs the tensors rope_factors_long.weight"));
  // A scaling factor with type none is not applied (llama.cpp forces freq_scale 1).
  GgufWriter none = base;
  none.u32("llama.context_length", 4096).str("llama.rope.scaling.type", "none").f32("llama.rope.scaling.factor", 4);
  CHECK(resolve_bytes(none).scaling == RopeScaling::kNone);
  // A rotary width above the head is named by its keys, not as a --partial-rotary-factor nobody
  // gave (issue 26 item 15): 256 rotated dims, 4096 / 32 = 128 per head.
  GgufWriter wide = base;
  wide.u32("llama.context_length", 4096).u32("llama.rope.dimension_count", 256);
  CHECK_THROWS_WITH(resolve_bytes(wide), "w.gguf: llama.rope.dimension_count = 256 exceeds the head size 128 "
                                         "(llama.embedding_length / llama.attention.head_count): llama.cpp rotates at "
                                         "most the whole head");
  // A rope_freqs.weight shorter than rotary_dim/2 names the file it came from (issue 26 item 15).
  GgufWriter short_freqs = base;
  short_freqs.u32("llama.context_length", 4096).tensor_f32("rope_freqs.weight", {1.0f, 2.0f});
  CHECK_THROWS_WITH(compute_frequencies(resolve_bytes(short_freqs)),
                    "w.gguf: rope_freqs.weight has 2 values; ggml needs at least rotary_dim/2 = 64");
  // The old key rope.scale_linear still gives the linear factor.
  GgufWriter old = base;
  old.u32("llama.context_length", 4096).f32("llama.rope.scale_linear", 2);
  CHECK(*resolve_bytes(old).factor == 2.0);
}

// llama.cpp's graphs, not llama_model_rope_type, decide: starcoder.cpp and bert.cpp (LLM_ARCH_BERT)
// add ggml_get_rows(pos_embd, inp_pos) and call no ggml_rope_ext although their rope types are
// NORM and NEOX; baichuan.cpp uses ALiBi for 40 layers (13B) and RoPE for 32 (7B).
TEST_CASE("gguf rope: starcoder, bert and baichuan-13B are refused naming what llama.cpp uses", "[gguf][rope]") {
  const auto file = [](const std::string& arch, std::uint32_t layers) {
    GgufWriter w;
    w.str("general.architecture", arch).u32(arch + ".context_length", 2048).u32(arch + ".embedding_length", 1024);
    w.u32(arch + ".attention.head_count", 16).u32(arch + ".block_count", layers);
    return w;
  };
  for (const char* arch : {"starcoder", "bert"}) {
    INFO(arch);
    CHECK_THROWS_WITH(resolve_bytes(file(arch, 24)),
                      Contains("w.gguf: llama.cpp runs architecture '" + std::string(arch) +
                               "' with a learned position table (position_embd.weight), not RoPE"));
    CHECK_THROWS_WITH(resolve_bytes(file(arch, 24)), Contains("'posenc model w.gguf' shows it"));
  }
  CHECK_THROWS_WITH(resolve_bytes(file("baichuan", 40)),
                    Contains("architecture 'baichuan' with ALiBi, not RoPE (rope type NORM, unused by its graph)"));
  const RopeConfig seven = resolve_bytes(file("baichuan", 32));  // 7B rotates: 1024 / 16 = 64-dim heads
  CHECK(seven.head_dim == 64);
  CHECK(seven.layout == RopeLayout::kInterleaved);  // NORM
  // A recurrent model has no position encoding at all, and `posenc model` refuses it too.
  CHECK_THROWS_WITH(resolve_bytes(file("mamba", 24)), Contains("without any position encoding (rope type NONE)"));
  // The command line: one line, exit 2, no output file.
  const auto dir = std::filesystem::temp_directory_path() / ("posenc_rope_gguf_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "starcoder.gguf").string();
  file("starcoder", 24).save(path);
  const auto r = run_cli({"rope", "--gguf", path, "-o", (dir / "t.csv").string()});
  CHECK(r.code == 2);
  CHECK(one_line(r.err));
  CHECK_THAT(r.err, Contains("learned position table"));
  CHECK_THAT(r.err, Contains("'posenc model " + path + "' shows it"));
  CHECK_FALSE(std::filesystem::exists(dir / "t.csv"));
  const auto g = run_cli({"generate", "rope", "--hf-config", path, "--len", "4"});
  CHECK(g.code == 2);
  CHECK(one_line(g.err));
  std::filesystem::remove_all(dir);
}
