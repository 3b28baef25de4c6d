// The per-layer part of the conversion check (see gguf_check.hpp): every layer of the config,
// as transformers builds it (models::read_layer_plan and the per-layer-type ropes), against the
// same layer as llama.cpp runs it (models::gguf_layers), and the M-RoPE sections.
// Rules: transformers' model classes (Gemma3TextModel's rotary_emb_local, Exaone4Attention's
// "global NoPE", Qwen2-VL's mrope_section) and llama.cpp @ 81ff7abe (load_hparams,
// src/models/*.cpp, conversion/*.py via ../shared/reference/gguf.md §2-4).
#include "gguf_check_internal.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>

#include "hf_scope.hpp"
#include "posenc/error.hpp"
#include "posenc/formats/file.hpp"
#include "posenc/formats/gguf.hpp"
#include "posenc/models/gguf_layers.hpp"
#include "posenc/models/layers.hpp"
#include "posenc/models/rope_settings.hpp"
#include "posenc/rope/rope_config.hpp"

namespace posenc::models::detail {
namespace {

using rope::RopeConfig;

std::string lc_num(double v) { return fmt::format("{}", v); }

/// "29 of 34 layers (0-4, 6-10, ...)".
std::string lc_count(const std::vector<std::int64_t>& layers, std::int64_t n) {
  return fmt::format("{} of {} layers ({})", layers.size(), n, layer_ranges(layers));
}

/// The config's side of one layer: its type, whether it rotates and with which rope.
struct HfSide {
  LayerPlan plan;
  std::vector<bool> nope;  ///< per layer
  std::string nope_source;
  std::vector<std::pair<std::string, RopeConfig>> ropes;  ///< by layer type
  std::string primary;                                    ///< the type `hf` is the rope of
  std::optional<std::int64_t> sliding_window;             ///< the config's sliding_window
  std::optional<std::vector<std::int64_t>> sections;      ///< mrope_section
  bool interleaved = false;                               ///< mrope_interleaved (Qwen3-VL)
};

const RopeConfig& hf_rope(HfSide& s, const std::string& type, const RopeConfig& hf, const ParamMap* side_a) {
  if (type.empty() || type == s.primary || s.plan.rope_types.empty()) return hf;
  for (const auto& [t, c] : s.ropes)
    if (t == type) return c;
  ParamMap q = side_a != nullptr ? *side_a : ParamMap(rope::rope_param_specs());
  if (side_a == nullptr) q.set("hf-config", hf.config_file, true);
  q.set("layer-type", type, true);
  s.ropes.emplace_back(type, resolve_rope_config(q, "--config-a"));
  return s.ropes.back().second;
}

/// Reads what the layer plan does not hold: the sliding window, the M-RoPE sections, and
/// EXAONE 4's NoPE rule when the plan does not know it.
void read_hf_extras(const RopeConfig& hf, HfSide& s) {
  const std::string text = formats::read_small_file(hf.config_file, "--config-a", formats::kMaxConfigBytes);
  nlohmann::json root = parse_root(text, hf.config_file);
  const HfScope scope = prepare_scope(root);
  const nlohmann::json& cfg = *scope.cfg;
  if (auto w = cfg.find("sliding_window"); w != cfg.end() && w->is_number_integer()) s.sliding_window = w->get<std::int64_t>();
  s.interleaved = scope.model_type == "qwen3_vl_text" || scope.model_type == "qwen3_vl";
  for (const char* dict : {"rope_scaling", "rope_parameters"}) {
    auto d = cfg.find(dict);
    if (d == cfg.end() || !d->is_object()) continue;
    if (auto m = d->find("mrope_section"); m != d->end() && m->is_array()) {
      std::vector<std::int64_t> sec;
      for (const auto& v : *m)
        if (v.is_number_integer()) sec.push_back(v.get<std::int64_t>());
      s.sections = sec;
    }
    if (auto i = d->find("mrope_interleaved"); i != d->end() && i->is_boolean()) s.interleaved = i->get<bool>();
  }
  // Exaone4Attention: "We use global NoPE for hybrid attention model": RoPE iff
  // config.sliding_window is None or the layer is sliding.
  if (scope.model_type == "exaone4" && s.plan.no_rope_layers.empty() && s.sliding_window) {
    for (std::size_t i = 0; i < s.plan.layer_types.size(); ++i)
      if (s.plan.layer_types[i] != "sliding_attention") s.plan.no_rope_layers.push_back(static_cast<std::int64_t>(i));
    if (!s.plan.no_rope_layers.empty())
      s.plan.no_rope_source = "Exaone4Attention applies RoPE only when sliding_window is None or the layer slides";
  }
}

class LayerChecker {
 public:
  LayerChecker(const RopeConfig& hf, const RopeConfig& gg, const GgufLayers& g, HfSide& s, GgufCheck& out)
      : a_(hf), b_(gg), g_(g), s_(s), out_(out), n_(g.num_layers) {}

