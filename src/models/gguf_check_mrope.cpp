// The conversion check's M-RoPE sections (see gguf_check.hpp): transformers' mrope_section against
// llama.cpp's rope.dimension_sections, compared pair by pair as each side assigns the position
// streams (transformers apply_multimodal_rotary_pos_emb / Qwen3-VL apply_interleaved_mrope; ggml's
// rope_multi: sector = pair % sum(sections)). The converter pads mrope_section to 4 entries
// (llama.cpp conversion/base.py, ../shared/reference/gguf.md §2.1).
#include "gguf_check_internal.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "posenc/models/gguf_layers.hpp"
#include "posenc/models/layers.hpp"

namespace posenc::models::detail {
namespace {

void gm_add(GgufCheck& out, std::string what, std::string where, std::string expected, std::string found, std::string cause) {
  out.findings.push_back({std::move(what), std::move(where), std::move(expected), std::move(found), std::move(cause), true});
}

/// ggml's M-RoPE stream of each pair (0 t, 1 h, 2 w, 3 e): sector = pair % sum(sections).
std::vector<int> ggml_axes(const std::vector<std::int64_t>& sec, bool interleaved, std::int64_t pairs) {
  std::vector<int> axis(static_cast<std::size_t>(std::max<std::int64_t>(pairs, 0)), 3);
  std::int64_t sum = 0;
  for (auto v : sec) sum += v;
  for (std::int64_t i = 0; i < pairs && sum > 0; ++i) {
    const std::int64_t s = i % sum;
    int a = 3;
    if (interleaved) {
      if (s % 3 == 1 && s < 3 * sec[1]) a = 1;
      else if (s % 3 == 2 && s < 3 * sec[2]) a = 2;
      else if (s % 3 == 0 && s < 3 * sec[0]) a = 0;
    } else {
      a = s < sec[0] ? 0 : s < sec[0] + sec[1] ? 1 : s < sec[0] + sec[1] + sec[2] ? 2 : 3;
    }
    axis[static_cast<std::size_t>(i)] = a;
  }
  return axis;
}

/// transformers' M-RoPE stream of each pair: contiguous chunks (apply_multimodal_rotary_pos_emb)
/// or, interleaved (Qwen3-VL apply_interleaved_mrope), h for i % 3 == 1 and i < 3·s_h, w for
/// i % 3 == 2 and i < 3·s_w, else t.
std::vector<int> hf_axes(const std::vector<std::int64_t>& sec, bool interleaved, std::int64_t pairs) {
  std::vector<int> axis(static_cast<std::size_t>(std::max<std::int64_t>(pairs, 0)), 0);
  if (interleaved) {
    for (std::int64_t i = 0; i < pairs; ++i) {
      if (sec.size() > 1 && i % 3 == 1 && i < 3 * sec[1]) axis[static_cast<std::size_t>(i)] = 1;
      if (sec.size() > 2 && i % 3 == 2 && i < 3 * sec[2]) axis[static_cast<std::size_t>(i)] = 2;
    }
  } else {
    std::int64_t i = 0;
    for (std::size_t k = 0; k < sec.size(); ++k)
      for (std::int64_t n = 0; n < sec[k] && i < pairs; ++n, ++i) axis[static_cast<std::size_t>(i)] = static_cast<int>(k % 3);
  }
  return axis;
}

}  // namespace

void check_gguf_mrope(const rope::RopeConfig& a_, const rope::RopeConfig& b_, const std::optional<std::vector<std::int64_t>>& sections,
                      bool interleaved, const GgufLayers& g_, const std::vector<bool>& nope, GgufCheck& out) {
  const auto& have = g_.sections;
  const std::int64_t n_ = g_.num_layers;
  if (!sections && !have) return;
  const std::string k = b_.gguf->architecture + ".rope.dimension_sections";
  std::vector<std::int64_t> rope_layers;
  for (std::int64_t i = 0; i < n_; ++i)
    if (!nope[static_cast<std::size_t>(i)]) rope_layers.push_back(i);
  const std::string where = fmt::format("{}: every rope layer, {}", k, fmt::format("{} of {} layers ({})", rope_layers.size(), n_, layer_ranges(rope_layers)));
  if (!sections) {
    gm_add(out, "rope.dimension_sections", where, "absent (the config has no mrope_section)", fmt::format("[{}]", fmt::join(*have, ", ")),
        "the file gives image and video positions M-RoPE sections the config does not have: converted from another model");
    return;
  }
  std::vector<std::int64_t> want = *sections;
  want.resize(std::max<std::size_t>(want.size(), 4), 0);  // the converter pads mrope_section to 4
  const std::string expected = fmt::format("[{}] (config.json mrope_section [{}]{})", fmt::join(want, ", "),
                                           fmt::join(*sections, ", "), want.size() > sections->size() ? ", padded to 4" : "");
  if (!have) {
    gm_add(out, "rope.dimension_sections", where, expected, "absent",
        b_.gguf->rope_type == "MROPE" || b_.gguf->rope_type == "IMROPE"
            ? fmt::format("M-RoPE sections not written: llama.cpp requires the key for {} and refuses to load the file",
                          b_.gguf->architecture)
            : fmt::format("M-RoPE sections not written: llama.cpp runs {} as plain {} RoPE, so image and video tokens "
                          "lose their height and width positions",
                          b_.gguf->architecture, b_.gguf->rope_type));
    return;
  }
  if (want == *have) return;
  const std::int64_t pairs = a_.rotary_dim / 2;
  const auto ha = hf_axes(*sections, interleaved, pairs);
  const auto gb = ggml_axes(*have, b_.gguf->rope_type == "IMROPE", pairs);
  std::int64_t moved = 0;
  for (std::size_t i = 0; i < ha.size() && i < gb.size(); ++i) moved += ha[i] != gb[i] ? 1 : 0;
  gm_add(out, "rope.dimension_sections", where, expected, fmt::format("[{}]", fmt::join(*have, ", ")),
      fmt::format("{} of {} frequency pairs follow another position stream (t, h, w) than in transformers: image and "
                  "video tokens get other positions (text tokens, whose streams are equal, do not)",
                  moved, pairs));
}

}  // namespace posenc::models::detail
