// posenc decay: value lists in scheme options, --len, metrics, extras and q.k choices,
// through the command line. Expected values are written out here from their formulas.
#include <catch2/catch.hpp>
#include <cmath>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli_helpers.hpp"

namespace {

// Σ_k cos(w_k Δ), w_k = base^(-2k/d) (the paper's frequencies), written out here.
double sinusoid_dot(int d, double delta, double base = 10000.0) {
  double s = 0;
  for (int k = 0; k < d / 2; ++k) s += std::cos(std::pow(base, -2.0 * k / d) * delta);
  return s;
}

nlohmann::json decay_json(std::vector<std::string> args) {
  args.insert(args.begin(), "decay");
  for (const char* a : {"--format", "json", "--dtype", "float64"}) args.push_back(a);
  const auto r = run_cli(args);
  INFO(r.err);
  REQUIRE(r.code == 0);
  return nlohmann::json::parse(r.out);
}

}  // namespace

TEST_CASE("decay sinusoidal --base 100,1000,10000: one series per value, as --vary", "[cli][decay][lists]") {
  const auto j = decay_json({"sinusoidal", "--dim", "16", "--max-offset", "20", "--base", "100,1000,10000"});
  REQUIRE(j["series"].size() == 3);
  const double bases[] = {100.0, 1000.0, 10000.0};
  for (std::size_t s = 0; s < 3; ++s) {
    CHECK(j["series"][s]["name"] == "base=" + std::to_string(static_cast<int>(bases[s])) + ": dot");
    for (int d = 0; d <= 20; ++d)
      CHECK(j["series"][s]["values"][static_cast<std::size_t>(d)].get<double>() ==
            Approx(sinusoid_dot(16, d, bases[s])).epsilon(0).margin(1e-12));
  }
  CHECK(j["vary"] == "base=100,1000,10000");
  CHECK(j["params"]["base"] == std::vector<double>{100, 1000, 10000});  // the values used, not one of them
  // The same output as --vary.
  const auto a = run_cli({"decay", "sinusoidal", "--dim", "8", "--base", "100,1000", "--format", "csv"});
  const auto b = run_cli({"decay", "sinusoidal", "--dim", "8", "--vary", "base=100,1000", "--format", "csv"});
  CHECK(a.code == 0);
  CHECK(a.out == b.out);
  // Integer options take lists too.
  const auto dims = decay_json({"sinusoidal", "--dim", "8,16", "--max-offset", "2"});
  CHECK(dims["series"][1]["name"] == "dim=16: dot");
  CHECK(dims["series"][1]["values"][0] == 8.0);
}

TEST_CASE("decay value lists: two lists, a list with --vary, or a bad element are refused", "[cli][decay][lists]") {
  const auto two = run_cli({"decay", "sinusoidal", "--dim", "8,16", "--base", "100,1000", "--format", "csv"});
  CHECK(two.code == 2);
  CHECK(one_line(two.err));
  CHECK_THAT(two.err, Catch::Contains("one option at a time"));
  const auto both = run_cli({"decay", "sinusoidal", "--base", "100,1000", "--vary", "dim=8,16", "--format", "csv"});
  CHECK(both.code == 2);
  CHECK_THAT(both.err, Catch::Contains("either --vary or a list of values in --base"));
  const auto bad = run_cli({"decay", "sinusoidal", "--base", "100,0.5", "--format", "csv"});
  CHECK(bad.code == 2);
  CHECK_THAT(bad.err, Catch::Contains("--base: must be a finite number >= 1 (got '0.5')"));
  CHECK(run_cli({"decay", "sinusoidal", "--dim", "8,x", "--format", "csv"}).code == 2);
  CHECK(run_cli({"decay", "sinusoidal", "--base", "100,", "--format", "csv"}).code == 2);
  // Only decay draws series: generate still takes one value.
  CHECK(run_cli({"generate", "sinusoidal", "--base", "100,1000", "--format", "csv"}).code == 2);
}

TEST_CASE("t5 --causal and --bidirectional are aliases of --mode in every command", "[cli][t5]") {
  // REFERENCES §2.6, causal 32/128: distances 0..15 exact, bucket 16 from 16, 17 from 19.
  const auto j = decay_json({"t5", "--causal", "--max-offset", "20"});
  CHECK(j["params"]["mode"] == "causal");
  CHECK(j["offset"][0] == -20);
  const auto& v = j["series"][0]["values"];
  CHECK(v[20 - 15] == 15.0);  // offset -15
  CHECK(v[20 - 16] == 16.0);
  CHECK(v[20 - 18] == 16.0);
  CHECK(v[20 - 19] == 17.0);
  CHECK(decay_json({"t5", "--bidirectional", "--max-offset", "8"})["series"][0]["values"][8] == 24.0);  // rp 8 -> 24
  for (const char* command : {"generate", "check"}) {
    INFO(command);
    const auto flag = run_cli({command, "t5", "--len", "30", "--causal", "--format", "json"});
    const auto mode = run_cli({command, "t5", "--len", "30", "--mode", "causal", "--format", "json"});
    CHECK(flag.code == 0);
    CHECK(flag.out == mode.out);
    CHECK(run_cli({command, "t5", "--len", "30", "--bidirectional", "--format", "json"}).out ==
          run_cli({command, "t5", "--len", "30", "--format", "json"}).out);
  }
  for (const std::vector<std::string>& bad : {std::vector<std::string>{"--causal", "--bidirectional"},
                                              std::vector<std::string>{"--causal", "--mode", "causal"}}) {
    std::vector<std::string> args = {"generate", "t5", "--format", "csv"};
    args.insert(args.end(), bad.begin(), bad.end());
    const auto r = run_cli(args);
    CHECK(r.code == 2);
    CHECK(one_line(r.err));
    CHECK_THAT(r.err, Catch::Contains("excludes"));
  }
  CHECK(run_cli({"decay", "sinusoidal", "--compare", "t5 --causal", "--format", "csv"}).code == 0);
}

TEST_CASE("alibi slopes: in the JSON params and in posenc list (text and JSON)", "[cli][alibi]") {
  // REFERENCES §2.7: n = 6 -> 0.25, 0.0625, 0.015625, 0.00390625, 0.5, 0.125.
  const auto g = run_cli({"generate", "alibi", "--heads", "6", "--len", "2", "--format", "json"});
  REQUIRE(g.code == 0);
  const auto j = nlohmann::json::parse(g.out);
  CHECK(j["params"]["slopes"] == std::vector<double>{0.25, 0.0625, 0.015625, 0.00390625, 0.5, 0.125});
  CHECK(j["results"]["slopes"] == j["params"]["slopes"]);  // kept for readers of "results"
  // posenc list: the default 8 heads' slopes 2^-1 ... 2^-8, one text line and a JSON field.
  const auto text = run_cli({"list"});
  CHECK_THAT(text.out, Catch::Contains("slopes of the default --heads 8: 0.5, 0.25, 0.125, 0.0625, 0.03125, 0.015625, "
                                       "0.0078125, 0.00390625\n"));
  const auto list = nlohmann::json::parse(run_cli({"list", "--format", "json"}).out);
  bool found = false;
  for (const auto& s : list["schemes"])
    if (s["name"] == "alibi") {
      found = true;
      CHECK(s["slopes"] == std::vector<double>{0.5, 0.25, 0.125, 0.0625, 0.03125, 0.015625, 0.0078125, 0.00390625});
    }
  CHECK(found);
}
