// DeepSeek-V4's layer types and its two ropes (see layer_rules.hpp), as DeepseekV4Config.__post_init__
// and RotaryEmbeddingConfigMixin (convert_rope_params_to_dict, standardize_rope_params) build them and
// DeepseekV4Attention / the compressors / the indexer use them: transformers decba1d2 (5.16.0.dev0),
// models/deepseek_v4/configuration_deepseek_v4.py, modeling_deepseek_v4.py, modeling_rope_utils.py.
#include "layer_rules.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "posenc/error.hpp"

namespace posenc::models::detail {
namespace {

using nlohmann::json;

bool v4_defaulted(const HfScope& s, const std::string& key) {
  return std::find(s.defaulted.begin(), s.defaulted.end(), key) != s.defaulted.end();
}

TypeRope::Origin v4_origin(const HfScope& s, const std::string& key) {
  if (v4_defaulted(s, key)) return {fmt::format("{} {}", class_default_source(*s.family), key), ""};
  return {fmt::format("config.json {}{}", s.prefix, key), fmt::format("\"{}{}\"", s.prefix, key)};
}

/// A rope_parameters entry is nested when it holds the rope-type labels main and compress.
bool v4_nested(const json& rp) {
  return rp.is_object() && rp.contains("main") && rp["main"].is_object() && rp.contains("compress") &&
         rp["compress"].is_object();
}

}  // namespace

bool deepseek_v4_layer_types(const HfScope& s, LayerPlan& plan, const std::string& file) {
  const json& cfg = *s.cfg;
  const std::int64_t n = plan.num_layers;
  plan.layer_types.clear();
  auto cr = cfg.find("compress_ratios");
  if (cr != cfg.end() && cr->is_array()) {
    // _COMPRESS_RATIO_TO_LAYER_TYPE {0: sliding, 4: compressed_sparse, 128: heavily_compressed}; the list
    // is cut to num_hidden_layers (the checkpoints carry one more entry, for the MTP layer).
    if (static_cast<std::int64_t>(cr->size()) < n)
      throw Error(fmt::format("{}: \"{}compress_ratios\" holds {} entries for {} layers (DeepseekV4Config needs one "
                              "per layer)",
                              file, s.prefix, cr->size(), n));
    for (std::int64_t i = 0; i < n; ++i) {
      const json& v = (*cr)[static_cast<std::size_t>(i)];
      const std::int64_t r = v.is_number_integer() ? v.get<std::int64_t>() : -1;
      if (r != 0 && r != 4 && r != 128)
        throw Error(fmt::format("{}: \"{}compress_ratios\"[{}] must be 0, 4 or 128 (the ratios DeepseekV4Config maps "
                                "to sliding_attention, compressed_sparse_attention, heavily_compressed_attention; got {})",
                                file, s.prefix, i, v.dump()));
      plan.layer_types.push_back(r == 0 ? "sliding_attention"
                                 : r == 4 ? "compressed_sparse_attention"
                                          : "heavily_compressed_attention");
    }
    plan.layer_types_source = fmt::format(
        "derived: config.json {}compress_ratios (0 sliding_attention, 4 compressed_sparse_attention, 128 "
        "heavily_compressed_attention; the first num_hidden_layers entries, DeepseekV4Config)",
        s.prefix);
    return true;
  }
  // Copies of two strings, not strings built from the literals in the loop: GCC 12 at -O2 warned
  // (-Warray-bounds, a false positive of its inlined std::string constructor) on the literal form.
  const std::string hca = "heavily_compressed_attention", csa = "compressed_sparse_attention";
  for (std::int64_t i = 0; i < n; ++i) plan.layer_types.push_back(i < 2 || (i - 2) % 2 == 0 ? hca : csa);
  plan.layer_types_source = "derived: heavily_compressed_attention on layers 0-1, then compressed_sparse_attention "
                            "and heavily_compressed_attention in turn (DeepseekV4Config's default schedule)";
  return true;
}

std::optional<TypeRope> deepseek_v4_type_rope(const HfScope& s, const std::string& layer_type) {
  const json& cfg = *s.cfg;
  const std::string label = layer_type == "sliding_attention" ? "main" : "compress";
  TypeRope r;
  // partial_rotary_factor: the file's, else the legacy qk_rope_head_dim / head_dim, else 64 / 512.
  const std::int64_t head_dim = int_field(cfg, "head_dim", 512);
  double prf = 64.0 / 512.0;
  TypeRope::Origin prf_origin{"class default (DeepseekV4Config default_partial_rotary_factor 64 / 512)", ""};
  if (auto p = cfg.find("partial_rotary_factor"); p != cfg.end() && p->is_number()) {
    prf = p->get<double>();
    prf_origin = v4_origin(s, "partial_rotary_factor");
  } else if (auto q = cfg.find("qk_rope_head_dim"); q != cfg.end() && q->is_number_integer() && head_dim > 0) {
    prf = static_cast<double>(q->get<std::int64_t>()) / static_cast<double>(head_dim);
    prf_origin = {fmt::format("derived: qk_rope_head_dim / head_dim = {} / {} (DeepseekV4Config.__post_init__)",
                              q->get<std::int64_t>(), head_dim),
                  fmt::format("\"{}qk_rope_head_dim\" / \"{}head_dim\"", s.prefix, s.prefix)};
  }
  const json theta = cfg.contains("rope_theta") && !cfg["rope_theta"].is_null() ? cfg["rope_theta"] : json(10000.0);
  json entry = json::object();
  const std::string rp_key = cfg.contains("rope_parameters") && cfg["rope_parameters"].is_object() ? "rope_parameters"
                                                                                                 : "rope_scaling";
  auto rp = cfg.find(rp_key);
  const bool nested = rp != cfg.end() && v4_nested(*rp);
  if (nested) {
    // "Already nested": each entry as written; standardize_rope_params fills rope_type and rope_theta
    // (config.rope_theta, for compress too) and overwrites partial_rotary_factor.
    entry = (*rp)[label];
    for (const auto& [k, v] : entry.items())
      r.key_origin[k] = {fmt::format("config.json {}{}.{}.{}", s.prefix, rp_key, label, k),
                         fmt::format("\"{}{}.{}.{}\"", s.prefix, rp_key, label, k)};
    if (!entry.contains("rope_theta")) {
      entry["rope_theta"] = theta;
      r.key_origin["rope_theta"] = v4_origin(s, "rope_theta");
    }
  } else if (label == "main") {
    entry = {{"rope_type", "default"}, {"rope_theta", theta}};
    r.key_origin["rope_theta"] = v4_origin(s, "rope_theta");
    r.key_origin["rope_type"] = {"DeepseekV4Config builds the main rope (sliding_attention layers) with rope_type "
                                 "default: rope_scaling goes to the compress rope only",
                                 ""};
  } else {
    // convert_rope_params_to_dict: rope_scaling (or a flat rope_parameters) is the dict the compress rope
    // copies, with rope_theta replaced by compress_rope_theta.
    if (rp != cfg.end() && rp->is_object())
      for (const auto& [k, v] : rp->items()) {
        entry[k] = v;
        r.key_origin[k] = {fmt::format("config.json {}{}.{}", s.prefix, rp_key, k),
                           fmt::format("\"{}{}.{}\"", s.prefix, rp_key, k)};
      }
    entry["rope_theta"] = cfg.contains("compress_rope_theta") ? cfg["compress_rope_theta"] : json(160000.0);
    r.key_origin["rope_theta"] = v4_origin(s, "compress_rope_theta");
  }
  if (!entry.contains("rope_type")) {
    entry["rope_type"] = entry.contains("type") ? entry["type"] : json("default");
    r.key_origin["rope_type"] = entry.contains("type") && r.key_origin.count("type") != 0
                                    ? r.key_origin["type"]
                                    : TypeRope::Origin{"default (no rope_type: standardize_rope_params' setdefault)", ""};
  }
  const bool yarn = entry["rope_type"] == "yarn";
  if (yarn && !nested && !entry.contains("attention_factor")) {
    entry["attention_factor"] = 1.0;
    r.key_origin["attention_factor"] = {"DeepseekV4Config.__post_init__: attention_factor 1.0 for a yarn compress rope "
                                        "(the V4 reference does not scale cos/sin by YaRN's mscale)",
                                        ""};
  }
  if ((yarn || entry["rope_type"] == "llama3" || entry["rope_type"] == "longrope") &&
      !entry.contains("original_max_position_embeddings") && cfg.contains("max_position_embeddings")) {
    entry["original_max_position_embeddings"] = cfg["max_position_embeddings"];
    r.key_origin["original_max_position_embeddings"] = v4_origin(s, "max_position_embeddings");
  }
  entry["partial_rotary_factor"] = prf;
  r.key_origin["partial_rotary_factor"] = prf_origin;
  r.rope_parameters = entry;
  r.rotary_dims_trailing = true;
  r.deepseek_v4_rope = label;
  // The file's YaRN settings, as the engines read them whichever rope they build (a flat rope_scaling
  // or rope_parameters of type yarn with a numeric factor and original_max_position_embeddings).
  if (rp != cfg.end() && rp->is_object() && !nested) {
    const json& y = *rp;
    const auto text = [&](const char* k) { return y.contains(k) && y[k].is_string() ? y[k].get<std::string>() : ""; };
    const auto num = [&](const char* k) -> std::optional<double> {
      return y.contains(k) && y[k].is_number() ? std::optional<double>(y[k].get<double>()) : std::nullopt;
    };
    const std::string type = !text("rope_type").empty() ? text("rope_type") : text("type");
    const auto factor = num("factor"), original = num("original_max_position_embeddings");
    if (type == "yarn" && factor && original && *original >= 1 && *original < 9e15) {
      rope::RopeConfig::FileYarn fy;
      fy.factor = *factor;
      fy.original = static_cast<std::int64_t>(*original);
      fy.beta_fast = num("beta_fast");
      fy.beta_slow = num("beta_slow");
      r.file_yarn = fy;
    }
  }
  r.erase = {"rope_scaling", "rope_parameters", "qk_rope_head_dim", "partial_rotary_factor", "rope_theta"};
  const auto rot = static_cast<std::int64_t>(static_cast<double>(head_dim) * prf);
  r.notes.push_back(fmt::format(
      "DeepSeek-V4 {} rope (rope_parameters['{}']): {}; it rotates the last {} of each {}-dim head ([nope | rope], "
      "apply_rotary_pos_emb rotates x[..., -rope_dim:]) in adjacent pairs (cos/sin repeat_interleave(2), stack(-x2, "
      "x1)), on queries and the shared key/value; the attention output's rope slice is rotated back by the query's "
      "position (cos, -sin) because K = V",
      label, label,
      label == "main" ? "sliding_attention layers (DeepseekV4Attention: rope_layer_type main)"
                      : "compressed_sparse_attention and heavily_compressed_attention layers, and their compressors' "
                        "compressed keys at positions window × compress_rate (CSA 4, HCA 128) and the CSA indexer's "
                        "queries and keys",
      rot, head_dim));
  r.notes.push_back(fmt::format("attention scaling head_dim^-0.5 = {}^-0.5 (DeepseekV4Attention.scaling): no YaRN "
                                "mscale on the logits",
                                head_dim));
  return r;
}

}  // namespace posenc::models::detail
