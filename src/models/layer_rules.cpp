// The per-layer rules of hybrid and per-layer-type families (see layer_rules.hpp). Each rule
// restates what the config class's __post_init__ / convert_rope_params_to_dict and the model
// class's forward do at transformers decba1d2 (5.16.0.dev0); the file named in the note.
#include "layer_rules.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <functional>

#include "posenc/error.hpp"

namespace posenc::models::detail {
namespace {

using nlohmann::json;

bool rule_family_is(const HfScope& s, std::string_view type) { return s.family != nullptr && s.family->model_type == type; }

bool rule_defaulted(const HfScope& s, const std::string& key) {
  return std::find(s.defaulted.begin(), s.defaulted.end(), key) != s.defaulted.end();
}

/// "config.json text_config.local_rope_theta" or "class default (ModernBertConfig) local_rope_theta".
std::string rule_origin(const HfScope& s, const std::string& key) {
  return rule_defaulted(s, key) ? fmt::format("{} {}", class_default_source(*s.family), key)
                               : fmt::format("config.json {}{}", s.prefix, key);
}

void derive_types(LayerPlan& plan, const std::function<std::string(std::int64_t)>& type_of, const std::string& why) {
  plan.layer_types.clear();
  for (std::int64_t i = 0; i < plan.num_layers; ++i) plan.layer_types.push_back(type_of(i));
  plan.layer_types_source = "derived: " + why;
}

/// Adds the layers of `types` to `layers` and the types seen to `seen`.
void collect_layers(const LayerPlan& plan, const std::vector<std::string>& types, std::vector<std::int64_t>& layers,
             std::vector<std::string>& seen) {
  for (std::size_t i = 0; i < plan.layer_types.size(); ++i) {
    const auto& t = plan.layer_types[i];
    if (std::find(types.begin(), types.end(), t) == types.end()) continue;
    layers.push_back(static_cast<std::int64_t>(i));
    if (std::find(seen.begin(), seen.end(), t) == seen.end()) seen.push_back(t);
  }
}

void mark_mixers(LayerPlan& plan, const std::vector<std::string>& types, const std::string& source) {
  collect_layers(plan, types, plan.mixer_layers, plan.mixer_types);
  if (!plan.mixer_layers.empty()) plan.mixer_source = source;
}

void mark_unpositioned(LayerPlan& plan, const std::vector<std::string>& types, const std::string& source) {
  collect_layers(plan, types, plan.unpositioned_layers, plan.unpositioned_types);
  if (!plan.unpositioned_layers.empty()) plan.unpositioned_source = source;
}

}  // namespace

bool derive_family_layer_types(const HfScope& s, LayerPlan& plan, const std::string& file) {
  if (s.family == nullptr) return false;
  const json& cfg = *s.cfg;
  const std::string cls(s.family->config_class);
  const std::int64_t n = plan.num_layers;
  if (rule_family_is(s, "qwen3_next")) {
    const std::int64_t k = int_field(cfg, "full_attention_interval", 4);
    if (k < 1) throw Error(fmt::format("{}: \"{}full_attention_interval\" must be at least 1 (got {})", file, s.prefix, k));
    derive_types(plan, [k](std::int64_t i) { return (i + 1) % k != 0 ? "linear_attention" : "full_attention"; },
           fmt::format("full_attention when (layer + 1) % full_attention_interval ({}) == 0, else linear_attention ({})",
                       k, cls));
  } else if (rule_family_is(s, "jamba")) {
    const std::int64_t period = int_field(cfg, "attn_layer_period", 8), offset = int_field(cfg, "attn_layer_offset", 4);
    if (period < 1 || offset < 0 || offset >= period)
      throw Error(fmt::format("{}: \"{}attn_layer_offset\" {} must be within [0, attn_layer_period {}) (JambaConfig)",
                              file, s.prefix, offset, period));
    derive_types(plan, [=](std::int64_t i) { return i % period == offset ? "attention" : "mamba"; },
           fmt::format("attention when layer % attn_layer_period ({}) == attn_layer_offset ({}), else mamba "
                       "(JambaConfig.layers_block_type)",
                       period, offset));
  } else if (rule_family_is(s, "nemotron_h")) {
    auto p = cfg.find("hybrid_override_pattern");
    if (p == cfg.end() || !p->is_string()) return false;
    const std::string pattern = p->get<std::string>();
    if (pattern.empty() || static_cast<std::int64_t>(pattern.size()) > kMaxLayers)
      throw Error(fmt::format("{}: \"{}hybrid_override_pattern\" must hold 1 to {} characters (got {})", file, s.prefix,
                              kMaxLayers, pattern.size()));
    for (char ch : pattern)
      if (std::string_view("ME*-").find(ch) == std::string_view::npos)
        throw Error(fmt::format("{}: \"{}hybrid_override_pattern\" holds '{}': NemotronHConfig reads only M (Mamba2), "
                                "E (MoE), * (attention) and - (MLP)",
                                file, s.prefix, ch));
    plan.num_layers = static_cast<std::int64_t>(pattern.size());  // the pattern's length wins (NemotronHConfig)
    derive_types(plan,
           [&pattern](std::int64_t i) {
             switch (pattern[static_cast<std::size_t>(i)]) {
               case 'M': return "linear_attention";
               case 'E': return "moe";
               case '*': return "full_attention";
               default: return "mlp";
             }
           },
           "hybrid_override_pattern, M linear_attention (Mamba2), E moe, * full_attention, - mlp "
           "(NemotronHConfig._pattern_to_list; its length is the layer count)");
  } else if (rule_family_is(s, "falcon_mamba")) {
    derive_types(plan, [](std::int64_t) { return "mamba"; }, "every layer is a FalconMambaMixer (FalconMambaModel)");
  } else if (rule_family_is(s, "exaone4")) {
    const std::int64_t p = int_field(cfg, "sliding_window_pattern", 4);
    if (p < 1) return false;
    derive_types(plan, [p](std::int64_t i) { return (i + 1) % p != 0 ? "sliding_attention" : "full_attention"; },
           fmt::format("sliding_attention when (layer + 1) % sliding_window_pattern ({}) != 0 ({})", p, cls));
  } else if (rule_family_is(s, "gemma3n_text")) {
    derive_types(plan, [](std::int64_t i) { return (i + 1) % 5 == 0 ? "full_attention" : "sliding_attention"; },
           "full_attention when (layer + 1) % 5 == 0 (Gemma3nTextConfig)");
  } else if (rule_family_is(s, "olmo3")) {
    derive_types(plan, [](std::int64_t i) { return (i + 1) % 4 != 0 ? "sliding_attention" : "full_attention"; },
           "sliding_attention when (layer + 1) % 4 != 0 (Olmo3Config)");
  } else if (rule_family_is(s, "mimo_v2_flash")) {
    derive_types(plan, [](std::int64_t i) { return i == 0 || (i + 1) % 6 == 0 ? "full_attention" : "sliding_attention"; },
           "full_attention on layer 0 and when (layer + 1) % 6 == 0 (MiMoV2FlashConfig)");
  } else if (rule_family_is(s, "gemma4_text")) {
    derive_types(plan,
           [n](std::int64_t i) { return (i + 1) % 6 != 0 && i != n - 1 ? "sliding_attention" : "full_attention"; },
           "sliding_attention when (layer + 1) % 6 != 0, the last layer full_attention (Gemma4TextConfig)");
  } else if (rule_family_is(s, "modernbert")) {
    const std::int64_t k = int_field(cfg, "global_attn_every_n_layers", 3);
    if (k < 1) throw Error(fmt::format("{}: \"{}global_attn_every_n_layers\" must be at least 1 (got {})", file, s.prefix, k));
    derive_types(plan, [k](std::int64_t i) { return i % k != 0 ? "sliding_attention" : "full_attention"; },
           fmt::format("full_attention when layer % global_attn_every_n_layers ({}) == 0 (ModernBertConfig)", k));
  } else if (rule_family_is(s, "deepseek_v4")) {
    return deepseek_v4_layer_types(s, plan, file);
  } else if (is_mixer_rope_family(s)) {
    return mixer_family_layer_types(s, plan, file);
  } else if (rule_family_is(s, "muse_glimmer_text")) {
    derive_types(plan, [n](std::int64_t i) { return (n - 1 - i) % 4 == 0 ? "full_attention" : "sliding_attention"; },
           "full_attention when (num_hidden_layers - 1 - layer) % 4 == 0 (MuseGlimmerTextConfig)");
  } else {
    return false;
  }
  return true;
}

void mark_family_layers(const HfScope& s, LayerPlan& plan) {
  if (s.family == nullptr) return;
  if (is_mixer_rope_family(s)) return mark_mixer_family_layers(s, plan);
  const json& cfg = *s.cfg;
  if (rule_family_is(s, "qwen3_next")) {
    mark_mixers(plan, {"linear_attention"},
           "linear_attention layers run Qwen3NextGatedDeltaNet, not attention: no positions "
           "(modeling_qwen3_next.py, layer_type from config.layer_types)");
  } else if (rule_family_is(s, "jamba")) {
    mark_mixers(plan, {"mamba"}, "mamba layers run JambaMambaMixer: no positions (modeling_jamba.py)");
    mark_unpositioned(plan, {"attention"},
                 "JambaAttention applies no position encoding: apply_rotary_pos_emb is attached to the class "
                 "but its forward never rotates, and the model has no rotary module (modeling_jamba.py)");
  } else if (rule_family_is(s, "nemotron_h")) {
    mark_mixers(plan, {"linear_attention", "moe", "mlp"},
           "linear_attention layers run NemotronHMamba2Mixer; moe and mlp layers are MLP blocks: no attention, no "
           "positions (modeling_nemotron_h.py MIXER_TYPES)");
    mark_unpositioned(plan, {"full_attention"},
                 "NemotronHAttention applies no position encoding: its forward never rotates and NemotronHConfig has "
                 "no rope field (modeling_nemotron_h.py)");
  } else if (rule_family_is(s, "falcon_mamba")) {
    mark_mixers(plan, {"mamba"}, "FalconMambaMixer in every layer: no attention, no positions (modeling_falcon_mamba.py)");
  } else if (rule_family_is(s, "exaone4")) {
    // Exaone4Attention: `if self.sliding_window is None or self.is_sliding: apply_rotary_pos_emb`,
    // with self.sliding_window = config.sliding_window (the class default 4096 when absent).
    auto w = cfg.find("sliding_window");
    const bool hybrid = w == cfg.end() || !w->is_null();
    if (!hybrid) return;
    plan.nope_types = {"full_attention"};
    plan.no_rope_layers.clear();
    for (std::size_t i = 0; i < plan.layer_types.size(); ++i)
      if (plan.layer_types[i] != "sliding_attention") plan.no_rope_layers.push_back(static_cast<std::int64_t>(i));
    if (!plan.no_rope_layers.empty())
      plan.no_rope_source = fmt::format(
          "Exaone4Attention rotates only when sliding_window is None or the layer slides (\"We use global NoPE for "
          "hybrid attention model\"); sliding_window is {}",
          w == cfg.end() ? std::string("4096 (class default)") : w->dump());
  } else if (rule_family_is(s, "gemma4_text")) {
    // Gemma4TextConfig.__post_init__ forces the last layer to full_attention (with a warning).
    if (!plan.layer_types.empty() && plan.layer_types.back() != "full_attention") {
      plan.layer_types.back() = "full_attention";
      plan.layer_types_source += "; the last layer forced to full_attention (Gemma4TextConfig)";
    }
  } else if (rule_family_is(s, "muse_glimmer_text")) {
    // MuseGlimmerTextModel.forward: position_embeddings only where config.layer_rope_theta[i] is nonzero.
    plan.no_rope_layers.clear();
    auto lr = cfg.find("layer_rope_theta");
    if (lr != cfg.end() && lr->is_array()) {
      for (std::size_t i = 0; i < lr->size() && static_cast<std::int64_t>(i) < plan.num_layers; ++i)
        if ((*lr)[i].is_number() && (*lr)[i].get<double>() == 0) plan.no_rope_layers.push_back(static_cast<std::int64_t>(i));
      plan.no_rope_source = fmt::format(
          "config.json {}layer_rope_theta (0 = no RoPE: MuseGlimmerTextModel passes no position embeddings); the "
          "other layers share one rope from rope_parameters",
          s.prefix);
    } else {
      for (std::int64_t i = 0; i < plan.num_layers; ++i)
        if ((plan.num_layers - 1 - i) % 4 == 0) plan.no_rope_layers.push_back(i);
      plan.no_rope_source = "derived: layer_rope_theta 0 when (num_hidden_layers - 1 - layer) % 4 == 0 "
                            "(MuseGlimmerTextConfig)";
    }
  }
}

std::optional<TypeRope> family_type_rope(const HfScope& s, const std::string& layer_type) {
  if (s.family == nullptr) return std::nullopt;
  const json& cfg = *s.cfg;
  TypeRope r;
  const auto theta_from = [&](const std::string& key) {
    auto it = cfg.find(key);
    if (it == cfg.end() || it->is_null()) return;
    r.theta = *it;
    r.theta_source = rule_origin(s, key);
    r.theta_field = fmt::format("\"{}{}\"", s.prefix, key);
  };
  if ((rule_family_is(s, "gemma3_text") || rule_family_is(s, "gemma3n_text")) && layer_type == "sliding_attention") {
    // Gemma3TextModel / Gemma3nTextConfig: the sliding rope is rope_local_base_freq with rope_type default.
    theta_from("rope_local_base_freq");
    r.drop_scaling = true;
    r.scaling_source = "transformers builds the sliding-window rope with rope_type default";
    return r;
  }
  if (rule_family_is(s, "modernbert") && (layer_type == "full_attention" || layer_type == "sliding_attention")) {
    // ModernBertConfig.convert_rope_params_to_dict: rope_scaling goes to both types.
    theta_from(layer_type == "full_attention" ? "global_rope_theta" : "local_rope_theta");
    return r;
  }
  if (rule_family_is(s, "olmo3") && layer_type == "sliding_attention") {
    // Olmo3Config.convert_rope_params_to_dict: rope_scaling updates full_attention only, and the
    // legacy rope_theta is popped for it: sliding_attention takes default_theta.
    r.theta = 500000.0;
    r.theta_source = "class default (Olmo3Config default_theta; a legacy rope_theta is read for full_attention only)";
    r.theta_field = "default_theta";
    r.drop_scaling = true;
    r.scaling_source = "transformers >= 5.13 (commit 326683dc, #46911) applies rope_scaling to full_attention layers "
                       "only; before it every layer was scaled";
    auto t = cfg.find("rope_theta");
    if (t != cfg.end() && t->is_number() && t->get<double>() != 500000.0)
      r.notes.push_back(fmt::format("the file's rope_theta {} is read for full_attention only; sliding_attention layers "
                                    "take Olmo3Config's default_theta 500000",
                                    t->dump()));
    return r;
  }
  if (rule_family_is(s, "deepseek_v4")) return deepseek_v4_type_rope(s, layer_type);
  if (is_mixer_rope_family(s)) return mixer_family_type_rope(s, layer_type);
  if (rule_family_is(s, "gemma4_text") && layer_type == "full_attention") {
    // Gemma4TextConfig: per_layer_config gives full_attention layers head_dim = global_head_dim.
    auto g = cfg.find("global_head_dim");
    if (g != cfg.end() && g->is_number_integer()) {
      r.head_dim = g->get<std::int64_t>();
      r.head_dim_source = rule_origin(s, "global_head_dim") + " (Gemma4TextConfig per_layer_config of full_attention)";
    }
    return r;
  }
  return std::nullopt;
}

bool family_has_type_ropes(const HfScope& s) {
  return rule_family_is(s, "modernbert") || rule_family_is(s, "gemma4_text") || rule_family_is(s, "olmo3") ||
         rule_family_is(s, "gemma3n_text") || rule_family_is(s, "mimo_v2_flash") || rule_family_is(s, "deepseek_v4") ||
         is_mixer_rope_family(s);
}

}  // namespace posenc::models::detail
