// posenc rope engines and --convention with the engines, through cli::run.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>

#include "cli_helpers.hpp"
#include "test_data.hpp"

using Catch::Contains;
using nlohmann::json;

namespace {
std::string engines_config(const std::string& name) { return posenc::test::data_path("configs/" + name); }
}  // namespace

TEST_CASE("rope engines: exit 0 where every engine agrees, 1 where one differs", "[cli][rope][engines]") {
  const auto agree = run_cli({"rope", "engines", "--hf-config", engines_config("qwen2.5-7b-yarn.json"), "--len", "256"});
  CHECK(agree.code == 0);
  CHECK_THAT(agree.out, Contains("  vllm      agrees bitwise"));
  const auto phi = run_cli({"rope", "engines", "--hf-config", engines_config("phi-3.5-mini.json"), "--len", "256"});
  CHECK(phi.code == 1);
  CHECK_THAT(phi.out, Contains("long_factor where transformers uses short_factor at --seq-len 256"));
  // Started with a context of 4096, vLLM and TensorRT-LLM pick the short list: all agree.
  const auto short_ctx = run_cli({"rope", "engines", "--hf-config", engines_config("phi-3.5-mini.json"), "--len", "256",
                                  "--max-model-len", "4096"});
  CHECK_THAT(short_ctx.out, Contains("  vllm      agrees bitwise"));
  CHECK_THAT(short_ctx.out, Contains("  mlx       differs: long_factor"));  // MLX is always long
}

TEST_CASE("rope engines JSON: one entry per convention with the stable keys", "[cli][rope][engines]") {
  const auto r = run_cli({"rope", "engines", "--hf-config", engines_config("deepseek-r1.json"), "--len", "64", "--format", "json"});
  REQUIRE(r.code == 0);
  const auto j = json::parse(r.out);
  REQUIRE(j["engines"].size() == 7);  // every convention but hf
  for (const auto& e : j["engines"]) {
    if (!e["ok"].get<bool>()) continue;
    for (const char* key : {"inv_freq", "attention_factor", "logit_scale", "cache_len", "cos_max_abs", "verdict"})
      CHECK(e.contains(key));
  }
  CHECK(j["engines"][2]["convention"] == "vllm");
  CHECK(j["engines"][2]["cache_len"] == 163840);                                  // ⌈4096 · 40⌉ rows
  CHECK(j["engines"][2]["logit_scale"].get<double>() == Approx(1.8738542070926265).epsilon(1e-14));  // (0.1 ln 40 + 1)²
}

TEST_CASE("rope engines and --convention refuse bad input in one line", "[cli][rope][engines]") {
  const auto len = run_cli({"rope", "engines", "--hf-config", engines_config("llama-2-7b-chat.json"), "--len", "0"});
  CHECK(len.code == 2);
  CHECK(one_line(len.err));
  const auto conv = run_cli({"rope", "--convention", "vlm"});
  CHECK(conv.code == 2);
  CHECK(one_line(conv.err));
  CHECK_THAT(conv.err, Contains("vllm"));
  const auto key = run_cli({"rope", "--hf-config", engines_config("qwen2.5-7b-yarn-no-original.json"), "--convention", "vllm"});
  CHECK(key.code == 2);
  CHECK(one_line(key.err));
  CHECK_THAT(key.err, Contains("KeyError"));
}

TEST_CASE("rope report of an engine names it, its cache and where it departs", "[cli][rope][engines]") {
  const auto r = run_cli({"rope", "--hf-config", engines_config("llama-2-7b-dynamic.json"), "--convention", "vllm",
                          "--seq-len", "8192"});
  CHECK(r.code == 0);
  CHECK_THAT(r.out, Contains("engine             vLLM"));
  CHECK_THAT(r.out, Contains("cos/sin cache      4096 rows; attention factor on cos/sin"));
  CHECK_THAT(r.out, Contains("where this engine departs from transformers"));
  CHECK_THAT(r.out, Contains("#55910"));
}
