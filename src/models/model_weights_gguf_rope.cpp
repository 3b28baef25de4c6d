// A .gguf's stored RoPE factor tensors (rope_freqs.weight, rope_factors_long/short.weight) against
// what the file's own keys determine (see model_weights_internal.hpp). llama.cpp's
// convert_hf_to_gguf.py writes llama3 scaling only as the rope_freqs tensor (no rope.scaling.*
// keys) and LongRoPE's lists only as the two tensors (../shared/reference/gguf.md: scaling keys,
// rope_freqs, rope_factors_*), so most files do not determine them: that is said, with the
// command that compares them with the model's config.json.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "../rope/rope_internal.hpp"
#include "gguf_keys.hpp"
#include "model_weights_internal.hpp"
#include "posenc/rope/rope.hpp"

namespace posenc::models::detail {
namespace {

constexpr const char* kRopeDiff = "posenc rope diff --config-a config.json --config-b FILE.gguf";

std::string rope_tensor_arch(const formats::GgufFile& f) {
  const formats::GgufKv* a = f.find("general.architecture");
  return a != nullptr && a->value.type == formats::GgufType::kString ? a->value.text : std::string();
}

/// rope.dimension_count, else embedding_length / attention.head_count (llama.cpp's n_rot default); 0 if neither.
std::int64_t gguf_rot_dims(const GgufKeys& k) {
  if (const auto n = k.count("rope.dimension_count", 1, 1 << 20)) return *n;
  const auto e = k.count("embedding_length", 1, std::int64_t{1} << 31), h = k.count("attention.head_count", 1, 1 << 20);
  return e && h ? *e / *h : 0;
}

void max_rel_diff(RopeTensorWeights& t) {
  double worst = -1;  // pair 0 when every pair agrees exactly
  for (std::size_t i = 0; i < t.stored.size(); ++i) {
    const double d = std::abs(t.stored[i] - t.expected[i]) / std::abs(t.expected[i]);
    if (!(d <= worst)) {
      worst = std::isnan(d) ? INFINITY : d;
      t.worst_pair = static_cast<std::int64_t>(i);
    }
  }
  t.max_rel_diff = std::max(worst, 0.0);
}

}  // namespace

void gguf_rope_expectations(const formats::GgufFile& f, std::vector<RopeTensorWeights>& rope,
                            std::vector<std::string>& findings) {
  const GgufKeys k(f, rope_tensor_arch(f));
  const std::int64_t n_rot = gguf_rot_dims(k);
  for (auto& t : rope) {
    const bool freqs = t.tensor == "rope_freqs.weight";
    if (n_rot > 0 && static_cast<std::int64_t>(t.stored.size()) < n_rot / 2)
      findings.push_back(fmt::format("{} holds {} values, fewer than the {} rotated pairs ({} / 2): ggml_rope_ext "
                                     "requires at least one per pair, so llama.cpp refuses to run this file",
                                     t.tensor, t.stored.size(), n_rot / 2,
                                     k.get("rope.dimension_count") ? k.key("rope.dimension_count") : "n_rot"));
    if (!freqs) {
      findings.push_back(fmt::format(
          "{} ({} values) has no expected values here: LongRoPE's long_factor and short_factor are lists in the "
          "config's rope_scaling, and no GGUF key holds them (convert_hf_to_gguf.py writes them only as these "
          "tensors); llama.cpp divides θ_i by value i, the long list once the context exceeds {}; compare them with "
          "the config: {}",
          t.tensor, t.stored.size(),
          k.get("rope.scaling.original_context_length") ? k.key("rope.scaling.original_context_length")
                                                        : std::string("the training context"),
          kRopeDiff));
      continue;
    }
    // llama3 (convert_hf_to_gguf.py LlamaModel.generate_extra_tensors): factor, low_freq_factor,
    // high_freq_factor and the original context decide every value, with freq_base and n_rot.
    const auto factor = k.number("rope.scaling.factor"), low = k.number("rope.scaling.low_freq_factor"),
               high = k.number("rope.scaling.high_freq_factor");
    const auto orig = k.count("rope.scaling.original_context_length", 1, std::int64_t{1} << 40);
    std::vector<std::string> missing;
    if (!factor) missing.push_back(k.key("rope.scaling.factor"));
    if (!low) missing.push_back(k.key("rope.scaling.low_freq_factor"));
    if (!high) missing.push_back(k.key("rope.scaling.high_freq_factor"));
    if (!orig) missing.push_back(k.key("rope.scaling.original_context_length"));
    if (n_rot < 2) missing.push_back(k.key("rope.dimension_count"));
    if (!missing.empty()) {
      findings.push_back(fmt::format(
          "{} ({} values, {} to {}) has no expected values here: llama3 factors follow from rope_scaling's factor, "
          "low_freq_factor, high_freq_factor and original_max_position_embeddings, which convert_hf_to_gguf.py "
          "writes only as this tensor, not as keys (this file has no {}); llama.cpp divides θ_i by value i; compare "
          "it with the config: {}",
          t.tensor, t.stored.size(), *std::min_element(t.stored.begin(), t.stored.end()),
          *std::max_element(t.stored.begin(), t.stored.end()), fmt::join(missing, ", "), kRopeDiff));
      continue;
    }
    rope::RopeConfig c;
    c.base = k.number("rope.freq_base").value_or(10000.0);
    c.rotary_dim = n_rot;
    c.factor = *factor;
    c.low_freq_factor = *low;
    c.high_freq_factor = *high;
    c.precision = rope::RopePrecision::kF32;  // the converter's torch float32 frequencies
    const std::string keys = fmt::format("factor {}, low_freq_factor {}, high_freq_factor {}, original context {}, "
                                         "freq_base {}, {} rotated dims",
                                         *factor, *low, *high, *orig, c.base, n_rot);
    if (!(*high > *low)) {
      findings.push_back(fmt::format("{}: the keys give high_freq_factor {} ≤ low_freq_factor {}: the llama3 rule "
                                     "divides by their difference, no expected values",
                                     t.tensor, *high, *low));
      continue;
    }
    t.expected = rope::detail::gguf_llama3_factors(c, *orig);
    if (t.expected.size() != t.stored.size()) {
      findings.push_back(fmt::format("{} holds {} values; the llama3 keys ({}) give {}", t.tensor, t.stored.size(),
                                     keys, t.expected.size()));
      t.expected.clear();
      continue;
    }
    max_rel_diff(t);
    const auto at = static_cast<std::size_t>(t.worst_pair);
    if (*t.max_rel_diff > t.tolerance) {
      findings.push_back(fmt::format("{} differs from the llama3 factors its keys give ({}) by up to {:.3g} (relative, "
                                     "pair {}: stored {}, keys {}): llama.cpp uses the stored tensor",
                                     t.tensor, keys, *t.max_rel_diff, at, t.stored[at], t.expected[at]));
    } else {
      findings.push_back(fmt::format("{} agrees with the llama3 factors its keys give ({}): max relative difference "
                                     "{:.3g}",
                                     t.tensor, keys, *t.max_rel_diff));
    }
    const formats::GgufKv* type = k.get("rope.scaling.type");
    if (type == nullptr || (type->value.type == formats::GgufType::kString && type->value.text == "linear"))
      findings.push_back(fmt::format("{} is also applied as linear scaling: llama.cpp reads rope.scaling.type as "
                                     "'linear' when it is {}, so θ is divided by {} on top of {}",
                                     k.key("rope.scaling.factor"), type ? "'linear'" : "absent", *factor, t.tensor));
  }
}

}  // namespace posenc::models::detail
