// The flags of the deberta, mrope and nope schemes that reproduce a model (see
// model_schemes.hpp), from the `posenc model` report:
//  - DeBERTa-v2/v3 (transformers models/deberta_v2/modeling_deberta_v2.py): DebertaV2Encoder
//    takes max_relative_positions < 1 as max_position_embeddings, and build_relative_position
//    buckets q - k with make_log_bucket_position(position_buckets, max_relative_positions)
//    only when position_buckets > 0;
//  - Qwen2-VL / Qwen2.5-VL / Qwen3-VL (models/qwen2_vl, qwen2_5_vl, qwen3_vl): rope_theta,
//    the rotated head width, rope_scaling / rope_parameters mrope_section and mrope_interleaved,
//    vision_config.spatial_merge_size (default 2) and, for Qwen2.5-VL, tokens_per_second
//    (Qwen2_5_VLVisionConfig default 4);
//  - NoPE layers (Llama 4, SmolLM3, Cohere2): the layer count, the interval that gives the
//    report's layers ((layer + 1) % interval == 0), Llama 4's attn_temperature_tuning,
//    attn_scale and floor_scale.
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include <algorithm>

#include "model_internal.hpp"
#include "posenc/error.hpp"
#include "posenc/models/layers.hpp"
#include "posenc/models/model_schemes.hpp"
#include "posenc/formats/json_text.hpp"

