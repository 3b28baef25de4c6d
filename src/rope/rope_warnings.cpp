// Where a setting is read differently by different implementations (REFERENCES §3).
#include "rope_internal.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

namespace posenc::rope::detail {
namespace {

/// The largest relative change of inv_freq, and its pair, when `c` (no truncate) is computed
/// with truncate false instead of transformers' default true; {0, 0} when nothing changes.
std::pair<double, std::size_t> yarn_truncate_effect(const RopeConfig& c, const RopeFrequencies& f) {
  RopeConfig unrounded = c;
  unrounded.truncate = false;
  unrounded.file_warnings.clear();
  const RopeFrequencies g = compute_frequencies(unrounded);
  std::pair<double, std::size_t> worst{0.0, 0};
  for (std::size_t j = 0; j < f.inv_freq.size() && j < g.inv_freq.size(); ++j) {
    if (f.inv_freq[j] == 0.0) continue;
    const double rel = std::abs(g.inv_freq[j] - f.inv_freq[j]) / std::abs(f.inv_freq[j]);
    if (rel > worst.first) worst = {rel, j};
  }
  return worst;
}

void yarn_warnings(const RopeConfig& c, RopeFrequencies& f) {
  auto& w = f.warnings;
  const bool hf = c.convention == RopeConvention::kHf;
  if (c.factor && c.max_position_embeddings > 0 && c.original_max_position_embeddings > 0) {
    const double ratio =
        static_cast<double>(c.max_position_embeddings) / static_cast<double>(c.original_max_position_embeddings);
    if (ratio != *c.factor)
      w.push_back(fmt::format(
          "yarn: factor {} differs from max_position_embeddings/original_max_position_embeddings = {}; current "
          "transformers uses the explicit factor, but mid-4.x releases used the ratio whenever "
          "original_max_position_embeddings was set{}",
          *c.factor, ratio, ratio == 1.0 ? " (that is, no YaRN scaling at all)" : ""));
  }
  if (!c.factor)
    w.push_back(fmt::format("yarn: no factor; current transformers uses max_position_embeddings / "
                            "original_max_position_embeddings = {}, 4.x releases required factor",
                            f.factor));
  // Said only when it matters here: the frequencies with truncate false differ from the
  // rounded ones by more than float32 rounding (1e-6 relative; not when factor is 1, whose
  // blend of equal values only moves ulps, or the range is clamped to [0, d−1] either way).
  if (!c.truncate && hf)
    if (const auto [rel, pair] = yarn_truncate_effect(c, f); rel > 1e-6)
      w.push_back(fmt::format("yarn: 'truncate' not set; transformers rounds the correction range (floor/ceil, default "
                              "true); unrounded (gpt-oss sets truncate false; KerasHub and TVM never round) inv_freq "
                              "would differ by up to {:.3g} relative (pair {}); ggml always rounds",
                              rel, pair));
  if (c.truncate && !*c.truncate && !hf) w.push_back("yarn: ggml always rounds the correction range; truncate=false is ignored");
  for (const auto& [name, value, fallback] :
       {std::tuple{"beta_fast", c.beta_fast, 32.0}, std::tuple{"beta_slow", c.beta_slow, 1.0}}) {
    if (value && *value == 0.0)
      w.push_back(fmt::format("yarn: {} = 0 becomes {} in transformers (`.get(\"{}\") or {}`); ggml keeps 0", name,
                              fallback, name, fallback));
  }
  if (f.yarn && f.yarn->beta_fast < f.yarn->beta_slow)
    w.push_back(fmt::format("yarn: beta_fast {} < beta_slow {} inverts the correction range (transformers warns): "
                            "transformers then interpolates the fast pairs j ≤ high, ggml's max(0.001, hi−lo) guard "
                            "the pairs above low",
                            f.yarn->beta_fast, f.yarn->beta_slow));
  if (c.attention_factor && (c.mscale || c.mscale_all_dim)) {
    w.push_back("yarn: attention_factor is given, so mscale and mscale_all_dim are not used");
  } else if (truthy(c.mscale) != truthy(c.mscale_all_dim) && (c.mscale || c.mscale_all_dim)) {
    w.push_back(fmt::format("yarn: transformers uses mscale only when both mscale and mscale_all_dim are non-zero "
                            "(`if mscale and mscale_all_dim`); here the attention factor falls back to "
                            "0.1·ln(s)+1 = {}",
                            yarn_get_mscale(f.factor)));
  } else if (truthy(c.mscale) && truthy(c.mscale_all_dim)) {
    const double m = yarn_get_mscale(f.factor, *c.mscale_all_dim);
    w.push_back(fmt::format("yarn: DeepSeek-style mscale={} / mscale_all_dim={}: cos/sin get {}; DeepSeek's code "
                            "also multiplies the softmax scale by get_mscale(s, mscale_all_dim)² = {} (not in "
                            "these tables)",
                            *c.mscale, *c.mscale_all_dim, f.attention_factor, m * m));
  }
  if (!hf && truthy(c.mscale_all_dim) && !c.attention_factor) {
    // llama.cpp: mscale = 1 (deepseek2 architectures: mscale_all_dim) against transformers' rule.
    const double m = ggml_mscale(c), s = f.factor;
    const double ours = yarn_get_mscale(s, m) / yarn_get_mscale(s, *c.mscale_all_dim);
    if (truthy(c.mscale) && *c.mscale != m)
      w.push_back(fmt::format("yarn: llama.cpp reads no mscale and uses {} ({}), so the config's mscale {} is "
                              "dropped: attention factor {} here, {} in transformers",
                              m, m == 1.0 ? "its assumption" : "deepseek2: mscale_all_dim", *c.mscale, ours,
                              yarn_get_mscale(s, *c.mscale) / yarn_get_mscale(s, *c.mscale_all_dim)));
    else if (!truthy(c.mscale) && ours != yarn_get_mscale(s))
      w.push_back(fmt::format("yarn: without a non-zero mscale transformers ignores mscale_all_dim (attention factor "
                              "0.1·ln(s)+1 = {}), llama.cpp uses it with mscale {}: {}",
                              yarn_get_mscale(s), m, ours));
  }
  if (!hf)
    w.push_back(fmt::format("yarn: ggml multiplies cos/sin by its own 1+0.1·ln(1/freq_scale) = {}; llama.cpp "
                            "passes attn_factor = {} to cancel it (ggml-org/llama.cpp#17945)",
                            f.ggml_internal_mscale, f.ggml_attn_factor));
}

void longrope_warnings(const RopeConfig& c, RopeFrequencies& f) {
  auto& w = f.warnings;
  const auto l = c.original_length();
  const bool hf_long = c.seq_len > 0 && c.seq_len > l;
  const std::int64_t n_ctx = c.seq_len > 0 ? c.seq_len : c.max_position_embeddings;
  const bool ggml_long = n_ctx > l;
  if (c.seq_len <= 0)
    w.push_back(fmt::format("longrope: no --seq-len; transformers starts with short_factor and switches to "
                            "long_factor once a position exceeds {}, llama.cpp picks once by context size ({} "
                            "for n_ctx = {})",
                            l, ggml_long ? "long" : "short", n_ctx));
  else if (hf_long != ggml_long)
    w.push_back("longrope: transformers and llama.cpp choose different factor lists here");
  if (c.factor && c.max_position_embeddings > 0 && l > 0) {
    const double ratio = static_cast<double>(c.max_position_embeddings) / static_cast<double>(l);
    if (ratio != *c.factor)
      w.push_back(fmt::format("longrope: factor {} differs from max_position_embeddings/original = {} (older "
                              "transformers and llama.cpp's converter use the ratio)",
                              *c.factor, ratio));
  }
}

/// Which methods read a setting that only some methods use ("yarn does": for messages).
struct Reader {
  const char* name;
  std::vector<RopeScaling> methods;
  const char* who;
};

const std::vector<Reader>& readers() {
  using S = RopeScaling;
  static const std::vector<Reader> r = {
      {"factor", {S::kLinear, S::kNtk, S::kDynamic, S::kYarn, S::kLlama3, S::kLongrope, S::kProportional},
       "the other methods do"},
      {"beta-fast", {S::kYarn}, "yarn does"},
      {"beta-slow", {S::kYarn}, "yarn does"},
      {"mscale", {S::kYarn}, "yarn does"},
      {"mscale-all-dim", {S::kYarn}, "yarn does"},
      {"truncate", {S::kYarn}, "yarn does"},
      {"attention-factor", {S::kYarn, S::kLongrope}, "yarn and longrope do"},
      {"low-freq-factor", {S::kLlama3}, "llama3 does"},
      {"high-freq-factor", {S::kLlama3}, "llama3 does"},
      {"short-factor", {S::kLongrope}, "longrope does"},
      {"long-factor", {S::kLongrope}, "longrope does"},
  };
  return r;
}

}  // namespace

bool method_reads(RopeScaling scaling, std::string_view setting) {
  for (const auto& r : readers())
    if (r.name == setting) return std::find(r.methods.begin(), r.methods.end(), scaling) != r.methods.end();
  return true;
}

std::vector<std::pair<std::string, std::string>> ignored_settings(const RopeConfig& c) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& r : readers()) {
    if (std::find(r.methods.begin(), r.methods.end(), c.scaling) != r.methods.end()) continue;
    for (const auto& s : c.sources)
      if (s.name == r.name && (s.source.starts_with("flag --") || (!s.field.empty() && c.warn_unread_config_settings)))
        out.emplace_back(r.name, r.who);
  }
  return out;
}

