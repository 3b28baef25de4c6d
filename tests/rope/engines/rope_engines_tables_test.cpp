// compare_engines compares every convention's cos/sin table with transformers' in one pass
// (src/rope/engines/rope_engines_compare.cpp: the reference table once per block, shared angles,
// a vectorised float64 noise table). Its numbers must be those of rope::compare_rope, the
// position-by-position comparison `rope diff` uses, field for field and bit for bit.
#include <catch2/catch.hpp>
#include <cstring>
#include <string>

#include "posenc/models/rope_settings.hpp"
#include "posenc/parallel.hpp"
#include "posenc/rope/engines/rope_engines.hpp"
#include "posenc/rope/rope_config.hpp"
#include "posenc/rope/rope_report.hpp"
#include "test_data.hpp"

using namespace posenc::rope;

namespace {

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// Every field of compare_engines' rows against compare_rope(hf, row's convention, compared_len),
// and its noise against compare_rope(hf, hf in float64, len).
void check_against_compare_rope(const RopeConfig& c, std::int64_t len) {
  const RopeEnginesReport r = compare_engines(c, len, 1e-2);
  RopeConfig f64 = r.config;
  f64.precision = RopePrecision::kF64;
  const RopeDiff noise = compare_rope(r.config, f64, len);
  CHECK(same_bits(r.noise, std::max(noise.cos_max_abs, noise.sin_max_abs)));
  std::size_t compared = 0;
  for (const RopeEngineRow& row : r.rows) {
    if (!row.ok) continue;
    ++compared;
    INFO(to_string(row.convention));
    RopeConfig e = r.config;
    e.convention = row.convention;
    const RopeDiff want = compare_rope(r.config, e, row.compared_len);
    const RopeDiff& got = row.diff;
    CHECK(got.pairs == want.pairs);
    CHECK(same_bits(got.inv_freq_max_abs, want.inv_freq_max_abs));
    CHECK(same_bits(got.inv_freq_max_rel, want.inv_freq_max_rel));
    CHECK(got.inv_freq_worst_pair == want.inv_freq_worst_pair);
    CHECK(same_bits(got.attention_a, want.attention_a));
    CHECK(same_bits(got.attention_b, want.attention_b));
    CHECK(same_bits(got.cos_max_abs, want.cos_max_abs));
    CHECK(same_bits(got.sin_max_abs, want.sin_max_abs));
    CHECK(got.table_worst_position == want.table_worst_position);
    CHECK(got.table_worst_pair == want.table_worst_pair);
    CHECK(got.same_layout == want.same_layout);
    REQUIRE(got.table_max_abs.size() == want.table_max_abs.size());
    REQUIRE(got.inv_freq_rel.size() == want.inv_freq_rel.size());
    std::size_t differ = 0;
    for (std::size_t i = 0; i < got.table_max_abs.size(); ++i)
      differ += !same_bits(got.table_max_abs[i], want.table_max_abs[i]) || !same_bits(got.inv_freq_rel[i], want.inv_freq_rel[i]);
    CHECK(differ == 0);
  }
  CHECK(compared >= 3);
}

RopeConfig model(const std::string& name) {
  RopeConfig c = posenc::models::read_hf_config(posenc::test::data_path("configs/" + name));
  finalize_rope_config(c);
  return c;
}

}  // namespace

TEST_CASE("compare_engines' tables equal compare_rope's, field for field", "[rope][engines]") {
  // Llama 3.1 (llama3), Phi-3.5 (LongRoPE: caches, short list, attention factor in float64 for
  // TensorRT-LLM), DeepSeek-R1 (YaRN, mscale), Llama 2 linear (vLLM's divided positions), GPT-OSS
  // (truncate false): the kinds of table the engines build. Odd lengths cut the last block.
  posenc::set_threads(2);
  check_against_compare_rope(model("llama-3.1-8b.json"), 3001);
  check_against_compare_rope(model("phi-3.5-mini.json"), 4097);
  check_against_compare_rope(model("deepseek-r1.json"), 1500);
  check_against_compare_rope(model("llama-2-7b-linear.json"), 2049);
  check_against_compare_rope(model("gpt-oss-20b.json"), 999);
  posenc::set_threads(1);  // one block after another on the calling thread
  check_against_compare_rope(model("qwen2.5-7b-yarn.json"), 777);
  RopeConfig f64 = model("llama-3.1-8b.json");  // float64 reference: every table position by position
  f64.precision = RopePrecision::kF64;
  check_against_compare_rope(f64, 300);
  posenc::set_threads(0);
}