namespace posenc::models::detail {
namespace {

const ParamValue* find_value(const MechanismUse& m, const std::string& key) {
  for (const auto& [k, v] : m.values)
    if (k == key) return &v;
  return nullptr;
}

std::int64_t int_value(const MechanismUse& m, const std::string& key) {
  const ParamValue* v = find_value(m, key);
  if (v == nullptr || !std::holds_alternative<std::int64_t>(*v))
    throw Error(fmt::format("internal: the {} report has no integer '{}'", to_string(m.kind), key));
  return std::get<std::int64_t>(*v);
}

double number_value(const MechanismUse& m, const std::string& key) {
  const ParamValue* v = find_value(m, key);
  if (v != nullptr && std::holds_alternative<double>(*v)) return std::get<double>(*v);
  if (v != nullptr && std::holds_alternative<std::int64_t>(*v)) return static_cast<double>(std::get<std::int64_t>(*v));
  throw Error(fmt::format("internal: the {} report has no number '{}'", to_string(m.kind), key));
}

/// The rope the model's M-RoPE and NoPE build on: the report's first (full-attention) rope.
const MechanismUse* primary_rope(const ModelReport& r) {
  for (const auto& m : r.mechanisms)
    if (m.kind == Mechanism::kRope) return &m;
  return nullptr;
}

std::string refer(const ModelReport& r, const std::string& path) {
  return fmt::format("'posenc model {}' shows it", shell_word(path.empty() ? r.source : path));
}

}  // namespace

std::int64_t nope_interval(const std::vector<std::int64_t>& nope_layers, std::int64_t num_layers) {
  if (nope_layers.empty()) return 0;
  const std::int64_t k = nope_layers.front() + 1;
  std::vector<std::int64_t> want;
  for (std::int64_t i = k - 1; i < num_layers; i += k) want.push_back(i);
  return want == nope_layers ? k : 0;
}

void deberta_values(const ModelReport& r, const MechanismUse& m, const std::string& path, ModelScheme& s) {
  const std::int64_t buckets = int_value(m, "position_buckets");
  const std::int64_t max_rel = int_value(m, "max_relative_positions");
  if (buckets <= 0)
    throw Error(fmt::format("{}: position_buckets is {}: this DeBERTa uses q − k unbucketed within ±{} "
                            "(build_relative_position without make_log_bucket_position), which the deberta scheme "
                            "does not tabulate (it buckets): {}",
                            r.source, buckets, max_rel, refer(r, path)));
  s.values = {{"buckets", buckets}, {"max-relative", max_rel}, {"impl", std::string("hf")}};
  s.notes.push_back(fmt::format("c2p/p2c read rel_embeddings rows clamp(bucket ± {0}, 0, {1}) of its 2·{0} = {1} rows "
                                "(att_span = position_buckets)",
                                buckets, 2 * buckets));
}

void mrope_values(const ModelReport& r, const MechanismUse& m, const std::string& config_text, const std::string& path,
                  ModelScheme& s) {
  const MechanismUse* rope = primary_rope(r);
  if (rope == nullptr) throw Error(fmt::format("internal: {} has M-RoPE without a rope", r.source));
  const auto scaling = std::get<std::string>(*find_value(*rope, "scaling"));
  if (scaling != "none")
    throw Error(fmt::format("{}: the model's rope is scaled ({}), which the mrope scheme does not model: {}", r.source,
                            scaling, refer(r, path)));
  const auto& sec = std::get<std::vector<std::int64_t>>(*find_value(m, "mrope_section"));
  if (sec.size() != 3)
    throw Error(fmt::format("{}: mrope_section {} has {} entries; the mrope scheme takes t, h, w (3): {}", r.source,
                            fmt::join(sec, ","), sec.size(), refer(r, path)));
  const bool interleaved = std::get<bool>(*find_value(m, "interleaved"));
  const std::string& t = r.model_type;
  const std::string preset = t.starts_with("qwen3_vl") ? "qwen3-vl" : t.starts_with("qwen2_5_vl") ? "qwen2.5-vl" : "qwen2-vl";
  s.values = {{"preset", preset},
              {"dim", int_value(*rope, "rotary_dim")},
              {"base", number_value(*rope, "base")},
              {"sections", fmt::format("{}", fmt::join(sec, ","))},
              {"mrope-layout", std::string(interleaved ? "interleaved" : "sectioned")},
              {"layout", std::string("half")}};
  // The vision tower's numbers decide image/video positions: read them when the file has them.
  const auto root = nlohmann::json::parse(formats::python_json_literals(config_text), nullptr, /*allow_exceptions=*/false);
  const nlohmann::json* vision = root.is_object() && root.contains("vision_config") && root["vision_config"].is_object()
                                     ? &root["vision_config"]
                                     : nullptr;
  const std::int64_t merge = vision != nullptr ? int_field(*vision, "spatial_merge_size", 2) : 2;
  if (merge < 1 || merge > 64)
    throw Error(fmt::format("{}: \"vision_config.spatial_merge_size\" must be an integer within [1, 64] (got {})",
                            r.source, merge));
  s.values.emplace_back("merge", merge);
  s.notes.push_back(vision != nullptr && vision->contains("spatial_merge_size")
                        ? "spatial_merge_size from vision_config"
                        : "spatial_merge_size 2: the vision config class's default (no vision_config.spatial_merge_size)");
  if (preset == "qwen2.5-vl") {
    const double tps = vision != nullptr ? number_field(*vision, "tokens_per_second", 4.0) : 4.0;
    if (!(tps >= 0 && tps <= 1e6))
      throw Error(fmt::format("{}: \"vision_config.tokens_per_second\" must be a number within [0, 1000000] (got {})",
                              r.source, tps));
    s.values.emplace_back("tokens-per-second", tps);
    if (vision == nullptr || !vision->contains("tokens_per_second"))
      s.notes.push_back("tokens_per_second 4: Qwen2_5_VLVisionConfig's default (no vision_config.tokens_per_second)");
  }
  s.notes.push_back("text tokens have t = h = w, so their rows are the plain rope's ('posenc rope --hf-config'); the "
                    "vision tokens follow get_rope_index (--grid, --text-before, --text-after set the sequence)");
}

void nope_values(const ModelReport& r, const MechanismUse& m, const std::string& path, ModelScheme& s) {
  const std::int64_t layers = r.num_layers;
  const std::int64_t interval = nope_interval(m.layers, layers);
  if (interval == 0)
    throw Error(fmt::format("{}: the layers without RoPE ({}) are not every k-th layer, which nope --interval needs: {}",
                            r.source, layer_ranges(m.layers), refer(r, path)));
  const MechanismUse* rope = primary_rope(r);
  s.values = {{"layers", layers}, {"interval", interval}};
  if (rope != nullptr) s.values.emplace_back("dim", int_value(*rope, "head_dim"));
  const ParamValue* tuning = find_value(m, "attn_temperature_tuning");
  const bool temperature = tuning != nullptr && std::get<bool>(*tuning);
  s.values.emplace_back("temperature", temperature);
  if (temperature) {
    s.values.emplace_back("attn-scale", number_value(m, "attn_scale"));
    s.values.emplace_back("floor-scale", number_value(m, "floor_scale"));
  } else {
    s.notes.push_back("these layers add no position information at all (no query temperature)");
  }
}

}  // namespace posenc::models::detail