void add_warnings(const RopeConfig& c, RopeFrequencies& f) {
  auto& w = f.warnings;
  w.insert(w.begin(), c.file_warnings.begin(), c.file_warnings.end());
  for (const auto& [name, who] : ignored_settings(c)) {
    std::string value;
    for (const auto& s : c.sources)
      if (s.name == name) value = s.value;
    w.push_back(fmt::format("{} {} is ignored: {} does not read it ({})", c.label(name), value, c.method_label(), who));
  }
  if (is_engine_convention(c.convention)) return;  // the engines warn in their own files
  switch (c.scaling) {
    case RopeScaling::kYarn: yarn_warnings(c, f); break;
    case RopeScaling::kLongrope: longrope_warnings(c, f); break;
    case RopeScaling::kDynamic:
      w.push_back(fmt::format("dynamic: transformers uses max_position_embeddings ({}) as the original length{}",
                              c.max_position_embeddings,
                              c.original_max_position_embeddings > 0 &&
                                      c.original_max_position_embeddings != c.max_position_embeddings
                                  ? fmt::format("; original_max_position_embeddings = {} is ignored",
                                                c.original_max_position_embeddings)
                                  : std::string()));
      if (c.seq_len <= c.max_position_embeddings)
        w.push_back("dynamic: at this --seq-len the frequencies equal the original ones; they change once the "
                    "sequence grows past max_position_embeddings (keys already cached keep their old rotation, "
                    "transformers#25104)");
      break;
    case RopeScaling::kNtk:
      w.push_back(fmt::format("ntk: not a transformers rope_type; static NTK-aware base b·s^(d/(d−2)) = {} "
                              "(x-transformers base_rescale_factor, rotary-embedding-torch theta_rescale_factor)",
                              f.base));
      break;
    case RopeScaling::kLlama3:
      if (c.convention == RopeConvention::kMeta && (c.low_freq_factor != 1.0 || c.original_length() != 8192))
        w.push_back("llama3: meta-llama's apply_scaling hard-codes low_freq_factor = 1 and old_context_len = 8192");
      if (c.convention == RopeConvention::kGgml && c.top_level_original_max_position_embeddings <= 0 &&
          c.original_length() != 8192)
        w.push_back(fmt::format("llama3: llama.cpp's converter reads a top-level original_max_position_embeddings "
                                "(default 8192), not rope_scaling's {}",
                                c.original_length()));
      break;
    default: break;
  }
}

}  // namespace posenc::rope::detail
