#pragma once
// Shared by the conversion check's files (gguf_check.cpp, gguf_check_layers.cpp).
#include <fmt/format.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "posenc/models/gguf_check.hpp"
#include "posenc/models/gguf_layers.hpp"
#include "posenc/rope/gguf_source.hpp"

namespace posenc::models::detail {

/// Whether setting `name` of `c` came from a GGUF key (not a llama.cpp default).
inline bool gguf_from_key(const rope::RopeConfig& c, const std::string& name) {
  for (const auto& s : c.sources)
    if (s.name == name) return s.source.starts_with("GGUF");
  return false;
}

inline float gguf_f32(double v) { return static_cast<float>(v); }

inline std::string gguf_num(double v) { return fmt::format("{}", v); }

/// A float32 value in its shortest float32 spelling (0.1, not 0.10000000149011612).
inline std::string gguf_num_f32(double v) { return fmt::format("{}", static_cast<float>(v)); }

/// The key checks of the conversion check: what llama.cpp's converter should have written for
/// the config, against the file (gguf_check.cpp: architecture, base, shape, scaling;
/// gguf_check_scaling.cpp: YaRN, llama3 and LongRoPE).
class GgufKeyChecker {
 public:
  GgufKeyChecker(const rope::RopeConfig& hf, const rope::RopeConfig& gg, GgufCheck& out) : a_(hf), b_(gg), g_(*gg.gguf), out_(out) {}
  void add(std::string what, std::string where, std::string expected, std::string found, std::string cause,
           bool error = true) {
    out_.findings.push_back({std::move(what), std::move(where), std::move(expected), std::move(found), std::move(cause), error});
  }
  std::string key(const std::string& suffix) const { return g_.architecture + "." + suffix; }
  void architecture();
  void loads();
  void base();
  void shape();
  void original_length();
  void factor_key(const char* method);
  void scaling();
  void yarn(const std::string& type_found);
  /// deepseek2 reads yarn_log_multiplier as 0.1·mscale_all_dim (÷ 0.1 on load), mistral3 as
  /// mscale_all_dim (../shared/reference/gguf.md §3; conversion/deepseek.py, llama-model.cpp,
  /// [TAG_DEEPSEEK2_YARN_LOG_MUL_FIX], ggml-org/llama.cpp#17945). The converter writes the key
  /// only when the config has mscale_all_dim.
  void yarn_log_multiplier();
  void llama3();
  void longrope();
  void compare_list(const std::string& name, const std::vector<double>& want, const std::vector<double>& found,
                    const std::string& cause);
  static std::int64_t ulps_apart(float a, float b);
  static bool lists_match(const std::vector<double>& a, const std::vector<double>& b);
 private:
  const rope::RopeConfig& a_;
  const rope::RopeConfig& b_;
  const rope::RopeGgufSource& g_;
  GgufCheck& out_;
};

/// Per-pair inverse frequency, attention factor, logit scale and LongRoPE list of both sides at
/// sequence length `context`.
GgufEffect gguf_effect_at(const rope::RopeConfig& hf, const rope::RopeConfig& gg, std::int64_t context);

/// The M-RoPE part of check_gguf_layers: `sections` (the config's mrope_section, interleaved for
/// Qwen3-VL) against the file's rope.dimension_sections; `nope`: per layer, no RoPE (config side).
void check_gguf_mrope(const rope::RopeConfig& hf, const rope::RopeConfig& gguf,
                      const std::optional<std::vector<std::int64_t>>& sections, bool interleaved, const GgufLayers& g,
                      const std::vector<bool>& nope, GgufCheck& out);

/// The per-layer part of check_gguf_conversion (see gguf_check.hpp): fills out.num_layers and
/// out.layer_groups and adds the findings. Nothing when `hf` has no config file.
void check_gguf_layers(const rope::RopeConfig& hf, const rope::RopeConfig& gguf, const std::vector<std::int64_t>& contexts,
                       const ParamMap* side_a, GgufCheck& out);

}  // namespace posenc::models::detail
