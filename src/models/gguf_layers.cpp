// The per-layer ropes of a GGUF file as llama.cpp decides them (see gguf_layers.hpp).
#include "posenc/models/gguf_layers.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <string_view>

#include "gguf_keys.hpp"
#include "posenc/error.hpp"
#include "posenc/formats/gguf.hpp"
#include "posenc/rope/gguf_source.hpp"

namespace posenc::models {
namespace {

using formats::GgufType;

/// How an architecture splits its layers into sliding-window and full attention, and which
/// base and scale its sliding-window layers rotate with (llama.cpp load_hparams per
/// architecture; docs/gguf.md "Layers").
struct LlamaSwaRule {
  std::string_view arch;
  std::int64_t period;        ///< set_swa_pattern(period): layer il slides iff il % period < period - 1
  bool only_with_window;      ///< sliding-window layers only when attention.sliding_window > 0
  bool base_10000;            ///< SWA base defaults to 10000 (else the global base)
  bool scale_one;             ///< SWA layers get no scaling (else the global scaling)
  bool pattern_key;           ///< attention.sliding_window_pattern overrides the period
  bool nope_full;             ///< the full-attention layers run without RoPE
  std::int64_t only_layers;   ///< sliding layers only with this block_count (0: any)
  std::int64_t window;        ///< n_swa without attention.sliding_window (0: the key is required)
};
// gemma2, gemma3, olmo2, gpt-oss: ../shared/reference/gguf.md §3. cohere2: models/cohere2-iswa.cpp
// rotates only `if (is_swa)`. exaone4: load_hparams sets SWA (period 4, n_swa 4096) only for
// the 64-layer 32B, and models/exaone4.cpp rotates iff `is_swa(il) || swa_type == NONE`.
constexpr LlamaSwaRule kLlamaSwaRules[] = {
    {"gemma2", 2, false, false, false, false, false, 0, 4096},  {"gemma3", 6, true, true, true, false, false, 0, 0},
    {"cohere2", 4, false, false, false, false, true, 0, 0},     {"olmo2", 4, true, false, true, false, false, 0, 0},
    {"gpt-oss", 2, false, false, false, true, false, 0, 0},     {"exaone4", 4, false, false, false, false, true, 64, 4096},
};

using LayerKeys = detail::GgufKeys;

std::optional<std::vector<std::int64_t>> read_sections(const LayerKeys& k) {
  const formats::GgufKv* kv = k.get("rope.dimension_sections");
  if (kv == nullptr) return std::nullopt;
  if (kv->value.type != GgufType::kArray || !kv->value.elements_kept || kv->value.numbers.size() > 4)
    throw Error(fmt::format("{}: byte {}: key {} must be an array of at most 4 integers (got {})", k.name(), kv->offset,
                            kv->key, kv->value.type_text()));
  std::vector<std::int64_t> sec;
  for (double v : kv->value.numbers) {
    if (!(v >= 0 && v <= 65536) || std::floor(v) != v)
      throw Error(fmt::format("{}: byte {}: key {} must hold integers within [0, 65536] (got {})", k.name(), kv->offset,
                              kv->key, kv->value.to_text()));
    sec.push_back(static_cast<std::int64_t>(v));
  }
  sec.resize(4, 0);
  return sec;
}

/// The sliding-window layers' rope: the global one with llama.cpp's SWA base and scale.
rope::RopeConfig swa_rope(const rope::RopeConfig& c, const LayerKeys& k, const LlamaSwaRule& rule, const std::string& arch,
                          GgufLayers& out) {
  rope::RopeConfig s = c;
  s.notes.clear();
  if (const auto b = k.number("rope.freq_base_swa")) {
    s.base = *b;
    out.swa_base_source = "GGUF " + k.key("rope.freq_base_swa");
  } else if (rule.base_10000) {
    s.base = 10000.0;
    out.swa_base_source = fmt::format("llama.cpp default: rope_freq_base_train_swa = 10000 for {} (no {})", arch,
                                      k.key("rope.freq_base_swa"));
  } else {
    out.swa_base_source = fmt::format("llama.cpp: {} sliding-window layers use the global base (no {})", arch,
                                      k.key("rope.freq_base_swa"));
  }
  s.set_source("base", fmt::format("{}", s.base), out.swa_base_source);
  out.swa_scale_source = rule.scale_one ? fmt::format("llama.cpp: rope_freq_scale_train_swa = 1 for {}", arch)
                                        : fmt::format("llama.cpp: {} sliding-window layers use the global scaling", arch);
  if (rule.scale_one && c.scaling != rope::RopeScaling::kNone) {
    s.scaling = rope::RopeScaling::kNone;
    s.factor.reset();
    std::erase_if(s.sources, [](const rope::RopeSetting& x) { return x.name == "factor"; });
    s.set_source("scaling", "none", out.swa_scale_source);
  }
  return s;
}

}  // namespace

GgufLayers gguf_layers(const formats::GgufFile& f, const rope::RopeConfig& c) {
  const std::string arch = c.gguf ? c.gguf->architecture : std::string();
  const LayerKeys k(f, arch);
  GgufLayers out;
  const auto n_layer = k.count("block_count", 1, std::int64_t{1} << 20);
  if (!n_layer) throw Error(fmt::format("{}: no {} (llama.cpp requires it)", f.name, k.key("block_count")));
  out.num_layers = *n_layer;
  out.sections = read_sections(k);
  out.sliding_window = k.count("attention.sliding_window", 0, std::int64_t{1} << 31);
  // Layers without RoPE: llama4 (unless attention.sliding_window = 0) and smollm3 skip it on
  // every 4th layer ((il + 1) % 4 == 0; n_no_rope_layer_step, no key).
  const bool llama4_nope = arch == "llama4" && !(out.sliding_window && *out.sliding_window == 0);
  if (llama4_nope || arch == "smollm3") {
    for (std::int64_t il = 0; il < out.num_layers; ++il)
      if ((il + 1) % 4 == 0) out.no_rope_layers.push_back(il);
    out.no_rope_source = fmt::format("llama.cpp: n_no_rope_layer_step = 4 for {} (layer il has no RoPE iff (il + 1) % 4 "
                                     "== 0; no key{})",
                                     arch, arch == "llama4" ? fmt::format(", {} = 0 turns it off", k.key("attention.sliding_window")) : "");
  }
  const LlamaSwaRule* rule = nullptr;
  for (const auto& s : kLlamaSwaRules)
    if (s.arch == arch) rule = &s;
  const bool swa = rule != nullptr && !(rule->only_with_window && !(out.sliding_window && *out.sliding_window > 0)) &&
                   !(rule->only_layers > 0 && rule->only_layers != out.num_layers);
  std::vector<std::int64_t> sliding, full;
  if (swa) {
    out.window = out.sliding_window.value_or(rule->window);
    std::int64_t period = rule->period;
    const formats::GgufKv* pat = rule->pattern_key ? k.get("attention.sliding_window_pattern") : nullptr;
    const bool per_layer = pat != nullptr && pat->value.type == GgufType::kArray && pat->value.elements_kept &&
                           static_cast<std::int64_t>(pat->value.numbers.size()) == out.num_layers;
    if (pat != nullptr && !per_layer) period = k.count("attention.sliding_window_pattern", 1, 1 << 20).value_or(period);
    for (std::int64_t il = 0; il < out.num_layers; ++il) {
      const bool s = per_layer ? pat->value.numbers[static_cast<std::size_t>(il)] != 0 : il % period < period - 1;
      (s ? sliding : full).push_back(il);
      out.layer_types.push_back(s ? "sliding_attention" : "full_attention");
    }
    out.sliding_rule = pat != nullptr ? "GGUF " + k.key("attention.sliding_window_pattern")
                                      : fmt::format("llama.cpp: set_swa_pattern({}) for {} (layer il slides iff il % {} < {})",
                                                    rule->period, arch, rule->period, rule->period - 1);
    if (rule->nope_full) {
      out.no_rope_layers = full;
      out.no_rope_source = fmt::format("llama.cpp: {} rotates only the sliding-window layers ({})", arch,
                                       arch == "cohere2" ? "models/cohere2-iswa.cpp: if (is_swa)"
                                                         : "models/exaone4.cpp: use_rope = is_swa(il) || swa_type == NONE");
      full.clear();
    }
  }
  const auto without_nope = [&](const std::vector<std::int64_t>& layers) {
    std::vector<std::int64_t> r;
    for (auto il : layers)
      if (!std::binary_search(out.no_rope_layers.begin(), out.no_rope_layers.end(), il)) r.push_back(il);
    return r;
  };
  if (sliding.empty()) {
    std::vector<std::int64_t> all;
    for (std::int64_t il = 0; il < out.num_layers; ++il) all.push_back(il);
    out.ropes.push_back({"", c, without_nope(all)});
  } else {
    if (!full.empty()) out.ropes.push_back({"full_attention", c, without_nope(full)});
    out.ropes.push_back({"sliding_attention", swa_rope(c, k, *rule, arch, out), without_nope(sliding)});
  }
  return out;
}

}  // namespace posenc::models
