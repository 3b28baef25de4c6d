#include "posenc/analysis/scheme_traits.hpp"

#include <catch2/catch.hpp>

#include "posenc/schemes/registry.hpp"

namespace {

posenc::ParamMap traits_defaults(const std::string& scheme) { return posenc::ParamMap(posenc::schemes::find_scheme(scheme).params); }

}  // namespace

using posenc::analysis::SchemeKind;

TEST_CASE("scheme kinds: rope rotates, alibi t5 deberta are biases, the rest absolute", "[scheme_traits]") {
  using posenc::analysis::scheme_kind;
  CHECK(scheme_kind("rope") == SchemeKind::kRope);
  for (const char* s : {"alibi", "t5", "deberta", "kerple", "sandwich", "fire"}) CHECK(scheme_kind(s) == SchemeKind::kBias);
  for (const char* s : {"", "input", "integer", "sinusoidal", "learned", "mrope", "axial-rope", "nope", "binary"})
    CHECK(scheme_kind(s) == SchemeKind::kAbsolute);
  CHECK(posenc::analysis::is_axial("mrope"));
  CHECK(posenc::analysis::is_axial("axial-rope"));
  CHECK_FALSE(posenc::analysis::is_axial("rope"));
  CHECK_FALSE(posenc::analysis::is_axial(""));
}

TEST_CASE("every scheme of the registry has a kind and a value name consistent with it", "[scheme_traits]") {
  for (const auto& s : posenc::schemes::schemes()) {
    const bool bias = posenc::analysis::scheme_kind(s.name) == SchemeKind::kBias;
    CHECK(bias == !posenc::analysis::bias_value_name(s.name).empty());
  }
}

TEST_CASE("causal schemes: alibi --form causal and t5 --mode causal only", "[scheme_traits]") {
  auto alibi = traits_defaults("alibi");
  CHECK_FALSE(posenc::analysis::is_causal("alibi", alibi));
  alibi.set("form", std::string("causal"));
  CHECK(posenc::analysis::is_causal("alibi", alibi));
  auto t5 = traits_defaults("t5");
  CHECK_FALSE(posenc::analysis::is_causal("t5", t5));
  t5.set("mode", std::string("causal"));
  CHECK(posenc::analysis::is_causal("t5", t5));
  CHECK_FALSE(posenc::analysis::is_causal("rope", traits_defaults("rope")));
}

TEST_CASE("value names of decay curves: bias, bucket, rope's score, else the metric", "[scheme_traits]") {
  using posenc::analysis::decay_value_name;
  CHECK(decay_value_name("alibi", "dot") == "bias");
  CHECK(decay_value_name("t5", "dot") == "bucket");
  CHECK(decay_value_name("deberta", "cosine") == "bucket");
  CHECK(decay_value_name("rope", "dot") == "score");
  CHECK(decay_value_name("rope", "cosine").empty());
  CHECK(decay_value_name("sinusoidal", "dot").empty());
  CHECK(decay_value_name("", "dot").empty());
}

TEST_CASE("analysis params: rope in float64 unless precision is given", "[scheme_traits]") {
  const auto p = posenc::analysis::analysis_params("rope", traits_defaults("rope"));
  CHECK(p.text("precision") == "f64");
  auto given = traits_defaults("rope");
  given.set("precision", std::string("f32"));
  CHECK(posenc::analysis::analysis_params("rope", given).text("precision") == "f32");
}

TEST_CASE("derived values: alibi's slopes are 1/2 ... 1/256 for 8 heads, none when heads vary", "[scheme_traits]") {
  const auto d = posenc::analysis::derived_values("alibi", traits_defaults("alibi"));
  REQUIRE(d.size() == 1);
  CHECK(d[0].first == "slopes");
  const auto& slopes = std::get<std::vector<double>>(d[0].second);
  REQUIRE(slopes.size() == 8);
  for (std::size_t h = 0; h < 8; ++h) CHECK(slopes[h] == 1.0 / static_cast<double>(2 << h));  // Press et al. §3
  CHECK(posenc::analysis::derived_values("alibi", traits_defaults("alibi"), "heads").empty());
  CHECK(posenc::analysis::derived_values("t5", traits_defaults("t5")).empty());
}

TEST_CASE("masked entries: causal alibi says why its table holds -inf", "[scheme_traits]") {
  posenc::TableInfo info;
  info.scheme = "alibi";
  info.params = {{"form", std::string("symmetric")}};
  CHECK(posenc::analysis::masked_entries_reason(info).empty());
  info.params = {{"form", std::string("causal")}};
  CHECK(posenc::analysis::masked_entries_reason(info) == "causal alibi masks future keys with -inf");
  info.scheme = "input";
  CHECK(posenc::analysis::masked_entries_reason(info).empty());
}

TEST_CASE("rope view: theta from inv_freq, layout from params; refused without inv_freq", "[scheme_traits]") {
  posenc::TableInfo info;
  info.scheme = "x";
  info.results = {{"inv_freq", std::vector<double>{1.0, 0.01}}};
  info.params = {{"layout", std::string("interleaved")}};
  const auto v = posenc::analysis::rope_view(info);
  CHECK(v.theta == std::vector<double>{1.0, 0.01});
  CHECK(v.layout == posenc::analysis::RopeLayout::kInterleaved);
  info.results.clear();
  CHECK_THROWS_WITH(posenc::analysis::rope_view(info), Catch::Contains("inv_freq"));
}

TEST_CASE("figure traits: binary values are bits, alibi t5 deberta heatmaps reduce by max", "[scheme_traits]") {
  using posenc::analysis::heatmap_reduces_by_max;
  using posenc::analysis::values_are_bits;
  CHECK(values_are_bits("binary"));
  for (const char* s : {"integer", "sinusoidal", "rope", "alibi"}) CHECK_FALSE(values_are_bits(s));
  for (const char* s : {"alibi", "t5", "deberta"}) CHECK(heatmap_reduces_by_max(s));
  // Averaged, not maxed: smooth tables and the biases whose cells are not stepped.
  for (const char* s : {"sinusoidal", "rope", "binary", "kerple", "sandwich", "fire", "input"})
    CHECK_FALSE(heatmap_reduces_by_max(s));
}
