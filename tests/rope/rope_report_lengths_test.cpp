// The lengths a RoPE report uses (original, target) where a config can be read two ways, and
// which LongRoPE list its frequencies come from.
#include <catch2/catch.hpp>

#include <cmath>
#include <numbers>
#include <string>

#include "posenc/rope/rope_config.hpp"
#include "posenc/models/rope_settings.hpp"
#include "posenc/rope/rope_report.hpp"
#include "posenc/schemes/registry.hpp"
#include "test_data.hpp"

using namespace posenc::encodings;
using namespace posenc::rope;
using namespace posenc::schemes;
using namespace posenc::models;
using Catch::Contains;

namespace {

RopeReport report(posenc::ParamMap p) { return make_rope_report(resolve_rope_config(p)); }

posenc::ParamMap with_config(const std::string& name) {
  posenc::ParamMap p(rope_param_specs());
  p.set("hf-config", posenc::test::data_path("configs/" + name));
  return p;
}

bool noted(const RopeReport& r, const std::string& part) {
  for (const auto& n : r.config.notes)
    if (n.find(part) != std::string::npos) return true;
  return false;
}

}  // namespace

TEST_CASE("linear scaling reads max_position_embeddings as the extended context", "[rope][report]") {
  // Llama-2-7B-32K-Instruct (LLaMA-2-7B-32K fine-tuned): linear ×8, max_position_embeddings 32768 = 8 × Llama-2's 4096. The report
  // said "original 32768, target 262144" before.
  auto p = with_config("llama-2-7b-32k-instruct.json");
  const auto r = report(p);
  CHECK(r.original_length == 4096);
  CHECK_THAT(r.original_source, Contains("max_position_embeddings / factor = 32768 / 8"));
  CHECK(r.target_length == 32768);
  CHECK(r.target_source == "max_position_embeddings");
  // Turns within the original 4096 positions with θ_0 = 1: 4096/2π; the target with θ'_0 = 1/8.
  CHECK(r.rows[0].turns_original == Approx(4096 / (2 * std::numbers::pi)).epsilon(1e-12));
  CHECK(r.rows[0].turns_target == Approx(32768 / 8 / (2 * std::numbers::pi)).epsilon(1e-12));
  // The other reading is said, with the flag that selects it.
  CHECK(noted(r, "give --original-max-position-embeddings 32768 (target then 262144)"));
  p.set("original-max-position-embeddings", std::int64_t{32768});
  const auto other = report(p);
  CHECK(other.original_length == 32768);
  CHECK(other.target_length == 262144);
  CHECK(other.target_source == "factor × original");
  CHECK_FALSE(noted(other, "read as the context after"));
  // Gemma-3 4B/12B/27B: linear ×8 on the full-attention layers with a 131072 context.
  posenc::ParamMap g(rope_param_specs());
  g.set("dim", std::int64_t{256});
  g.set("base", 1000000.0);
  g.set("scaling", std::string("linear"));
  g.set("factor", 8.0);
  g.set("max-position-embeddings", std::int64_t{131072});
  const auto gemma = report(g);
  CHECK(gemma.original_length == 16384);
  CHECK(gemma.target_length == 131072);
  // The same reading from a real Gemma-3 12B config (models/gemma-3-12b.json, copied with its
  // source commit): text_config rope_scaling linear ×8 with max_position_embeddings 131072 on the
  // full-attention layers, so original 131072 / 8 = 16384 and target 131072.
  auto g12 = with_config("models/gemma-3-12b.json");
  g12.set("layer-type", std::string("full_attention"));
  const auto gemma12 = report(g12);
  CHECK(gemma12.original_length == 16384);
  CHECK(gemma12.target_length == 131072);
  CHECK(gemma12.config.base == 1000000.0);
  CHECK(gemma12.config.factor.value_or(0) == 8.0);
  // Other methods keep their reading: yarn's original defaults to max_position_embeddings.
  CHECK(report(with_config("qwen2.5-7b-yarn.json")).original_length == 32768);
}

TEST_CASE("a LongRoPE report says which factor list its frequencies use", "[rope][report]") {
  auto p = with_config("phi-3.5-mini.json");
  const auto r = report(p);
  CHECK(r.freqs.longrope_list == "short");
  CHECK(r.target_length == 131072);  // while the short list is what transformers uses up to 4096
  CHECK_THAT(r.longrope_list_source, Contains("no --seq-len: transformers' list up to position 4096"));
  p.set("seq-len", std::int64_t{131072});
  const auto l = report(p);
  CHECK(l.freqs.longrope_list == "long");
  CHECK(l.longrope_list_source == "--seq-len 131072 > original 4096");
  p.set("convention", std::string("ggml"));
  p.set("seq-len", std::int64_t{0});
  CHECK(report(p).longrope_list_source == "llama.cpp picks once by context size: n_ctx 131072 > original 4096");
  CHECK(report(with_config("llama-2-7b-chat.json")).longrope_list_source.empty());
}
