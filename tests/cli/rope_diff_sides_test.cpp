// `posenc rope diff`: what each side is, and which flag a message blames.
#include <catch2/catch.hpp>

#include <cmath>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli_helpers.hpp"
#include "test_data.hpp"

namespace {

using Catch::Contains;
using Catch::StartsWith;

std::string sides_config(const std::string& name) { return posenc::test::data_path("configs/" + name); }

}  // namespace

TEST_CASE("rope diff blames the side's own flag for a file it cannot read", "[cli][rope][diff]") {
  for (const std::string side : {"a", "b"}) {
    const auto r = run_cli({"rope", "diff", "--config-" + side, "/nonexistent/posenc/x.json", "--config-" +
                            std::string(side == "a" ? "b" : "a"), sides_config("llama-2-7b-chat.json")});
    CHECK(r.code == 2);
    CHECK(one_line(r.err));
    CHECK_THAT(r.err, StartsWith("posenc: error: --config-" + side + " '/nonexistent/posenc/x.json'"));
    CHECK_THAT(r.err, !Contains("--hf-config"));
  }
  // The shared --hf-config is still named as such.
  const auto shared = run_cli({"rope", "diff", "--hf-config", "/nonexistent/posenc/x.json", "--convention-b", "ggml"});
  CHECK_THAT(shared.err, StartsWith("posenc: error: --hf-config '/nonexistent/posenc/x.json'"));
}

TEST_CASE("rope diff with nothing named per side is refused", "[cli][rope][diff]") {
  // Before: "within tolerance", exit 0, with both sides the same shared settings.
  for (const auto& argv : std::vector<std::vector<std::string>>{
           {"rope", "diff"}, {"rope", "diff", "--hf-config", sides_config("llama-3.1-8b.json")},
           {"rope", "diff", "--scaling", "yarn", "--factor", "4", "--original-max-position-embeddings", "4096"}}) {
    const auto r = run_cli(argv);
    CHECK(r.code == 2);
    CHECK(one_line(r.err));
    CHECK_THAT(r.err, StartsWith("posenc: error: rope diff compares two sides, and nothing differs between them"));
    CHECK_THAT(r.err, Contains("--factor-b 8"));
    CHECK(r.out.empty());
  }
}

TEST_CASE("rope diff warns when the sides resolve to the same settings", "[cli][rope][diff]") {
  // Side a: the defaults with --dim 128; side b: Llama-2-7B (d 128, base 10000, no scaling). Its
  // max_position_embeddings differs, but no method here reads it.
  const auto same = run_cli({"rope", "diff", "--scaling", "none", "--dim", "128", "--config-b", sides_config("llama-2-7b-chat.json")});
  CHECK(same.code == 0);
  CHECK_THAT(same.err, Contains("posenc: warning: rope diff: both sides resolve to the same settings"));
  const auto conventions = run_cli({"rope", "diff", "--hf-config", sides_config("llama-3.1-8b.json"), "--convention-a", "hf",
                                    "--convention-b", "hf"});
  CHECK(conventions.code == 0);
  CHECK_THAT(conventions.err, Contains("resolve to the same settings"));
  // A real difference gets no such warning.
  const auto differ = run_cli({"rope", "diff", "--hf-config", sides_config("llama-3.1-8b.json"), "--precision-b", "f64"});
  CHECK_THAT(differ.err, !Contains("same settings"));
}

TEST_CASE("rope diff overrides any setting on one side", "[cli][rope][diff]") {
  // Linear ×2 on side b only: θ against θ/2, a relative difference of exactly 1/2 on every pair.
  const auto lin = run_cli({"rope", "diff", "--hf-config", sides_config("llama-2-7b-chat.json"), "--scaling-b", "linear",
                            "--factor-b", "2", "--len", "16", "--format", "json"});
  REQUIRE(lin.code == 1);
  const auto j = nlohmann::json::parse(lin.out);
  CHECK(j["b"] == "hf scaling=linear factor=2");
  CHECK(j["inv_freq_max_rel"].get<double>() == Approx(0.5).epsilon(1e-7));
  for (double rel : j["per_pair"]["inv_freq_rel"]) CHECK(rel == Approx(0.5).epsilon(1e-7));
  // A per-side flag overrides that side's config: Llama-3.1 with low = high = 1 (a hard step)
  // against its published 1 / 4 differs only on the 6 blended pairs 29..34.
  const auto step = run_cli({"rope", "diff", "--config-a", sides_config("llama-3.1-8b.json"), "--config-b",
                             sides_config("llama-3.1-8b.json"), "--high-freq-factor-b", "1", "--len", "16", "--format", "json"});
  REQUIRE(step.code == 1);
  const auto rel = nlohmann::json::parse(step.out)["per_pair"]["inv_freq_rel"];
  for (std::size_t i = 0; i < rel.size(); ++i) {
    CAPTURE(i);
    if (i >= 29 && i <= 34) CHECK(rel[i].get<double>() > 0.01);
    else CHECK(rel[i].get<double>() == 0.0);
  }
  // YaRN before and after on one config: the attention factor 1 against 0.1 ln 4 + 1.
  const auto yarn = nlohmann::json::parse(run_cli({"rope", "diff", "--hf-config", sides_config("qwen2.5-7b-yarn.json"),
                                                   "--scaling-a", "none", "--format", "json"}).out);
  CHECK(yarn["attention_factor_a"] == 1.0);
  CHECK(yarn["attention_factor_b"].get<double>() == Approx(0.1 * std::log(4.0) + 1.0).epsilon(1e-12));
}
