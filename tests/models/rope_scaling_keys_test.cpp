// Issue 26 item 10: keys of rope_scaling / rope_parameters that transformers does not recognise
// were dropped without a word (a typo loses a setting), and a dict holding both "rope_type" and
// the legacy "type" must follow rope_type. The accepted keys per rope_type are those of
// transformers main, src/transformers/modeling_rope_utils.py (read in the 8b-is/transformers
// fork of main at 07dc0bab60a71fa935af8891ddda73e44293e18e): RotaryEmbeddingConfigMixin.
// _validate_<type>_rope_parameters' required_keys | optional_keys, plus what
// `_check_received_keys` always accepts ("type", "partial_rotary_factor"):
//   default {rope_type; rope_theta}      linear, dynamic {rope_type, factor; rope_theta}
//   yarn {rope_type, factor, original_max_position_embeddings; rope_theta, attention_factor,
//         beta_fast, beta_slow, mscale, mscale_all_dim, truncate}
//   longrope {rope_type, short_factor, long_factor, original_max_position_embeddings;
//             rope_theta, attention_factor, factor}
//   llama3 {rope_type, factor, original_max_position_embeddings, low_freq_factor,
//           high_freq_factor, rope_theta}
// Unknown keys: `logger.warning(f"Unrecognized keys in `rope_parameters` for 'rope_type'=...")`.
// rope_type first: `rope_parameters.get("rope_type", rope_parameters.get("type", "default"))`
// (validate_rope, standardize_rope_params).
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>

#include "../cli/cli_helpers.hpp"
#include "posenc/error.hpp"
#include "posenc/models/rope_settings.hpp"
#include "posenc/rope/rope_config.hpp"
#include "test_data.hpp"

using posenc::models::parse_hf_config;
using posenc::rope::RopeConfig;
using posenc::rope::RopeScaling;
using Catch::Contains;

namespace {

std::string llama_with(const std::string& scaling) {
  return R"({"model_type": "llama", "hidden_size": 4096, "num_attention_heads": 32, "max_position_embeddings": 131072,
             "rope_theta": 500000.0, "rope_scaling": )" +
         scaling + "}";
}

}  // namespace

TEST_CASE("a misspelt rope_scaling key is warned about, naming it and the type's keys", "[models][rope-keys]") {
  const RopeConfig c = parse_hf_config(llama_with(R"({"rope_type": "yarn", "factor": 4.0,
      "orignal_max_position_embeddings": 32768})"),
                                       "c.json");
  REQUIRE(c.file_warnings.size() == 1);
  CHECK(c.file_warnings[0] ==
        "c.json: \"rope_scaling.orignal_max_position_embeddings\" is ignored (did you mean "
        "'original_max_position_embeddings'?): rope_type yarn has no such key (transformers warns \"Unrecognized "
        "keys\" and drops it too); its keys are rope_type, factor, original_max_position_embeddings, rope_theta, "
        "attention_factor, beta_fast, beta_slow, mscale, mscale_all_dim, truncate, partial_rotary_factor");
  CHECK(c.original_max_position_embeddings == 0);  // the misspelt value is not read
  // The warning reaches every report of the frequencies.
  RopeConfig f = c;
  posenc::rope::finalize_rope_config(f);
  const auto freqs = posenc::rope::compute_frequencies(f);
  REQUIRE(!freqs.warnings.empty());
  CHECK(freqs.warnings[0] == c.file_warnings[0]);
}

TEST_CASE("an extra rope_scaling key is warned about once per key", "[models][rope-keys]") {
  const RopeConfig c = parse_hf_config(llama_with(R"({"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0,
      "high_freq_factor": 4.0, "original_max_position_embeddings": 8192, "foo": 1, "bar": null})"),
                                       "c.json");
  REQUIRE(c.file_warnings.size() == 2);
  CHECK(c.file_warnings[0] == "c.json: \"rope_scaling.bar\" is ignored: rope_type llama3 has no such key (transformers "
                              "warns \"Unrecognized keys\" and drops it too); its keys are rope_type, factor, "
                              "original_max_position_embeddings, low_freq_factor, high_freq_factor, rope_theta, "
                              "partial_rotary_factor");
  CHECK_THAT(c.file_warnings[1], Contains("\"rope_scaling.foo\" is ignored: rope_type llama3 has no such key"));
  // rope_parameters (transformers 5) is read the same way.
  const RopeConfig p = parse_hf_config(
      R"({"model_type": "llama", "head_dim": 64, "rope_parameters": {"rope_type": "linear", "factor": 2.0,
          "rope_theta": 10000.0, "original_max_position_embeddings": 4096}})",
      "p.json");
  REQUIRE(p.file_warnings.size() == 1);
  CHECK_THAT(p.file_warnings[0], Contains("p.json: \"rope_parameters.original_max_position_embeddings\" is ignored: "
                                          "rope_type linear has no such key"));
  CHECK_THAT(p.file_warnings[0], Contains("its keys are rope_type, factor, rope_theta, partial_rotary_factor"));
}

