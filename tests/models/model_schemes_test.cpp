// --hf-config's scheme choice in the library (models::scheme_of_model): the T5 stack a typed
// --mode picks, and the --help example of each scheme a model config sets. The configs are the
// collection's (tests/data/configs/models, each with its _source); the expected stacks are
// T5's own: the encoder's self-attention is bidirectional, the decoder's causal
// (T5Attention(is_decoder=...) in transformers' modeling_t5.py).
#include <catch2/catch.hpp>

#include <string>

#include "posenc/encodings/scheme.hpp"
#include "posenc/models/model_schemes.hpp"
#include "posenc/schemes/registry.hpp"
#include "test_data.hpp"

using posenc::ParamMap;
using posenc::models::hf_config_example;
using posenc::models::scheme_of_model;

namespace {

std::string schemes_test_value(const posenc::models::ModelScheme& m, const std::string& name) {
  for (const auto& [k, v] : m.values)
    if (k == name && std::holds_alternative<std::string>(v)) return std::get<std::string>(v);
  return "";
}

}  // namespace

TEST_CASE("hf-config: a typed --mode causal picks T5's decoder stack, else the encoder", "[models][hf_config]") {
  const std::string path = posenc::test::data_path("configs/models/t5-base.json");
  ParamMap typed;
  CHECK(schemes_test_value(scheme_of_model(path, "t5", typed), "mode") == "bidirectional");
  typed.set("mode", std::string("causal"), true);
  CHECK(schemes_test_value(scheme_of_model(path, "t5", typed), "mode") == "causal");
  ParamMap defaulted;  // a value the user did not type picks nothing
  defaulted.set("mode", std::string("causal"), false);
  CHECK(schemes_test_value(scheme_of_model(path, "t5", defaulted), "mode") == "bidirectional");
}

TEST_CASE("hf-config: an example for each scheme a model config sets, none for the others", "[models][hf_config]") {
  for (const auto& s : posenc::schemes::schemes()) {
    const bool from_models = s.name == "alibi" || s.name == "t5" || s.name == "sinusoidal" || s.name == "learned" ||
                             s.name == "deberta" || s.name == "mrope" || s.name == "nope" || s.name == "axial-rope";
    INFO(s.name);
    CHECK(hf_config_example(s.name).empty() == !from_models);
  }
  CHECK(hf_config_example("alibi") == "bloom-560m/ --len 64");
  CHECK(hf_config_example("t5") == "t5-base/ --causal");
}
