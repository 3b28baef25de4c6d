// Names of the RoPE enums and the small RopeConfig helpers.
#include "posenc/rope/rope.hpp"

#include <fmt/format.h>

#include <array>

#include "posenc/error.hpp"
#include "posenc/text.hpp"

namespace posenc::rope {
namespace {

template <class E, std::size_t N>
E parse_name(std::string_view s, std::string_view what, const std::array<std::string_view, N>& names) {
  for (std::size_t i = 0; i < N; ++i)
    if (names[i] == s) return static_cast<E>(i);
  std::vector<std::string> all(names.begin(), names.end());
  throw Error(fmt::format("{} must be one of {} (got '{}'){}", what, join_choices(all), s, did_you_mean(s, all)));
}

constexpr std::array<std::string_view, 2> kLayouts = {"interleaved", "half"};
constexpr std::array<std::string_view, 8> kScalings = {"none",   "linear", "ntk",      "dynamic",
                                                        "yarn",   "llama3", "longrope", "proportional"};
constexpr std::array<std::string_view, 2> kPrecisions = {"f32", "f64"};
constexpr std::array<std::string_view, 5> kRegimes = {"unchanged", "interpolated", "blended", "rescaled",
                                                       "zero"};

}  // namespace

std::string_view to_string(RopeLayout v) { return kLayouts[static_cast<std::size_t>(v)]; }
std::string_view to_string(RopeScaling v) { return kScalings[static_cast<std::size_t>(v)]; }
std::string_view to_string(RopeConvention v) { return rope_convention_info(v).name; }
std::string_view to_string(RopePrecision v) { return kPrecisions[static_cast<std::size_t>(v)]; }
std::string_view to_string(RopeRegime r) { return kRegimes[static_cast<std::size_t>(r)]; }

RopeLayout parse_rope_layout(std::string_view s, std::string_view what) {
  return parse_name<RopeLayout>(s, what, kLayouts);
}
RopeScaling parse_rope_scaling(std::string_view s, std::string_view what) {
  if (s == "default") return RopeScaling::kNone;  // transformers' name for plain RoPE
  try {
    return parse_name<RopeScaling>(s, what, kScalings);
  } catch (const Error&) {
    const auto& all = rope_scaling_choices();
    throw Error(fmt::format("{} must be one of {} (got '{}'){}", what, join_choices(all), s, did_you_mean(s, all)));
  }
}
RopeConvention parse_rope_convention(std::string_view s, std::string_view what) {
  const auto& all = rope_convention_names();
  for (std::size_t i = 0; i < all.size(); ++i)
    if (all[i] == s) return static_cast<RopeConvention>(i);
  throw Error(fmt::format("{} must be one of {} (got '{}'){}", what, join_choices(all), s, did_you_mean(s, all)));
}
RopePrecision parse_rope_precision(std::string_view s, std::string_view what) {
  return parse_name<RopePrecision>(s, what, kPrecisions);
}

// One static per list (a template keyed on the array size would share lists of equal length).
const std::vector<std::string>& rope_layout_names() {
  static const std::vector<std::string> v(kLayouts.begin(), kLayouts.end());
  return v;
}
const std::vector<std::string>& rope_scaling_names() {
  static const std::vector<std::string> v(kScalings.begin(), kScalings.end());
  return v;
}
const std::vector<std::string>& rope_scaling_choices() {
  static const std::vector<std::string> v = [] {
    std::vector<std::string> all(kScalings.begin(), kScalings.end());
    all.insert(all.begin() + 1, "default");
    return all;
  }();
  return v;
}
const std::vector<std::string>& rope_convention_names() {
  static const std::vector<std::string> v = [] {
    std::vector<std::string> names;
    for (const auto& c : rope_conventions()) names.emplace_back(c.name);
    return names;
  }();
  return v;
}

const std::vector<RopeConventionInfo>& rope_conventions() {
  // In enum order. Versions: the release and commit of the files reproduced (docs/engines.md).
  static const std::vector<RopeConventionInfo> v = {
      {"hf", "transformers", "modeling_rope_utils.py, current main (v5 era)",
       "Hugging Face transformers: float32 inv_freq, cos/sin per forward pass, LongRoPE and dynamic NTK "
       "follow the current sequence length"},
      {"meta", "meta-llama", "llama-models models/llama3/model.py",
       "Meta's reference code: precompute_freqs_cis and apply_scaling (8192 and low_freq_factor 1 hard-coded)"},
      {"ggml", "llama.cpp / ggml", "ggml-cpu ops.cpp, llama.cpp convert_hf_to_gguf.py",
       "ggml's iterated float32 theta, always-rounded YaRN range, llama3 via rope_freqs"},
      {"vllm", "vLLM", "main after #41277 (2026-04-29); rotary_embedding/*.py @07b12f1b, yarn @ffdc9857",
       "cos/sin cache built once: LongRoPE list fixed by --max-model-len (#27431), dynamic NTK unscaled with "
       "max_position_embeddings rows (#41277, #55910), plain YaRN drops mscale keys and attention_factor (#48621)"},
      {"vllm-0.6", "vLLM", "before #27431 and #41277: rotary_embedding.py @d3a24513, dynamic @50feac95",
       "older vLLM still in use: LongRoPE switched per batch when a position exceeds the original length, "
       "dynamic NTK at the fixed base b·(s²−s+1)^(d/(d−2)), YaRN range always rounded"},
      {"sglang", "SGLang", "rotary_embedding/factory.py @108c36c0, yarn.py and rope_variant.py @0b1fd02d",
       "float32 cos/sin cache; LongRoPE per batch (`positions > L`), dynamic NTK at the fixed base "
       "b·(s²−s+1)^(d/(d−2)), missing keys default with a warning"},
      {"trtllm", "TensorRT-LLM", "PyTorch backend RopeParams (interface.py @000a01de), RopeEmbeddingUtils, "
       "decoder kernels (commits not recorded)",
       "table of max_position_embeddings rows; missing original_max_position_embeddings becomes 1024, truncate "
       "and attention_factor not read, LongRoPE list from --max-model-len (max_seq_len), dynamic NTK per request "
       "in the kernel"},
      {"mlx", "MLX-LM", "mlx-lm @d78bf58e (after v0.31.3), mlx fast.rope kernel",
       "no cache; inv_freq from exp2 in the kernel or 1/freqs; LongRoPE always long (#707), YaRN default "
       "original length 4096, truncate and attention_factor ignored, factors applied to q and k"},
  };
  return v;
}

const RopeConventionInfo& rope_convention_info(RopeConvention c) { return rope_conventions()[static_cast<std::size_t>(c)]; }

bool is_engine_convention(RopeConvention c) {
  return c != RopeConvention::kHf && c != RopeConvention::kMeta && c != RopeConvention::kGgml;
}
const std::vector<std::string>& rope_precision_names() {
  static const std::vector<std::string> v(kPrecisions.begin(), kPrecisions.end());
  return v;
}

std::int64_t RopeConfig::original_length() const {
  if (original_max_position_embeddings > 0) return original_max_position_embeddings;
  return max_position_embeddings;
}

std::string RopeConfig::label(std::string_view name) const {
  for (const auto& s : sources)
    if (s.name == name && !s.field.empty() && !config_file.empty()) return fmt::format("{}: {}", config_file, s.field);
  return fmt::format("--{}", name);
}

std::string RopeConfig::field(std::string_view key, bool in_scaling) const {
  return fmt::format("\"{}{}\"", in_scaling ? config_scaling : config_scope, key);
}

std::string RopeConfig::absent(std::string_view flag, std::string_view key, bool in_scaling) const {
  if (config_file.empty()) return fmt::format("--{}", flag);
  return fmt::format("{}: {} (or --{})", config_file, field(key, in_scaling), flag);
}

std::string RopeConfig::method_label() const {
  for (const auto& s : sources)
    if (s.name == "scaling" && !s.field.empty()) return fmt::format("rope_type {}", to_string(scaling));
  return fmt::format("--scaling {}", to_string(scaling));
}

void RopeConfig::set_source(std::string name, std::string value, std::string source, std::string field_name) {
  for (auto& s : sources) {
    if (s.name == name) {
      s.value = std::move(value);
      s.source = std::move(source);
      s.field = std::move(field_name);
      return;
    }
  }
  sources.push_back({std::move(name), std::move(value), std::move(source), std::move(field_name)});
}

}  // namespace posenc::rope
