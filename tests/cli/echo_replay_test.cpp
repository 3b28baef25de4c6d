// Every parameter echoed in JSON can be given back as a flag and gives the same table
// (PRODUCT.md: "every number the tool prints can be reproduced").
#include <algorithm>
#include <catch2/catch.hpp>

#include "test_data.hpp"
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli_helpers.hpp"
#include "posenc/schemes/registry.hpp"

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
  for (const auto& s : posenc::schemes::schemes()) runs.push_back({s.name});
  for (const char* convention : {"paper", "tensor2tensor", "fairseq"})
    runs.push_back({"sinusoidal", "--convention", convention});
  // rope echoes the settings in effect, including those a config.json gave: replayed without
  // the file, they make the same table (and the same results: inv_freq, attention factor).
  const std::string configs = posenc::test::data_path("configs/");
  for (const char* model : {"llama-2-7b-chat", "llama-3.1-8b", "qwen2.5-7b-yarn", "deepseek-r1", "phi-3.5-mini", "phi-2",
                            "gpt-neox-20b"})
    runs.push_back({"rope", "--hf-config", configs + model + ".json"});
  for (std::vector<std::string> flags : std::vector<std::vector<std::string>>{
           {"--scaling", "linear", "--factor", "2"},
           {"--scaling", "ntk", "--factor", "4", "--dim", "128", "--base", "500000"},
           {"--scaling", "dynamic", "--factor", "2", "--max-position-embeddings", "2048", "--seq-len", "4096"},
           {"--scaling", "yarn", "--factor", "4", "--original-max-position-embeddings", "4096", "--beta-fast", "16",
            "--mscale", "0.707", "--truncate", "false"},
           {"--scaling", "llama3", "--factor", "8", "--original-max-position-embeddings", "8192", "--low-freq-factor",
            "2", "--high-freq-factor", "8"},
           {"--scaling", "proportional", "--factor", "2", "--rotary-dim", "32"},
           {"--scaling", "linear", "--factor", "2", "--beta-fast", "16"},  // ignored by linear: not echoed
           {"--partial-rotary-factor", "0.5", "--dim", "80"},
           {"--rotary-dim", "16", "--layout", "interleaved"},
           {"--convention", "meta", "--table", "sin"},
           {"--convention", "ggml", "--scaling", "yarn", "--factor", "2", "--original-max-position-embeddings", "2048"},
           {"--precision", "f64", "--apply-attention-factor", "false", "--table", "angle"}}) {
    flags.insert(flags.begin(), "rope");
    runs.push_back(flags);
  }
  for (const auto& run : runs) {
    std::vector<std::string> args = {"generate"};
    args.insert(args.end(), run.begin(), run.end());
    args.insert(args.end(), {"--len", "5", "--format", "json", "--dtype", "float64"});
    const auto first = run_cli(args);
    std::string shown;
    for (const auto& a : run) shown += a + " ";
    INFO(shown << ": " << first.err);
    REQUIRE(first.code == 0);
    const auto params = nlohmann::json::parse(first.out)["params"];
    std::vector<std::string> again = {"generate", run[0]};
    for (auto& a : replay_args(posenc::schemes::find_scheme(run[0]), params)) again.push_back(a);
    CHECK(!params.contains("hf-config"));
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

TEST_CASE("rope echoes the settings in effect: no unset ones, none the method ignores, the rotary width once",
          "[cli][echo]") {
  const auto params = [](std::vector<std::string> args) {
    args.insert(args.begin(), {"generate", "rope"});
    args.insert(args.end(), {"--len", "2", "--format", "json"});
    const auto r = run_cli(args);
    INFO(r.err);
    REQUIRE(r.code == 0);
    return nlohmann::json::parse(r.out)["params"];
  };
  const auto plain = params({});
  CHECK(!plain.contains("factor"));  // not set: no "factor": 0 to give back
  CHECK(!plain.contains("mscale"));
  CHECK(!plain.contains("hf-config"));
  CHECK(!plain.contains("partial-rotary-factor"));
  CHECK(plain["rotary-dim"] == 64);
  const auto linear = params({"--scaling", "linear", "--factor", "2", "--beta-fast", "16"});
  CHECK(linear["factor"] == 2.0);
  CHECK(!linear.contains("beta-fast"));  // linear does not read it (a warning says so)
  const auto phi2 = params({"--hf-config", posenc::test::data_path("configs/phi-2.json")});
  CHECK(phi2["partial-rotary-factor"] == 0.4);  // Phi-2's fraction, not its rotary width
  CHECK(!phi2.contains("rotary-dim"));
  const auto llama3 = params({"--hf-config", posenc::test::data_path("configs/llama-3.1-8b.json")});
  CHECK(llama3["scaling"] == "llama3");
  CHECK(llama3["factor"] == 8.0);
  CHECK(llama3["original-max-position-embeddings"] == 8192);
  CHECK(llama3["base"] == 500000.0);
}
