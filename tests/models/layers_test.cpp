// Layer types, per-layer-type ropes and NoPE layers, against the config classes' own rules:
// Gemma3TextConfig: layer i is sliding when (i + 1) % sliding_window_pattern != 0 (6);
// Gemma3TextModel: the sliding rope uses rope_local_base_freq and rope_type default;
// Llama4TextConfig / SmolLM3Config: use_rope = no_rope_layers[i], else (i + 1) % 4 != 0;
// Cohere2Attention rotates only on sliding-window layers (pattern 4).
#include <catch2/catch.hpp>

#include <chrono>
#include <cmath>

#include "../encodings/error_of.hpp"
#include "posenc/models/layers.hpp"
#include "posenc/models/model_report.hpp"

using namespace posenc::models;
using posenc_test::error_of;
using V = std::vector<std::int64_t>;

TEST_CASE("Gemma 3: sliding layers rotate with rope_local_base_freq, unscaled", "[models][layers]") {
  const std::string text = R"({"model_type": "gemma3_text", "num_hidden_layers": 12, "rope_theta": 1000000.0,
      "rope_scaling": {"rope_type": "linear", "factor": 8.0}})";
  const auto plan = parse_layer_plan(text, "g.json");
  REQUIRE(plan.layer_types.size() == 12);
  CHECK(layers_of_type(plan, "full_attention") == V{5, 11});
  CHECK(plan.rope_types == std::vector<std::string>{"full_attention", "sliding_attention"});
  CHECK(plan.no_rope_layers.empty());
  const auto full = parse_layer_type_config(text, "g.json", "full_attention");
  CHECK(full.base == 1000000.0);
  CHECK(full.scaling == posenc::rope::RopeScaling::kLinear);
  const auto local = parse_layer_type_config(text, "g.json", "sliding_attention");
  CHECK(local.base == 10000.0);  // Gemma3TextConfig rope_local_base_freq default
  CHECK(local.scaling == posenc::rope::RopeScaling::kNone);
  CHECK(!local.factor);
  CHECK(error_of([&] { parse_layer_type_config(text, "g.json", "chunked"); }) ==
        "--layer-type must be one of sliding_attention, full_attention for g.json (got 'chunked')");
}

TEST_CASE("per-layer-type rope_parameters (transformers 5)", "[models][layers]") {
  const std::string text = R"({"model_type": "gemma3_text", "num_hidden_layers": 4, "sliding_window_pattern": 2,
      "rope_parameters": {"full_attention": {"rope_type": "linear", "factor": 8.0, "rope_theta": 1000000.0},
                          "sliding_attention": {"rope_type": "default", "rope_theta": 10000.0}}})";
  CHECK(parse_layer_type_config(text, "g.json", "full_attention").base == 1000000.0);
  CHECK(parse_layer_type_config(text, "g.json", "").base == 1000000.0);  // primary = full_attention
  const auto s = parse_layer_type_config(text, "g.json", "sliding_attention");
  CHECK(s.base == 10000.0);
  CHECK(s.scaling == posenc::rope::RopeScaling::kNone);
  CHECK(parse_layer_plan(text, "g.json").layer_types == std::vector<std::string>{"sliding_attention", "full_attention",
                                                                                "sliding_attention", "full_attention"});
}

TEST_CASE("NoPE layers: Llama 4, SmolLM3, Cohere2", "[models][layers]") {
  // derived from no_rope_layer_interval 4: layers 3, 7, 11 have no RoPE
  CHECK(parse_layer_plan(R"({"model_type": "llama4_text", "num_hidden_layers": 12})", "l.json").no_rope_layers ==
        V{3, 7, 11});
  // an explicit list: 1 = the layer uses RoPE
  CHECK(parse_layer_plan(R"({"model_type": "smollm3", "num_hidden_layers": 5, "no_rope_layers": [1, 0, 1, 1, 0]})",
                         "s.json")
            .no_rope_layers == V{1, 4});
  // Llama 4 wrapper: the text_config's fields
  CHECK(parse_layer_plan(R"({"model_type": "llama4", "text_config": {"model_type": "llama4_text",
        "num_hidden_layers": 8, "hidden_size": 5120, "no_rope_layers": []}})", "l.json").no_rope_layers == V{3, 7});
  const auto c2 = parse_layer_plan(R"({"model_type": "cohere2", "num_hidden_layers": 8})", "c.json");
  CHECK(c2.no_rope_layers == V{3, 7});
  CHECK(c2.rope_types == std::vector<std::string>{"sliding_attention"});
  CHECK(error_of([] { parse_layer_type_config(R"({"model_type": "cohere2", "num_hidden_layers": 8})", "c.json",
                                              "full_attention"); })
            .find("carry no position encoding") != std::string::npos);
  // layers all alike: no types to choose from
  CHECK(error_of([] { parse_layer_type_config(R"({"model_type": "llama"})", "l.json", "sliding_attention"); })
            .find("the model has no layer types") != std::string::npos);
}

TEST_CASE("layer_ranges", "[models][layers]") {
  CHECK(layer_ranges({0, 1, 2, 4, 6, 7}) == "0-2, 4, 6-7");
  CHECK(layer_ranges({}) == "none");
}

