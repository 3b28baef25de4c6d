// MiniMax (MiniMax-Text-01), LFM2 and RecurrentGemma (see layer_rules.hpp): hybrids whose
// non-attention layers (lightning attention, short convolutions, RG-LRU recurrent blocks) carry no
// position encoding and whose attention layers rotate with one rope. As the config classes and
// model classes build them at transformers decba1d2 (5.16.0.dev0): models/minimax/, models/lfm2/,
// models/recurrent_gemma/ (configuration_*.py, modeling_*.py).
#include "layer_rules.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "posenc/error.hpp"

namespace posenc::models::detail {
namespace {

using nlohmann::json;

bool mx_is(const HfScope& s, std::string_view type) { return s.family != nullptr && s.family->model_type == type; }

void mx_derive(LayerPlan& plan, const std::vector<std::string>& types, const std::string& why) {
  plan.layer_types = types;
  plan.layer_types_source = "derived: " + why;
}

}  // namespace

bool is_mixer_rope_family(const HfScope& s) {
  return mx_is(s, "minimax") || mx_is(s, "lfm2") || mx_is(s, "recurrent_gemma");
}

bool mixer_family_layer_types(const HfScope& s, LayerPlan& plan, const std::string& file) {
  const json& cfg = *s.cfg;
  const std::int64_t n = plan.num_layers;
  std::vector<std::string> types;
  if (mx_is(s, "minimax")) {
    // MiniMaxConfig.__post_init__: full_attention on even layers, linear_attention on odd ones (an
    // attn_type_list of the remote-code checkpoints is not read by MiniMaxConfig).
    for (std::int64_t i = 0; i < n; ++i) types.push_back((i + 1) % 2 != 0 ? "full_attention" : "linear_attention");
    mx_derive(plan, types, "full_attention when (layer + 1) % 2 != 0, else linear_attention (MiniMaxConfig)");
    return true;
  }
  if (mx_is(s, "lfm2")) {
    // Lfm2Config.__post_init__: full_attention on the layers of full_attn_idxs (every layer when it is
    // absent or null), conv on the others.
    auto idx = cfg.find("full_attn_idxs");
    std::vector<bool> full(static_cast<std::size_t>(n), idx == cfg.end() || idx->is_null());
    if (idx != cfg.end() && !idx->is_null()) {
      if (!idx->is_array())
        throw Error(fmt::format("{}: \"{}full_attn_idxs\" must be a list of layer indices or null (got {})", file,
                                s.prefix, idx->dump()));
      for (const auto& v : *idx)
        if (v.is_number_integer() && v.get<std::int64_t>() >= 0 && v.get<std::int64_t>() < n)
          full[static_cast<std::size_t>(v.get<std::int64_t>())] = true;
    }
    for (std::int64_t i = 0; i < n; ++i) types.push_back(full[static_cast<std::size_t>(i)] ? "full_attention" : "conv");
    mx_derive(plan, types,
              idx == cfg.end() || idx->is_null()
                  ? "every layer full_attention (Lfm2Config: no layer_types and no full_attn_idxs)"
                  : fmt::format("full_attention on config.json {}full_attn_idxs, conv elsewhere (Lfm2Config)", s.prefix));
    return true;
  }
  if (mx_is(s, "recurrent_gemma")) {
    // RecurrentGemmaConfig.layers_block_type: block_types repeated over the layers (class default
    // recurrent, recurrent, attention); checkpoints store it as "_block_types", which transformers does
    // not read.
    std::vector<std::string> cycle = {"recurrent", "recurrent", "attention"};
    std::string why = "block_types (recurrent, recurrent, attention: RecurrentGemmaConfig's default) repeated over "
                      "the layers (RecurrentGemmaConfig.layers_block_type)";
    if (auto b = cfg.find("block_types"); b != cfg.end() && b->is_array()) {
      cycle.clear();
      for (const auto& v : *b) {
        if (!v.is_string() || (v.get<std::string>() != "recurrent" && v.get<std::string>() != "attention"))
          throw Error(fmt::format("{}: \"{}block_types\" must hold 'recurrent' and 'attention' (the blocks "
                                  "RecurrentGemmaDecoderLayer builds; got {})",
                                  file, s.prefix, v.dump()));
        cycle.push_back(v.get<std::string>());
      }
      if (cycle.empty())
        throw Error(fmt::format("{}: \"{}block_types\" is empty (RecurrentGemmaConfig repeats it over the layers)", file,
                                s.prefix));
      why = fmt::format("config.json {}block_types repeated over the layers (RecurrentGemmaConfig.layers_block_type)",
                        s.prefix);
    }
    for (std::int64_t i = 0; i < n; ++i) types.push_back(cycle[static_cast<std::size_t>(i) % cycle.size()]);
    mx_derive(plan, types, why);
    return true;
  }
  return false;
}

void mark_mixer_family_layers(const HfScope& s, LayerPlan& plan) {
  const auto mark = [&](const std::string& type, const std::string& source) {
    for (std::size_t i = 0; i < plan.layer_types.size(); ++i)
      if (plan.layer_types[i] == type) plan.mixer_layers.push_back(static_cast<std::int64_t>(i));
    if (plan.mixer_layers.empty()) return;
    plan.mixer_types = {type};
    plan.mixer_source = source;
  };
  if (mx_is(s, "minimax"))
    mark("linear_attention",
         "linear_attention layers run MiniMaxLightningAttention (linear attention whose per-head decay exp(-slope · "
         "distance) is part of the recurrence), not softmax attention: no position encoding (modeling_minimax.py "
         "MiniMaxDecoderLayer)");
  else if (mx_is(s, "lfm2"))
    mark("conv", "conv layers run Lfm2ShortConv (a gated causal convolution over conv_L_cache tokens), not attention: "
                 "no position encoding (modeling_lfm2.py Lfm2DecoderLayer)");
  else if (mx_is(s, "recurrent_gemma"))
    mark("recurrent", "recurrent blocks run RecurrentGemmaRecurrentBlock (a causal convolution and the RG-LRU, which "
                      "reads positions only to reset its state at position 0), not attention: no position encoding "
                      "(modeling_recurrent_gemma.py)");
}

std::optional<TypeRope> mixer_family_type_rope(const HfScope& s, const std::string& /*layer_type*/) {
  const json& cfg = *s.cfg;
  TypeRope r;
  const std::string rp_key = cfg.contains("rope_parameters") && cfg["rope_parameters"].is_object() ? "rope_parameters"
                                                                                                 : "rope_scaling";
  auto rp = cfg.find(rp_key);
  const bool has_rp = rp != cfg.end() && rp->is_object() && !rp->empty();
  std::string type = "default";
  if (has_rp) {
    if (auto t = rp->find("rope_type"); t != rp->end() && t->is_string()) type = t->get<std::string>();
    else if (auto lt = rp->find("type"); lt != rp->end() && lt->is_string()) type = lt->get<std::string>();
  }
  if (mx_is(s, "recurrent_gemma") && type != "default")
    throw Error(fmt::format("\"{}{}\" rope_type '{}': RecurrentGemmaRotaryEmbedding supports only the default rope "
                            "(transformers raises ValueError)",
                            s.prefix, rp_key, type));
  // The three rotary classes' compute_default_rope_parameters rotate head_dim (or hidden_size //
  // num_attention_heads) dims: a partial_rotary_factor or rotary_dim of the file is not read.
  const std::int64_t heads = int_field(cfg, "num_attention_heads", 0);
  std::int64_t head_dim = int_field(cfg, "head_dim", 0);
  if (mx_is(s, "recurrent_gemma") && heads > 0) {
    head_dim = int_field(cfg, "hidden_size", 0) / heads;  // RecurrentGemmaConfig.__post_init__ sets it
    r.head_dim = head_dim;
    r.head_dim_source = fmt::format("derived: hidden_size // num_attention_heads = {} // {} "
                                    "(RecurrentGemmaConfig.__post_init__ sets head_dim so)",
                                    int_field(cfg, "hidden_size", 0), heads);
  }
  if (head_dim <= 0 && heads > 0) head_dim = int_field(cfg, "hidden_size", 0) / heads;
  if (type != "default") {
    r.erase = {"rotary_dim"};
    r.notes.push_back(fmt::format("rope_type {}: ROPE_INIT_FUNCTIONS['{}'] (modeling_rope_utils.py) builds the rope; "
                                  "a rotary_dim in the file is read by no transformers code",
                                  type, type));
    if (rp->contains("rope_theta") || !cfg.contains("rope_theta")) return r;
    json entry = *rp;
    entry["rope_theta"] = cfg["rope_theta"];
    r.rope_parameters = entry;
    r.erase = {"rotary_dim", "rope_scaling", "rope_parameters"};
    return r;
  }
  json entry = {{"rope_type", "default"}};
  if (has_rp && rp->contains("rope_theta")) {
    entry["rope_theta"] = (*rp)["rope_theta"];
    r.key_origin["rope_theta"] = {fmt::format("config.json {}{}.rope_theta", s.prefix, rp_key),
                                  fmt::format("\"{}{}.rope_theta\"", s.prefix, rp_key)};
  } else if (cfg.contains("rope_theta") && !cfg["rope_theta"].is_null()) {
    entry["rope_theta"] = cfg["rope_theta"];
    const bool defaulted = std::find(s.defaulted.begin(), s.defaulted.end(), "rope_theta") != s.defaulted.end();
    r.key_origin["rope_theta"] = defaulted ? TypeRope::Origin{fmt::format("{} default_theta", class_default_source(*s.family)), ""}
                                           : TypeRope::Origin{fmt::format("config.json {}rope_theta", s.prefix),
                                                              fmt::format("\"{}rope_theta\"", s.prefix)};
  }
  r.rope_parameters = entry;
  r.erase = {"rope_scaling", "rope_parameters", "rotary_dim", "partial_rotary_factor"};
  std::vector<std::string> unread;
  for (const char* key : {"rotary_dim", "partial_rotary_factor"}) {
    auto it = cfg.find(key);
    if (it != cfg.end() && !it->is_null()) unread.push_back(fmt::format("{}{} {}", s.prefix, key, it->dump()));
    if (has_rp && rp->contains(key)) unread.push_back(fmt::format("{}{}.{} {}", s.prefix, rp_key, key, (*rp)[key].dump()));
  }
  if (mx_is(s, "recurrent_gemma") && !cfg.contains("partial_rotary_factor"))
    unread.push_back("partial_rotary_factor 0.5 (RecurrentGemmaConfig puts it in rope_parameters when the file has none)");
  if (!unread.empty())
    r.notes.push_back(fmt::format(
        "{}: read by no code of this transformers commit: {}.compute_default_rope_parameters rotates all {} dims of "
        "each head (dim = head_dim or hidden_size // num_attention_heads)",
        fmt::join(unread, ", "),
        mx_is(s, "minimax") ? "MiniMaxRotaryEmbedding" : mx_is(s, "lfm2") ? "Lfm2RotaryEmbedding" : "RecurrentGemmaRotaryEmbedding",
        head_dim));
  return r;
}

}  // namespace posenc::models::detail
