// `posenc model`: the report of every position mechanism of a config.json (see
// model_report.hpp). RoPE-family mechanisms here; tables and biases in model_tables.cpp.
#include "posenc/models/model_report.hpp"
#include "posenc/models/rope_settings.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <iterator>
#include <string_view>
#include <cmath>

#include "model_grids.hpp"
#include "model_internal.hpp"
#include "posenc/rope/rope_config.hpp"
#include "posenc/error.hpp"
#include "posenc/models/transformers_families.hpp"
#include "posenc/formats/file.hpp"
#include "posenc/formats/gguf.hpp"
#include "posenc/models/config_path.hpp"
#include "posenc/models/layers.hpp"
#include "posenc/models/model_gguf.hpp"

namespace posenc::models {
namespace detail {

double number_field(const nlohmann::json& o, const char* key, double fallback) {
  auto it = o.find(key);
  return it != o.end() && it->is_number() ? it->get<double>() : fallback;
}

bool bool_field(const nlohmann::json& o, const char* key, bool fallback) {
  auto it = o.find(key);
  return it != o.end() && it->is_boolean() ? it->get<bool>() : fallback;
}

std::int64_t checked_int(const HfScope& s, const std::string& file, const char* key, std::int64_t lo, std::int64_t hi,
                         std::int64_t fallback) {
  auto it = s.cfg->find(key);
  if (it == s.cfg->end() || it->is_null()) return fallback;
  if (!it->is_number_integer() || it->get<std::int64_t>() < lo || it->get<std::int64_t>() > hi)
    throw Error(fmt::format("{}: \"{}{}\" must be an integer within [{}, {}] (got {})", file, s.prefix, key, lo, hi,
                            it->dump()));
  return it->get<std::int64_t>();
}

std::string shell_word(const std::string& s) {
  const bool safe = !s.empty() && std::all_of(s.begin(), s.end(), [](char ch) {
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
           std::string_view("_./-+:,=@%").find(ch) != std::string_view::npos;
  });
  if (safe) return s;
  std::string out = "'";
  for (char ch : s) out += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return out + "'";
}

std::string where_of(const std::vector<std::int64_t>& layers, std::int64_t num_layers, const std::string& type) {
  if (num_layers > 0 && static_cast<std::int64_t>(layers.size()) == num_layers) return "every layer";
  // No layer count in the file nor a class default for it: the mechanism is in every layer,
  // however many there are (not "layers none").
  if (num_layers <= 0 && layers.empty()) return "every layer";
  std::string w = fmt::format("layers {}", layer_ranges(layers));
  return type.empty() ? w : fmt::format("{} ({})", w, type);
}

/// The rope of one layer type as a mechanism.
MechanismUse rope_use(const rope::RopeConfig& c, const std::vector<std::int64_t>& layers, std::int64_t num_layers,
                      const std::string& type, const std::string& command) {
  const rope::RopeFrequencies f = rope::compute_frequencies(c);
  MechanismUse m{Mechanism::kRope, where_of(layers, num_layers, type), type, layers, {}, {}, ""};
  m.values = {{"head_dim", c.head_dim},
              {"rotary_dim", c.rotary_dim},
              {"base", c.base},
              {"scaling", std::string(to_string(c.scaling))},
              {"factor", f.factor},
              {"layout", std::string(to_string(c.layout))},
              {"attention_factor", f.attention_factor},
              {"original_max_position_embeddings", c.original_length()},
              {"max_position_embeddings", c.max_position_embeddings},
              {"inv_freq", f.inv_freq}};
  if (c.hf_table_layout)
    m.values.emplace_back("hf_table_layout", std::string(to_string(*c.hf_table_layout)));
  for (const auto& n : c.notes) m.notes.push_back(n);
  for (const auto& w : f.warnings) m.notes.push_back(w);
  m.command = command;
  return m;
}

}  // namespace detail

namespace {

using nlohmann::json;
using detail::HfScope;

/// M-RoPE: which of t, h, w each frequency pair follows.
void add_mrope(const HfScope& s, const rope::RopeConfig& c, ModelReport& r) {
  const json* section = nullptr;
  bool interleaved = s.family != nullptr &&
                     (s.family->model_type == "qwen3_vl_text" || s.family->model_type == "qwen3_vl_moe_text");
  for (const char* dict : {"rope_scaling", "rope_parameters"}) {
    auto d = s.cfg->find(dict);
    if (d == s.cfg->end() || !d->is_object()) continue;
    if (auto m = d->find("mrope_section"); m != d->end() && m->is_array()) section = &*m;
    interleaved = detail::bool_field(*d, "mrope_interleaved", interleaved);
  }
  if (section == nullptr) return;
  std::vector<std::int64_t> sec;
  for (const auto& v : *section) {
    if (!v.is_number_integer() || v.get<std::int64_t>() < 0 || v.get<std::int64_t>() > 65536)
      throw Error(fmt::format("{}: \"mrope_section\" must hold integers within [0, 65536] (got {})", r.source,
                              section->dump()));
    sec.push_back(v.get<std::int64_t>());
  }
  const std::int64_t pairs = c.rotary_dim / 2;
  std::vector<std::int64_t> axis(static_cast<std::size_t>(pairs), 0);
  if (interleaved) {
    // apply_interleaved_mrope: pair i follows h when i % 3 == 1 and i < 3·section[1], w when
    // i % 3 == 2 and i < 3·section[2], else t.
    for (std::int64_t i = 0; i < pairs; ++i) {
      if (sec.size() > 1 && i % 3 == 1 && i < 3 * sec[1]) axis[static_cast<std::size_t>(i)] = 1;
      if (sec.size() > 2 && i % 3 == 2 && i < 3 * sec[2]) axis[static_cast<std::size_t>(i)] = 2;
    }
  } else {
    // apply_multimodal_rotary_pos_emb: contiguous chunks of section[0], [1], [2] pairs (in each half).
    std::int64_t i = 0;
    for (std::size_t k = 0; k < sec.size(); ++k)
      for (std::int64_t n = 0; n < sec[k] && i < pairs; ++n, ++i) axis[static_cast<std::size_t>(i)] = static_cast<std::int64_t>(k % 3);
  }
  MechanismUse m{Mechanism::kMrope, "every rope layer", "", {}, {}, {}, ""};
  std::int64_t counts[3] = {0, 0, 0};
  for (auto a : axis) ++counts[a];
  m.values = {{"mrope_section", sec}, {"interleaved", interleaved}, {"pair_axis", axis},
              {"pairs_t", counts[0]}, {"pairs_h", counts[1]}, {"pairs_w", counts[2]}};
  std::int64_t sum = 0;
  for (auto v : sec) sum += v;
  if (sum != pairs)
    m.notes.push_back(fmt::format("mrope_section sums to {}, not rotary_dim/2 = {}", sum, pairs));
  m.notes.push_back("pair_axis: 0 = temporal (t), 1 = height (h), 2 = width (w); text tokens use the same position on "
                    "all three, so the plain RoPE table holds for text");
  if (sec.size() == 3 && sum == pairs && c.scaling == rope::RopeScaling::kNone)  // what the mrope scheme draws
    m.command = fmt::format("posenc generate mrope --hf-config {}", detail::shell_word(r.source));
  r.mechanisms.push_back(std::move(m));
}

/// The layout and rotary width resolve_rope_config would give under --convention hf.
void finish(rope::RopeConfig& c) {
  if (c.label("layout").starts_with("--")) {
    c.layout = c.model_layout.value_or(rope::RopeLayout::kHalf);
    c.set_source("layout", std::string(to_string(c.layout)),
                 c.model_layout ? c.model_layout_source : std::string("default for --convention hf"));
  }
  rope::finalize_rope_config(c, c.label("rotary-dim").starts_with("--") ? 0 : c.rotary_dim);
}

/// The layers that are not attention, and the attention layers with no position signal.
void add_unpositioned(const LayerPlan& plan, ModelReport& r) {
  const auto add = [&](Mechanism kind, const std::vector<std::string>& types, const std::string& source) {
    for (const auto& type : types) {
      const auto layers = layers_of_type(plan, type);
      MechanismUse m{kind, detail::where_of(layers, plan.num_layers, type), type, layers, {}, {}, ""};
      m.values = {{"layers", static_cast<std::int64_t>(layers.size())}};
      m.notes.push_back(source);
      r.mechanisms.push_back(std::move(m));
    }
  };
  add(Mechanism::kMixer, plan.mixer_types, plan.mixer_source);
  add(Mechanism::kNoPositions, plan.unpositioned_types, plan.unpositioned_source);
}

/// A model without RoPE whose layers are mixers and attention without positions (Jamba,
/// Nemotron-H, Falcon Mamba); fields of the file no code reads are listed as such.
void add_hybrid(const HfScope& s, const std::string& text, const std::string& file, ModelReport& r) {
  const LayerPlan plan = parse_layer_plan(text, file);
  r.num_layers = plan.num_layers;
  r.layer_types = plan.layer_types;
  add_unpositioned(plan, r);
  for (const char* key : {"rope_theta", "rope_scaling", "rope_parameters", "partial_rotary_factor"}) {
    auto it = s.cfg->find(key);
    if (it == s.cfg->end() || std::find(s.defaulted.begin(), s.defaulted.end(), key) != s.defaulted.end()) continue;
    r.stated.push_back({s.prefix + key, it->dump(),
                        fmt::format("unread: stated by the file, read by no code ({} has no such field and no layer of "
                                    "{} rotates)",
                                    s.family->config_class, s.family->name)});
  }
  std::vector<std::string> unread;
  for (const auto& d : r.stated) unread.push_back(d.field);
  if (!unread.empty())
    r.notes.push_back(fmt::format("unread: {} {} stated by the file and read by no code ({} has no such field and no "
                                  "layer of {} rotates)",
                                  fmt::join(unread, ", "), unread.size() == 1 ? "is" : "are",
                                  s.family->config_class, s.family->name));
  if (!plan.layer_types_source.empty()) r.notes.push_back("layer types: " + plan.layer_types_source);
}

void add_rope(const HfScope& s, const std::string& text, const std::string& file, ModelReport& r) {
  const LayerPlan plan = parse_layer_plan(text, file);
  r.num_layers = plan.num_layers;
  if (plan.num_layers == 0)
    r.notes.push_back(fmt::format("no layer count: {} gives no num_hidden_layers (nor n_layer, num_layers, n_layers), "
                                  "so RoPE is reported for every layer, however many there are",
                                  file));
  r.layer_types = plan.layer_types;
  rope::RopeConfig primary;
  if (plan.rope_types.empty()) {
    primary = models::parse_hf_config(text, file);
    finish(primary);
    const std::vector<std::int64_t> layers = rope_layers(plan);
    r.mechanisms.push_back(detail::rope_use(primary, layers, plan.num_layers, "", "posenc rope --hf-config " + detail::shell_word(file)));
  } else {
    for (const auto& type : plan.rope_types) {
      rope::RopeConfig c = parse_layer_type_config(text, file, type);
      finish(c);
      if (type == plan.rope_types.front()) primary = c;
      r.mechanisms.push_back(detail::rope_use(c, rope_layers_of_type(plan, type), plan.num_layers, type,
                                             fmt::format("posenc rope --hf-config {} --layer-type {}", detail::shell_word(file), type)));
    }
  }
  if (!plan.no_rope_layers.empty()) {
    MechanismUse m{Mechanism::kNope, detail::where_of(plan.no_rope_layers, plan.num_layers, ""), "", plan.no_rope_layers, {}, {},
                   ""};
    m.values = {{"layers_without_rope", static_cast<std::int64_t>(plan.no_rope_layers.size())}};
    m.notes.push_back(plan.no_rope_source);
    if (detail::nope_interval(plan.no_rope_layers, plan.num_layers) > 0)
      m.command = fmt::format("posenc generate nope --hf-config {} --table layers", detail::shell_word(file));
    if (s.family != nullptr && s.family->model_type == "llama4_text" &&
        detail::bool_field(*s.cfg, "attn_temperature_tuning", true)) {
      // Llama4TextAttention: on NoPE layers queries are scaled by
      // log1p(floor((pos + 1) / floor_scale)) · attn_scale + 1.
      const double floor_scale = detail::number_field(*s.cfg, "floor_scale", 8192);
      const double attn_scale = detail::number_field(*s.cfg, "attn_scale", 0.1);
      std::vector<double> at, scale;
      for (double p : {0.0, floor_scale - 1, 16 * floor_scale - 1, 128 * floor_scale - 1}) {
        at.push_back(p);
        scale.push_back(std::log1p(std::floor((p + 1.0) / floor_scale)) * attn_scale + 1.0);
      }
      m.values.emplace_back("attn_temperature_tuning", true);
      m.values.emplace_back("floor_scale", floor_scale);
      m.values.emplace_back("attn_scale", attn_scale);
      m.values.emplace_back("temperature_positions", at);
      m.values.emplace_back("temperature", scale);
      m.notes.push_back("query temperature on NoPE layers: log1p(floor((position + 1) / floor_scale)) · attn_scale + 1");
    }
    r.mechanisms.push_back(std::move(m));
  }
  if (s.family != nullptr &&
      std::find(s.family->mechanisms.begin(), s.family->mechanisms.end(), Mechanism::kMla) != s.family->mechanisms.end()) {
    const auto rope = detail::checked_int(s, file, "qk_rope_head_dim", 1, 65536, 0);
    const auto nope = detail::checked_int(s, file, "qk_nope_head_dim", 0, 65536, 0);
    MechanismUse m{Mechanism::kMla, "every layer", "", {}, {}, {}, ""};
    const double q_head = static_cast<double>(rope + nope);
    double softmax_scale = q_head > 0 ? 1.0 / std::sqrt(q_head) : 0;
    double mscale = 1;
    if (primary.scaling == rope::RopeScaling::kYarn && primary.mscale_all_dim && *primary.mscale_all_dim > 0 &&
        primary.factor) {
      // DeepseekV3Attention: scaling *= yarn_get_mscale(factor, mscale_all_dim)²
      mscale = rope::yarn_get_mscale(*primary.factor, *primary.mscale_all_dim);
      softmax_scale *= mscale * mscale;
    }
    m.values = {{"qk_rope_head_dim", rope}, {"qk_nope_head_dim", nope}, {"q_head_dim", rope + nope},
                {"softmax_scale", softmax_scale}, {"softmax_mscale", mscale}};
    m.notes.push_back(fmt::format("only qk_rope_head_dim = {} of each {}-dim query/key head rotate; the "
                                  "qk_nope_head_dim part carries no position",
                                  rope, rope + nope));
    r.mechanisms.push_back(std::move(m));
  }
  add_unpositioned(plan, r);
  add_mrope(s, primary, r);
}

}  // namespace

ModelReport parse_model(const std::string& json_text, const std::string& file) {
  json root = detail::parse_root(json_text, file);
  const HfScope s = detail::prepare_scope(root);
  ModelReport r;
  r.source = file;
  r.model_type = s.model_type;
  if (s.family != nullptr) {
    r.family = std::string(s.family->name);
    r.config_class = std::string(s.family->config_class);
    for (const auto& key : s.defaulted)
      r.defaults.push_back({s.prefix + key, (*s.cfg)[key].dump(), detail::class_default_source(*s.family)});
  }
  const auto used = detail::mechanisms_used(s);
  if (s.family == nullptr && !s.model_type.empty()) {
    // No silent guess: what the file states, and no mechanism.
    constexpr std::string_view kPositionWords[] = {
        "rope", "rotary", "theta", "position", "pos_", "window", "layer_types", "head_dim", "partial", "alibi",
        "bucket", "relative", "max_position", "num_hidden_layers", "hidden_size", "num_attention_heads",
        "num_key_value_heads", "n_layer", "n_head", "n_embd"};
    for (const auto& item : s.cfg->items()) {  // no structured binding: clang 14 cannot capture one
      const std::string& key = item.key();
      if (std::any_of(std::begin(kPositionWords), std::end(kPositionWords),
                      [&](std::string_view w) { return key.find(w) != std::string::npos; }))
        r.stated.push_back({s.prefix + key, item.value().dump(), "stated by the file"});
    }
    r.notes.push_back(fmt::format(
        "model_type '{}' is not one posenc knows: it does not tell whether, where or how this model uses positions "
        "(no guess); the fields above are what the file states. 'posenc rope --hf-config {} --assume-family FAMILY' "
        "reads it as a known family",
        s.model_type, file));
    r.notes.push_back(transformers_family_note(s.model_type) + " (data/families/families.json: a table of what the "
                      "code contains, not of which layers use it)");
    return r;
  }
  if (s.family == nullptr) {
    const bool has_rope_fields = s.cfg->contains("rope_theta") || s.cfg->contains("rope_scaling") ||
                                 s.cfg->contains("rope_parameters") || s.cfg->contains("rotary_emb_base");
    if (!has_rope_fields)
      throw Error(fmt::format("{}: the config names no model_type and has no RoPE fields (rope_theta, rope_scaling, "
                              "rope_parameters): posenc cannot tell what it uses; docs/models.md lists the families "
                              "posenc knows",
                              file));
    r.notes.push_back("the config names no model_type: read as it states, RoPE in every layer with transformers' "
                      "rotate_half layout (inferred, not stated)");
    add_rope(s, json_text, file, r);
    return r;
  }
  const auto uses = [&](Mechanism m) { return std::find(used.begin(), used.end(), m) != used.end(); };
  if (uses(Mechanism::kRope)) {
    add_rope(s, json_text, file, r);
  } else if (uses(Mechanism::kMixer) || uses(Mechanism::kNoPositions)) {
    add_hybrid(s, json_text, file, r);
  } else {
    r.num_layers = detail::layer_count(s, file);
    detail::add_table_mechanisms(s, file, r);
    detail::add_grid_mechanisms(root, s, file, r);  // vision towers (model_grids.cpp)
  }
  return r;
}

ModelReport read_model(const std::string& path) {
  if (formats::is_gguf_path(path)) return read_gguf_model(path);  // the magic, whatever the name, or a .gguf name
  const std::string file = resolve_config_path(path, "posenc model");
  return parse_model(formats::read_small_file(file, "posenc model", formats::kMaxConfigBytes), file);
}

}  // namespace posenc::models
