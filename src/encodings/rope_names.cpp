// Names of the RoPE enums and the small RopeConfig helpers.
#include "posenc/encodings/rope.hpp"

#include <fmt/format.h>

#include <array>

#include "posenc/error.hpp"
#include "posenc/text.hpp"

namespace posenc::encodings {
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
constexpr std::array<std::string_view, 3> kConventions = {"hf", "meta", "ggml"};
constexpr std::array<std::string_view, 2> kPrecisions = {"f32", "f64"};
constexpr std::array<std::string_view, 5> kRegimes = {"unchanged", "interpolated", "blended", "rescaled",
                                                       "zero"};

}  // namespace

std::string_view to_string(RopeLayout v) { return kLayouts[static_cast<std::size_t>(v)]; }
std::string_view to_string(RopeScaling v) { return kScalings[static_cast<std::size_t>(v)]; }
std::string_view to_string(RopeConvention v) { return kConventions[static_cast<std::size_t>(v)]; }
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
  return parse_name<RopeConvention>(s, what, kConventions);
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
  static const std::vector<std::string> v(kConventions.begin(), kConventions.end());
  return v;
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

}  // namespace posenc::encodings