  std::string key(const std::string& suffix) const { return b_.gguf->architecture + "." + suffix; }
  void add(std::string what, std::string where, std::string expected, std::string found, std::string cause) {
    out_.findings.push_back({std::move(what), std::move(where), std::move(expected), std::move(found), std::move(cause), true});
  }
  std::string type_a(std::int64_t i) const {
    return s_.plan.layer_types.empty() ? std::string() : s_.plan.layer_types[static_cast<std::size_t>(i)];
  }
  std::string type_b(std::int64_t i) const {
    return g_.layer_types.empty() ? std::string() : g_.layer_types[static_cast<std::size_t>(i)];
  }
  bool nope_b(std::int64_t i) const { return std::binary_search(g_.no_rope_layers.begin(), g_.no_rope_layers.end(), i); }

  void sliding() {
    std::vector<std::int64_t> sa, sb, diff;
    for (std::int64_t i = 0; i < n_; ++i) {
      const bool x = type_a(i) == "sliding_attention", y = type_b(i) == "sliding_attention";
      if (x) sa.push_back(i);
      if (y) sb.push_back(i);
      if (x != y) diff.push_back(i);
    }
    const std::string window = s_.sliding_window ? fmt::format("sliding_window {}", *s_.sliding_window) : "no sliding_window";
    if (diff.empty()) {
      if (!sa.empty() && s_.sliding_window && g_.sliding_window && *s_.sliding_window != *g_.sliding_window)
        add("sliding window", key("attention.sliding_window"),
            fmt::format("{} (config.json sliding_window)", *s_.sliding_window), lc_num(static_cast<double>(*g_.sliding_window)),
            fmt::format("the window of {} differs: those layers attend to another span of positions",
                        lc_count(sa, n_)));
      return;
    }
    const std::string expected = sa.empty() ? fmt::format("no sliding-window layer ({}; {})", window,
                                                          s_.plan.layer_types_source.empty() ? "no layer_types" : s_.plan.layer_types_source)
                                            : fmt::format("{} slide ({}; {})", lc_count(sa, n_), window, s_.plan.layer_types_source);
    const std::string stored = g_.sliding_window ? fmt::format("{} = {}", key("attention.sliding_window"), *g_.sliding_window)
                                                 : key("attention.sliding_window") + " absent";
    const std::string found = sb.empty() ? fmt::format("no sliding-window layer ({})", stored)
                                         : fmt::format("{} slide ({}; {})", lc_count(sb, n_), stored, g_.sliding_rule);
    std::string why;
    const auto rope_text = [](const RopeConfig& c) { return fmt::format("base {}, {}", c.base, scaling_text(c)); };
    const std::string instead =
        sa.empty() ? std::string()
                   : fmt::format(" ({} instead of {})", rope_text(b_), rope_text(hf_rope(s_, "sliding_attention", a_, side_a)));
    if (sb.empty() && b_.gguf->architecture == "gemma3")
      why = "llama.cpp's gemma3 turns sliding-window attention on only when attention.sliding_window > 0 (the converter "
            "writes sliding_window unless sliding_window_pattern is 1): without it those layers attend to every position "
            "and rotate with the global rope" + instead;
    else if (sb.empty())
      why = fmt::format("llama.cpp runs no sliding-window layer for this file (architecture {}): those layers attend to "
                        "every position and rotate with the global rope{}",
                        b_.gguf->architecture, instead);
    else
      why = "the file's sliding-window split differs from the config's: those layers attend with the other window and "
            "rotate with the other layer type's rope";
    add("sliding window", sb.empty() ? key("attention.sliding_window") : key("attention.sliding_window_pattern"), expected,
        found, fmt::format("{} of {} layers switch rope: {}", diff.size(), n_, why));
  }

