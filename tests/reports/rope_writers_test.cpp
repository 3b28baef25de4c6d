// Output of the rope report, diff and permutation writers: stable keys and exact headers.
#include "posenc/reports/rope_writers.hpp"
#include "posenc/models/rope_settings.hpp"

#include <catch2/catch.hpp>

#include "test_data.hpp"
#include <nlohmann/json.hpp>
#include <sstream>

#include "posenc/rope/rope_config.hpp"
#include "posenc/schemes/registry.hpp"

using namespace posenc::encodings;
using namespace posenc::rope;
using namespace posenc::schemes;
using namespace posenc::models;

namespace {
RopeReport llama31() {
  posenc::ParamMap p(rope_param_specs());
  p.set("hf-config", posenc::test::data_path("configs/llama-3.1-8b.json"));
  return make_rope_report(resolve_rope_config(p));
}
}  // namespace

TEST_CASE("rope report JSON has the stable keys", "[rope][writers]") {
  std::ostringstream s;
  posenc::reports::write_rope_report_json(llama31(), s);
  const auto j = nlohmann::json::parse(s.str());
  CHECK(j["rope_type"] == "llama3");
  CHECK(j["rotary_dim"] == 128);
  CHECK(j["inv_freq"].size() == 64);
  CHECK(j["inv_freq_original"].size() == 64);
  CHECK(j["attention_factor"] == 1.0);
  CHECK(j["pairs"].size() == 64);
  CHECK(j["pairs"][30]["regime"] == "blended");
  CHECK(j["llama3"]["unchanged"] == 29);
  CHECK(j["llama3"]["smoothed"] == 6);
  CHECK(j["llama3"]["divided"] == 29);
  CHECK(j["yarn"].is_null());
  bool factor_from_file = false;
  for (const auto& s2 : j["settings"])
    factor_from_file = factor_from_file || (s2["name"] == "factor" && s2["source"] == "config.json rope_scaling.factor");
  CHECK(factor_from_file);
}

TEST_CASE("rope report text shows the band split; CSV has its header", "[rope][writers]") {
  std::ostringstream t, c;
  const auto r = llama31();
  posenc::reports::write_rope_report_text(r, t);
  CHECK_THAT(t.str(), Catch::Contains("llama3 bands       29 unchanged / 6 smoothed / 29 divided"));
  posenc::reports::write_rope_report_csv(r, c);
  CHECK(c.str().rfind("pair,dim_a,dim_b,inv_freq_original,inv_freq,wavelength_original,wavelength,turns_original,"
                      "turns_target,regime,blend\n0,0,64,1,1,",
                      0) == 0);
}

TEST_CASE("NaN is null in JSON and nan in CSV", "[rope][writers]") {
  auto c = RopeConfig{};
  c.scaling = RopeScaling::kNtk;
  c.factor = 4.0;
  finalize_rope_config(c);
  const auto r = make_rope_report(c);  // no original length: turns_original is NaN
  std::ostringstream j, v;
  posenc::reports::write_rope_report_json(r, j);
  CHECK(nlohmann::json::parse(j.str())["pairs"][1]["turns_original"].is_null());
  posenc::reports::write_rope_report_csv(r, v);
  CHECK_THAT(v.str(), Catch::Contains(",nan,"));
}

TEST_CASE("permutation JSON and text", "[rope][writers]") {
  std::ostringstream j, t;
  posenc::reports::write_rope_permutation_json(rope_permutation(4), j);
  const auto parsed = nlohmann::json::parse(j.str());
  CHECK(parsed["to_half"] == std::vector<int>{0, 2, 1, 3});
  CHECK(parsed["to_interleaved"] == std::vector<int>{0, 2, 1, 3});
  posenc::reports::write_rope_permutation_text(rope_permutation(4), t);
  CHECK_THAT(t.str(), Catch::Contains("       1              2\n"));
}

TEST_CASE("diff JSON reports within/tolerance", "[rope][writers]") {
  RopeConfig a;
  finalize_rope_config(a);
  RopeConfig b = a;
  b.convention = RopeConvention::kGgml;
  const auto d = compare_rope(a, b, 16);
  std::ostringstream j, t;
  posenc::reports::write_rope_diff_json(d, {"hf", "ggml"}, 1e-9, 16, j);
  const auto parsed = nlohmann::json::parse(j.str());
  CHECK(parsed["a"] == "hf");
  CHECK(parsed["within"] == false);
  posenc::reports::write_rope_diff_text(d, {"hf", "ggml"}, 1e-5, 16, t);
  CHECK_THAT(t.str(), Catch::Contains("within tolerance"));
}
