// Every parameter echoed in JSON can be given back as a flag and gives the same table
// (PRODUCT.md: "every number the tool prints can be reproduced").
#include <algorithm>
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli_helpers.hpp"
#include "posenc/encodings/registry.hpp"

namespace {

// Only the scheme's declared parameters are flags; derived values echoed beside them
// (alibi's "slopes") are results, not inputs.
std::vector<std::string> replay_args(const posenc::encodings::SchemeInfo& scheme, const nlohmann::json& params) {
  std::vector<std::string> args;
  for (const auto& [name, value] : params.items()) {
    const bool declared = std::any_of(scheme.params.begin(), scheme.params.end(),
                                      [&](const auto& spec) { return spec.name == name; });
    if (!declared) continue;
    args.push_back("--" + name);
    if (value.is_boolean()) {
      args.push_back(value.get<bool>() ? "true" : "false");
    } else if (value.is_string()) {
      args.push_back(value.get<std::string>());
    } else if (value.is_array()) {
      std::string list;
      for (const auto& x : value) {
        if (!list.empty()) list += ',';
        list += x.dump();
      }
      args.push_back(list);
    } else {
      args.push_back(value.dump());
    }
  }
  return args;
}

}  // namespace

TEST_CASE("echoed parameters replay to the same table", "[cli][echo]") {
  std::vector<std::vector<std::string>> runs;
  for (const auto& s : posenc::encodings::schemes()) {
    if (s.name == "rope") continue;  // rope echoes its resolved settings (factor 0 = not set): see rope tests
    runs.push_back({s.name});
  }
  for (const char* convention : {"paper", "tensor2tensor", "fairseq"})
    runs.push_back({"sinusoidal", "--convention", convention});
  for (const auto& run : runs) {
    std::vector<std::string> args = {"generate"};
    args.insert(args.end(), run.begin(), run.end());
    args.insert(args.end(), {"--len", "5", "--format", "json", "--dtype", "float64"});
    const auto first = run_cli(args);
    INFO(run[0] << (run.size() > 2 ? " " + run[2] : "") << ": " << first.err);
    REQUIRE(first.code == 0);
    const auto params = nlohmann::json::parse(first.out)["params"];
    std::vector<std::string> again = {"generate", run[0]};
    for (auto& a : replay_args(posenc::encodings::find_scheme(run[0]), params)) again.push_back(a);
    again.insert(again.end(), {"--format", "json", "--dtype", "float64"});
    const auto second = run_cli(again);
    INFO(second.err);
    CHECK(second.code == 0);
    CHECK(second.out == first.out);
  }
  // paper sinusoidal does not echo fairseq's padding-idx (given back, it is refused)
  const auto paper = run_cli({"generate", "sinusoidal", "--len", "2", "--format", "json"});
  CHECK(!nlohmann::json::parse(paper.out)["params"].contains("padding-idx"));
  const auto fairseq = run_cli({"generate", "sinusoidal", "--len", "2", "--convention", "fairseq", "--format", "json"});
  CHECK(nlohmann::json::parse(fairseq.out)["params"]["padding-idx"] == 1);
}

TEST_CASE("recurrent's --layout help does not speak of conventions it lacks", "[cli][echo]") {
  const auto r = run_cli({"generate", "recurrent", "--help"});
  CHECK_THAT(r.out, Catch::Contains("auto: interleaved"));
  CHECK_THAT(r.out, !Catch::Contains("tensor2tensor"));
}
