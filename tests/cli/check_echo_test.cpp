// `posenc check` reports say what was checked: the command that repeats the run (scheme or
// --input, --hf-config, --identity and every check option that changes a result) and the
// table's settings in effect. Replaying the echoed words gives the same report.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "cli_helpers.hpp"
#include "test_data.hpp"

namespace {

using Catch::Contains;
using Catch::StartsWith;

std::vector<std::string> words(const std::string& s) {
  std::istringstream in(s);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

/// The argv the first two lines of a text report give back: "posenc check ..." and "settings: ...".
std::vector<std::string> echoed_argv(const std::string& report) {
  std::istringstream in(report);
  std::string command, settings;
  std::getline(in, command);
  std::getline(in, settings);
  auto argv = words(command);
  argv.erase(argv.begin());  // "posenc"
  const auto s = words(settings);
  if (!s.empty() && s[0] == "settings:") argv.insert(argv.end(), s.begin() + 1, s.end());
  return argv;
}

}  // namespace

TEST_CASE("check echoes the config and every option that changes the result", "[cli][check][echo]") {
  const std::string yarn = posenc::test::data_path("configs/qwen2.5-7b-yarn.json");
  const auto r = run_cli({"check", "rope", "--hf-config", yarn, "--qk", "same", "--seed", "7", "--tol", "1e-9"});
  REQUIRE(r.code == 0);
  // Before: the first line was "posenc check rope" and nothing else said what was checked.
  CHECK_THAT(r.out, StartsWith("posenc check rope --hf-config " + yarn + " --tol 1e-09 --qk same --seed 7\n"
                               "  settings: --len 50 --dim 128 --base 1000000 "));
  CHECK_THAT(r.out, Contains("--scaling yarn --factor 4 --original-max-position-embeddings 32768"));
  // Only options that matter: no --min-distance / --bound / --max-offset for rope, no --qk for sine.
  CHECK_THAT(r.out, !Contains("--min-distance"));
  const auto unique = run_cli({"check", "sine", "--dim", "2", "--len", "1000", "--identity", "unique"});
  CHECK_THAT(unique.out, StartsWith("posenc check sine --identity unique --min-distance 0.001\n"
                                    "  settings: --len 1000 --dim 2 --frequencies pow2\n"));
  const auto j = nlohmann::json::parse(run_cli({"check", "rope", "--hf-config", yarn, "--format", "json"}).out);
  CHECK(j["command"] == "posenc check rope --hf-config " + yarn + " --tol 1e-06 --qk random --seed 0");
  CHECK(j["options"] == nlohmann::json::parse(R"({"tol": 1e-06, "qk": "random", "seed": 0})"));
}

TEST_CASE("the echoed check command replays to the same report", "[cli][check][echo]") {
  const std::string yarn = posenc::test::data_path("configs/qwen2.5-7b-yarn.json");
  for (const auto& argv : std::vector<std::vector<std::string>>{
           {"check", "rope", "--hf-config", yarn, "--qk", "ones", "--len", "40"},
           {"check", "rope", "--dim", "32", "--scaling", "linear", "--factor", "2", "--precision", "f32"},
           {"check", "sinusoidal", "--len", "40", "--dim", "16", "--tol", "1e-8", "--max-offset", "5"},
           {"check", "learned", "--len", "30", "--dim", "8", "--seed", "3", "--identity", "dot-symmetric,bounded"},
           {"check", "t5", "--len", "20"},
           {"check", "sine", "--dim", "2", "--len", "1000", "--identity", "unique", "--min-distance", "0.01"}}) {
    CAPTURE(argv);
    const auto first = run_cli(argv);
    REQUIRE((first.code == 0 || first.code == 1));
    const auto again = run_cli(echoed_argv(first.out));
    CHECK(again.code == first.code);
    CHECK(again.out == first.out);
  }
}