  void nope() {
    std::vector<std::int64_t> na, diff;
    for (std::int64_t i = 0; i < n_; ++i) {
      const bool x = s_.nope[static_cast<std::size_t>(i)];
      if (x) na.push_back(i);
      if (x != nope_b(i)) diff.push_back(i);
    }
    if (diff.empty()) return;
    const std::string& an = b_.gguf->architecture;
    const std::string where = an == "llama4"    ? key("attention.sliding_window") + " (0 turns llama.cpp's NoPE layers off)"
                              : an == "smollm3" ? std::string("no GGUF key: llama.cpp hard-codes every 4th layer for smollm3")
                              : an == "cohere2" || an == "exaone4"
                                  ? fmt::format("the sliding-window split of {} ({})", an, key("attention.sliding_window"))
                                  : fmt::format("no GGUF key: llama.cpp's {} rotates every layer", an);
    const std::string expected = na.empty() ? "RoPE on every layer" : fmt::format("no RoPE on {} ({})", lc_count(na, n_), s_.plan.no_rope_source);
    const std::string found = g_.no_rope_layers.empty()
                                  ? "RoPE on every layer"
                                  : fmt::format("no RoPE on {} ({})", lc_count(g_.no_rope_layers, n_), g_.no_rope_source);
    add("NoPE layers", where, expected, found,
        fmt::format("{} of {} layers switch between RoPE and no position encoding: llama.cpp has no key for NoPE layers, "
                    "it decides them per architecture",
                    diff.size(), n_));
  }

  void groups(const std::vector<std::int64_t>& contexts) {
    for (std::int64_t i = 0; i < n_; ++i) {
      const std::string ta = type_a(i), tb = type_b(i);
      const bool ra = !s_.nope[static_cast<std::size_t>(i)], rb = !nope_b(i);
      auto it = std::find_if(out_.layer_groups.begin(), out_.layer_groups.end(), [&](const GgufLayerGroup& x) {
        return x.type_a == ta && x.type_b == tb && x.rope_a == ra && x.rope_b == rb;
      });
      if (it == out_.layer_groups.end()) {
        GgufLayerGroup grp;
        grp.type_a = ta, grp.type_b = tb, grp.rope_a = ra, grp.rope_b = rb;
        out_.layer_groups.push_back(grp);
        it = out_.layer_groups.end() - 1;
      }
      it->layers.push_back(i);
    }
    for (auto& grp : out_.layer_groups) compare(grp, contexts);
  }

 private:
  const RopeConfig& rope_b(const std::string& type) const {
    for (const auto& r : g_.ropes)
      if (r.layer_type == type) return r.rope;
    return b_;
  }

  static std::string scaling_text(const RopeConfig& c) {
    std::string t(to_string(c.scaling));
    if (c.factor && c.scaling != rope::RopeScaling::kNone) t += fmt::format(" ×{}", *c.factor);
    return t;
  }

  static std::string source_of(const RopeConfig& c, const std::string& name) {
    for (const auto& s : c.sources)
      if (s.name == name) return s.source;
    return "default";
  }

  void compare(GgufLayerGroup& grp, const std::vector<std::int64_t>& contexts) {
    const RopeConfig* ca = grp.rope_a ? &hf_rope(s_, grp.type_a, a_, side_a) : nullptr;
    const RopeConfig* cb = grp.rope_b ? &rope_b(grp.type_b) : nullptr;
    if (ca != nullptr) grp.base_a = ca->base, grp.scaling_a = to_string(ca->scaling), grp.factor_a = ca->factor.value_or(1.0);
    if (cb != nullptr) {
      grp.base_b = cb->base, grp.scaling_b = to_string(cb->scaling), grp.factor_b = cb->factor.value_or(1.0);
      if (!cb->gguf_freq_factors.empty()) grp.scaling_b += " + rope_freqs.weight";
    }
    if (ca == nullptr || cb == nullptr) return;  // NoPE: nope() names it
    for (auto ctx : contexts) grp.effects.push_back(gguf_effect_at(*ca, *cb, ctx));
    const bool primary_a = grp.type_a.empty() || grp.type_a == s_.primary || s_.plan.rope_types.empty();
    const bool primary_b = grp.type_b != "sliding_attention";
    if ((grp.type_a == "sliding_attention") != (grp.type_b == "sliding_attention")) return;  // sliding() names it
    if (primary_a && primary_b) return;  // the global rope: the key checks above
    const std::string where = fmt::format("{} ({} in llama.cpp)", lc_count(grp.layers, n_),
                                          grp.type_b.empty() ? std::string("every layer") : grp.type_b);
    const std::size_t before = out_.findings.size();
    const std::string base_key = key(grp.type_b == "sliding_attention" ? "rope.freq_base_swa" : "rope.freq_base");
    if (static_cast<float>(ca->base) != static_cast<float>(cb->base))
      add(grp.type_b == "sliding_attention" ? "rope.freq_base_swa" : "rope.freq_base",
          fmt::format("{}: {}", base_key, where), fmt::format("{} ({})", lc_num(static_cast<float>(ca->base)), source_of(*ca, "base")),
          fmt::format("{} ({})", lc_num(cb->base), grp.type_b == "sliding_attention" ? g_.swa_base_source : source_of(*cb, "base")),
          "the sliding-window layers' base differs: the converter writes the config's sliding-layer theta "
          "(rope_local_base_freq, rope_parameters.sliding_attention.rope_theta, ...) as rope.freq_base_swa; a file "
          "without it takes llama.cpp's default for the architecture");
    // llama3 travels as rope_freqs.weight with no scaling key: the same method, compared by its effect.
    const auto method = [](const RopeConfig& c) {
      return c.scaling == rope::RopeScaling::kNone && !c.gguf_freq_factors.empty() ? rope::RopeScaling::kLlama3 : c.scaling;
    };
    const bool factors = ca->scaling == rope::RopeScaling::kLinear || ca->scaling == rope::RopeScaling::kYarn;
    if (method(*ca) != method(*cb) ||
        (factors && static_cast<float>(ca->factor.value_or(1)) != static_cast<float>(cb->factor.value_or(1))))
      add("per-layer-type scaling", where, fmt::format("{} ({})", scaling_text(*ca), source_of(*ca, "scaling")),
          fmt::format("{} ({})", scaling_text(*cb), grp.type_b == "sliding_attention" ? g_.swa_scale_source : source_of(*cb, "scaling")),
          "transformers and llama.cpp scale these layers differently: llama.cpp applies the file's one scaling to "
          "the sliding-window layers of gemma2, cohere2, gpt-oss and exaone4 and none to those of gemma3 and olmo2");
    if (out_.findings.size() != before) return;
    // Only what these layers add: a difference the full-attention layers share is the global check's.
    for (std::size_t i = 0; i < grp.effects.size(); ++i) {
      const GgufEffect& e = grp.effects[i];
      const double shared = i < out_.effects.size() ? out_.effects[i].max_rel_inv_freq : 0.0;
      if (!(e.max_rel_inv_freq <= out_.tol) && !(e.max_rel_inv_freq <= shared + out_.tol)) {
        add("inv_freq", fmt::format("pair {} at context {}: {}", e.worst_pair, e.context, where), "transformers",
            fmt::format("llama.cpp differs by {:.3g}, above --tol {}", e.max_rel_inv_freq, out_.tol),
            "no key finding explains it: compare 'posenc rope --hf-config ... --layer-type' with 'posenc model' of the file");
        break;
      }
    }
  }