TEST_CASE("the accepted keys, the legacy type and the M-RoPE keys are not warned about", "[models][rope-keys]") {
  CHECK(parse_hf_config(llama_with(R"({"type": "yarn", "factor": 4.0, "original_max_position_embeddings": 32768,
      "beta_fast": 32, "beta_slow": 1, "mscale": 1, "mscale_all_dim": 1, "attention_factor": 1.0, "truncate": false,
      "rope_theta": 500000.0, "partial_rotary_factor": 1.0})"))
            .file_warnings.empty());
  CHECK(parse_hf_config(R"({"model_type": "qwen2_vl", "hidden_size": 1536, "num_attention_heads": 12,
      "rope_scaling": {"type": "mrope", "mrope_section": [16, 24, 24]}})")
            .file_warnings.empty());
  // A config class's own ignore_keys_at_rope_validation: Ministral3Config's
  // {"llama_4_scaling_beta", "max_position_embeddings"} (configuration_ministral3.py @008e5743).
  const posenc::models::AssumedFamily as_mistral("mistral");  // ministral3 is not in the families table
  CHECK(parse_hf_config(R"({"model_type": "ministral3", "head_dim": 128, "max_position_embeddings": 262144,
      "rope_parameters": {"rope_type": "yarn", "factor": 16.0, "original_max_position_embeddings": 16384,
      "llama_4_scaling_beta": 0.1, "max_position_embeddings": 262144, "rope_theta": 1000000.0}})")
            .file_warnings.empty());
  CHECK(parse_hf_config(R"({"model_type": "llama", "head_dim": 128, "max_position_embeddings": 262144,
      "rope_parameters": {"rope_type": "yarn", "factor": 16.0, "original_max_position_embeddings": 16384,
      "llama_4_scaling_beta": 0.1, "rope_theta": 1000000.0}})")
            .file_warnings.size() == 1);
  // Every shipped config (real models' files) is clean.
  for (const auto& dir : {"configs", "configs/models", "configs/families"})
    for (const auto& e : std::filesystem::directory_iterator(posenc::test::data_path(dir))) {
      if (e.path().extension() != ".json") continue;
      INFO(e.path().string());
      RopeConfig c;
      try {
        c = posenc::models::read_hf_config(e.path().string());
      } catch (const posenc::Error&) {
        continue;  // models without RoPE
      }
      CHECK(c.file_warnings.empty());
    }
}

// A key posenc reads for another method is said once, by the warning about unread settings.
TEST_CASE("a setting of another method is warned about once", "[models][rope-keys]") {
  RopeConfig c = parse_hf_config(llama_with(R"({"rope_type": "linear", "factor": 2.0, "beta_fast": 32})"), "c.json");
  CHECK(c.file_warnings.empty());
  posenc::rope::finalize_rope_config(c);
  const auto f = posenc::rope::compute_frequencies(c);
  REQUIRE(f.warnings.size() == 1);
  CHECK(f.warnings[0] == "c.json: \"rope_scaling.beta_fast\" 32 is ignored: rope_type linear does not read it (yarn does)");
}

TEST_CASE("rope_type is read before the legacy type, and a different type is warned about", "[models][rope-keys]") {
  const RopeConfig c =
      parse_hf_config(llama_with(R"({"type": "yarn", "rope_type": "linear", "factor": 4.0})"), "c.json");
  CHECK(c.scaling == RopeScaling::kLinear);
  REQUIRE(c.file_warnings.size() == 1);
  CHECK(c.file_warnings[0] ==
        "c.json: \"rope_scaling.type\" 'yarn' is ignored: \"rope_scaling.rope_type\" 'linear' is read first, as "
        "transformers does");
  // The same name twice (Qwen2.5-VL writes both): nothing to say.
  CHECK(parse_hf_config(llama_with(R"({"type": "linear", "rope_type": "linear", "factor": 4.0})")).file_warnings.empty());
}

TEST_CASE("posenc rope --hf-config says the unknown key on stderr", "[models][rope-keys][cli]") {
  const auto path = (std::filesystem::temp_directory_path() / "posenc_rope_keys.json").string();
  {
    std::ofstream(path) << llama_with(R"({"rope_type": "linear", "factor": 4.0, "foo": 1})");
  }
  const auto r = run_cli({"rope", "--hf-config", path});
  CHECK(r.code == 0);
  CHECK_THAT(r.err, Contains("posenc: warning: " + path + ": \"rope_scaling.foo\" is ignored: rope_type linear has no "
                             "such key"));
  std::filesystem::remove(path);
}