// A 60-byte config claiming a million layers used to be cut to 2^20 layers silently, then read
// in full: `posenc model --format json` wrote 48 MB of layer lists for 1,000,000 layers. posenc
// reads at most 8192 layers (docs/models.md; the deepest real models have a few hundred) and
// refuses more in one line naming the field and the limit.
TEST_CASE("a layer count beyond 8192 is refused naming the field and the limit", "[models][layers]") {
  const auto plan_error = [](const std::string& text) { return error_of([&] { parse_layer_plan(text, "c.json"); }); };
  CHECK(plan_error(R"({"model_type": "llama", "num_hidden_layers": 1000000})") ==
        "c.json: \"num_hidden_layers\" must be an integer within [1, 8192] (got 1000000)");
  CHECK(plan_error(R"({"model_type": "smollm3", "num_hidden_layers": 8193})") ==
        "c.json: \"num_hidden_layers\" must be an integer within [1, 8192] (got 8193)");
  CHECK(plan_error(R"({"model_type": "gemma3", "text_config": {"model_type": "gemma3_text", "hidden_size": 8,
      "num_hidden_layers": 1000000000000}})") ==
        "c.json: \"text_config.num_hidden_layers\" must be an integer within [1, 8192] (got 1000000000000)");
  CHECK(plan_error(R"({"model_type": "llama", "n_layer": 18446744073709551615})") ==
        "c.json: \"n_layer\" must be an integer within [1, 8192] (got 18446744073709551615)");
  CHECK(plan_error(R"({"model_type": "llama", "num_hidden_layers": -3})") ==
        "c.json: \"num_hidden_layers\" must be an integer within [1, 8192] (got -3)");
  // layer_types without a count: its length is the count, under the same limit.
  std::string types = R"("full_attention")";
  for (int i = 0; i < 8192; ++i) types += R"(, "full_attention")";
  CHECK(plan_error(R"({"model_type": "llama", "layer_types": [)" + types + "]}") ==
        "c.json: \"layer_types\" must hold at most 8192 entries (got 8193)");
  // The bound itself is accepted: 8192 layers, every 4th without RoPE.
  const auto plan = parse_layer_plan(R"({"model_type": "smollm3", "num_hidden_layers": 8192})", "c.json");
  CHECK(plan.num_layers == 8192);
  CHECK(plan.no_rope_layers.size() == 2048);
  // The `posenc model` report reads the count the same way, with or without RoPE.
  const auto t5 = error_of([] { posenc::models::parse_model(R"({"model_type": "t5", "num_layers": 2000000})", "t.json"); });
  CHECK(t5 == "t.json: \"num_layers\" must be an integer within [1, 8192] (got 2000000)");
  const auto llama = error_of([] {
    posenc::models::parse_model(R"({"model_type": "llama", "hidden_size": 4096, "num_attention_heads": 32,
        "num_hidden_layers": 1000000})", "l.json");
  });
  CHECK(llama == "l.json: \"num_hidden_layers\" must be an integer within [1, 8192] (got 1000000)");
}

// The fuzz target found a 300-byte Llama 4 config with 488,192 layers that took 17 s in
// `posenc model` (each layer looked up in the NoPE list: O(L²)); the report is linear in the
// layers, and at the 8192 bound it takes milliseconds.
TEST_CASE("a report of 8192 layers with NoPE layers is built in linear time", "[models][layers]") {
  const auto start = std::chrono::steady_clock::now();
  const auto r = posenc::models::parse_model(
      R"({"model_type": "llama4_text", "hidden_size": 5120, "num_attention_heads": 40, "num_hidden_layers": 8192})",
      "l.json");
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  REQUIRE(r.mechanisms.size() == 2);
  CHECK(r.mechanisms[0].layers.size() == 6144);  // 3 of every 4 layers rotate
  CHECK(r.mechanisms[1].layers.size() == 2048);  // (layer + 1) % 4 == 0
  CHECK(seconds < 20.0);
}

// Issue 26 item 8: a config without num_hidden_layers (every top-level config of
// tests/data/configs) was reported as "rope — layers none". The count is the config class's
// default where posenc's family table has one (Gemma2Config(num_hidden_layers=26), transformers
// models/gemma2/configuration_gemma2.py), else unknown: RoPE is then in every layer.
TEST_CASE("a config without a layer count: the class default, else every layer", "[models][layers]") {
  const auto llama = parse_model(R"({"model_type": "llama", "hidden_size": 4096, "num_attention_heads": 32,
      "rope_theta": 500000.0})", "l.json");
  CHECK(llama.num_layers == 0);
  REQUIRE(llama.mechanisms.size() == 1);
  CHECK(llama.mechanisms[0].where == "every layer");
  CHECK(llama.mechanisms[0].layers.empty());
  REQUIRE(llama.notes.size() == 1);
  CHECK(llama.notes[0] == "no layer count: l.json gives no num_hidden_layers (nor n_layer, num_layers, n_layers), so "
                          "RoPE is reported for every layer, however many there are");
  // An unknown model_type (issue 27): no mechanism is guessed; the fields the file states are listed.
  const auto other = parse_model(R"({"model_type": "mystery", "head_dim": 64, "rope_theta": 10000.0})", "m.json");
  CHECK(other.mechanisms.empty());
  REQUIRE(other.stated.size() == 2);
  CHECK(other.stated[0].field == "head_dim");
  CHECK(other.stated[0].value == "64");
  CHECK(other.stated[1].field == "rope_theta");
  CHECK(other.stated[1].value == "10000.0");
  REQUIRE(other.notes.size() == 2);  // and what transformers makes of it: no such model_type
  CHECK(other.notes[0].find("model_type 'mystery' is not one posenc knows") == 0);
  CHECK(other.notes[1].find("has no model_type 'mystery'") != std::string::npos);
  // Gemma 2: the class default 26, sliding and full layers alternating.
  const auto gemma2 = parse_model(R"({"model_type": "gemma2"})", "g.json");
  CHECK(gemma2.num_layers == 26);
  REQUIRE(gemma2.mechanisms.size() == 2);
  CHECK(gemma2.mechanisms[0].where == "layers 1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25 (full_attention)");
  CHECK(gemma2.mechanisms[0].layers.size() == 13);
}