 public:
  const ParamMap* side_a = nullptr;

 private:
  const RopeConfig& a_;
  const RopeConfig& b_;
  const GgufLayers& g_;
  HfSide& s_;
  GgufCheck& out_;
  std::int64_t n_;
};

}  // namespace

void check_gguf_layers(const RopeConfig& hf, const RopeConfig& gguf, const std::vector<std::int64_t>& contexts,
                       const ParamMap* side_a, GgufCheck& out) {
  if (hf.config_file.empty() || !gguf.gguf || gguf.gguf->path.empty()) return;
  HfSide s;
  s.plan = read_layer_plan(hf.config_file);
  read_hf_extras(hf, s);
  const formats::GgufFile f = formats::read_gguf(gguf.gguf->path);
  if (f.find(gguf.gguf->architecture + ".block_count") == nullptr) {
    out.findings.push_back({"layers", gguf.gguf->architecture + ".block_count", "the layer count", "absent",
                            "the layers were not compared one by one (sliding window, NoPE, M-RoPE sections): llama.cpp "
                            "requires the key, a converted file has it",
                            false});
    return;
  }
  const GgufLayers g = gguf_layers(f, gguf);
  out.num_layers = g.num_layers;
  if (s.plan.num_layers > 0 && s.plan.num_layers != g.num_layers) {
    out.findings.push_back({"layer count", gguf.gguf->architecture + ".block_count",
                            fmt::format("{} (config.json num_hidden_layers)", s.plan.num_layers),
                            lc_num(static_cast<double>(g.num_layers)),
                            "the file has another number of layers: converted from another model; the layers cannot be "
                            "compared one by one",
                            true});
    return;
  }
  s.nope.assign(static_cast<std::size_t>(g.num_layers), false);
  for (auto i : s.plan.no_rope_layers)
    if (i >= 0 && i < g.num_layers) s.nope[static_cast<std::size_t>(i)] = true;
  s.primary = s.plan.rope_types.empty() ? std::string() : s.plan.rope_types.front();
  if (s.plan.layer_types.size() != static_cast<std::size_t>(g.num_layers)) s.plan.layer_types.clear();
  LayerChecker k(hf, gguf, g, s, out);
  k.side_a = side_a;
  k.sliding();
  k.nope();
  k.groups(contexts);
  check_gguf_mrope(hf, gguf, s.sections, s.interleaved, g, s.nope, out);
}

}  // namespace posenc::models::detail
