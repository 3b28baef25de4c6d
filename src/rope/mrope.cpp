#include "posenc/rope/mrope.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "posenc/encodings/scheme.hpp"
#include "posenc/error.hpp"

namespace posenc::rope {

MropeLayout parse_mrope_layout(const std::string& s) {
  if (s == "sectioned") return MropeLayout::kSectioned;
  if (s == "interleaved") return MropeLayout::kInterleaved;
  throw Error(fmt::format("--mrope-layout must be sectioned or interleaved (got '{}')", s));
}

MropeRule parse_mrope_rule(const std::string& s) {
  if (s == "qwen2-vl") return MropeRule::kQwen2Vl;
  if (s == "qwen2.5-vl") return MropeRule::kQwen25Vl;
  if (s == "qwen3-vl") return MropeRule::kQwen3Vl;
  throw Error(fmt::format("--preset must be qwen2-vl, qwen2.5-vl or qwen3-vl (got '{}')", s));
}

std::string to_string(MropeLayout l) { return l == MropeLayout::kSectioned ? "sectioned" : "interleaved"; }

std::string to_string(MropeRule r) {
  switch (r) {
    case MropeRule::kQwen2Vl: return "qwen2-vl";
    case MropeRule::kQwen25Vl: return "qwen2.5-vl";
    case MropeRule::kQwen3Vl: return "qwen3-vl";
  }
  return "qwen2-vl";
}

void check_mrope(const MropeOptions& o) {
  if (o.dim < 2 || o.dim % 2 != 0) throw Error(fmt::format("--dim must be even and at least 2 for mrope (got {})", o.dim));
  const std::int64_t pairs = o.dim / 2;
  for (const auto s : o.sections)
    if (s < 0) throw Error(fmt::format("--sections must be 3 counts >= 0 (got {})", s));
  const std::int64_t sum = o.sections[0] + o.sections[1] + o.sections[2];
  if (sum != pairs)
    throw Error(fmt::format("--sections {},{},{} must add up to the {} pairs of --dim {} (got {})", o.sections[0],
                            o.sections[1], o.sections[2], pairs, o.dim, sum));
  if (o.mrope_layout == MropeLayout::kInterleaved && 3 * std::max(o.sections[1], o.sections[2]) > pairs)
    throw Error(fmt::format("--sections {},{},{}: interleaved h and w take every third pair below 3·s, so s_h and s_w "
                            "must be at most {} for --dim {}",
                            o.sections[0], o.sections[1], o.sections[2], pairs / 3, o.dim));
  if (!(o.base > 1.0) || !std::isfinite(o.base)) throw Error(fmt::format("--base must be above 1 (got {})", o.base));
  for (int a = 1; a < 3; ++a)
    if (o.grid[static_cast<std::size_t>(a)] % o.merge != 0)
      throw Error(fmt::format("--grid {},{},{}: {} {} is not a multiple of --merge {} (the processor makes grids "
                              "that merge evenly)",
                              o.grid[0], o.grid[1], o.grid[2], a == 1 ? "H" : "W", o.grid[static_cast<std::size_t>(a)],
                              o.merge));
}

std::vector<int> mrope_pair_axes(const MropeOptions& o) {
  const auto pairs = static_cast<std::size_t>(o.dim / 2);
  std::vector<int> axes(pairs, 0);
  const auto st = static_cast<std::size_t>(o.sections[0]), sh = static_cast<std::size_t>(o.sections[1]);
  const auto sw = static_cast<std::size_t>(o.sections[2]);
  for (std::size_t j = 0; j < pairs; ++j) {
    if (o.mrope_layout == MropeLayout::kSectioned) {
      axes[j] = j < st ? 0 : j < st + sh ? 1 : 2;
    } else if (j % 3 == 1 && j < 3 * sh) {
      axes[j] = 1;
    } else if (j % 3 == 2 && j < 3 * sw) {
      axes[j] = 2;
    }
  }
  return axes;
}

MropeSequence::MropeSequence(const MropeOptions& o)
    : rule_(o.rule), spg_(o.seconds_per_grid), tps_(o.tokens_per_second) {
  check_mrope(o);
  const std::int64_t gh = o.grid[1] / o.merge, gw = o.grid[2] / o.merge;
  // Every chunk starts at the previous chunk's largest id + 1 (get_rope_index's st_idx).
  std::int64_t next = 0;
  const auto text = [&](std::int64_t count) {
    if (count <= 0) return;
    segments_.push_back({tokens_, count, next, false, 0, 0, 0});
    tokens_ += count;
    next += count;
  };
  const auto block = [&](std::int64_t frames) {
    const std::int64_t count = frames * gh * gw;
    if (count <= 0) return;
    Segment s{tokens_, count, next, true, frames, gh, gw};
    segments_.push_back(s);
    tokens_ += count;
    vision_ += count;
    // t grows with the frame (trunc of a non-decreasing product), so the last frame has the largest.
    const std::int64_t tmax = ids(s.first + (frames - 1) * gh * gw)[0] - s.start;
    next = s.start + std::max({tmax, gh - 1, gw - 1}) + 1;
  };
  const std::int64_t limit = encodings::kMaxLen;
  const double natural = static_cast<double>(o.text_before) + static_cast<double>(o.text_after) +
                       static_cast<double>(o.grid[0]) * static_cast<double>(gh) * static_cast<double>(gw) +
                       (o.rule == MropeRule::kQwen3Vl && o.grid[0] > 0 ? static_cast<double>(o.grid[0] - 1) * static_cast<double>(o.frame_text) : 0.0);
  if (natural > static_cast<double>(limit))
    throw Error(fmt::format("mrope: --text-before, --grid and --text-after make {} tokens, more than {}", natural, limit));
  // --len past the sequence continues it with text.
  const std::int64_t more_text = std::max<std::int64_t>(0, o.len - static_cast<std::int64_t>(natural));
  text(o.text_before);
  if (o.rule == MropeRule::kQwen3Vl) {
    for (std::int64_t f = 0; f < o.grid[0]; ++f) {
      if (f > 0) text(o.frame_text);
      block(1);
    }
  } else {
    block(o.grid[0]);
  }
  text(o.text_after + more_text);
  max_id_ = next - 1;
  rows_ = o.len > 0 ? o.len : tokens_;
}

std::array<std::int64_t, 3> MropeSequence::ids(std::int64_t n) const {
  auto it = std::upper_bound(segments_.begin(), segments_.end(), n,
                             [](std::int64_t v, const Segment& s) { return v < s.first; });
  const Segment& s = *(it - 1);
  const std::int64_t local = n - s.first;
  if (!s.vision) return {s.start + local, s.start + local, s.start + local};
  const std::int64_t frame = local / (s.gh * s.gw);
  const std::int64_t row = (local / s.gw) % s.gh, col = local % s.gw;
  std::int64_t t = frame;
  if (rule_ == MropeRule::kQwen25Vl) {
    // transformers: (arange(T) * second_per_grid_t * tokens_per_second).long(), float32 tensors.
    const float time = static_cast<float>(static_cast<float>(frame) * static_cast<float>(spg_)) * static_cast<float>(tps_);
    t = static_cast<std::int64_t>(std::trunc(time));
  }
  return {s.start + t, s.start + row, s.start + col};
}

bool MropeSequence::is_vision(std::int64_t n) const {
  auto it = std::upper_bound(segments_.begin(), segments_.end(), n,
                             [](std::int64_t v, const Segment& s) { return v < s.first; });
  return (it - 1)->vision;
}

std::vector<double> mrope_inv_freq(const MropeOptions& o) {
  RopeConfig c;
  c.head_dim = c.rotary_dim = o.dim;
  c.base = o.base;
  c.layout = o.layout;
  c.precision = o.precision;
  return compute_frequencies(c).inv_freq;
}

void mrope_angles(const MropeOptions& o, const std::vector<double>& inv_freq, const std::vector<int>& axes,
                  const std::array<std::int64_t, 3>& ids, std::span<double> pairs_out) {
  for (std::size_t j = 0; j < pairs_out.size(); ++j) {
    const std::int64_t p = ids[static_cast<std::size_t>(axes[j])];
    pairs_out[j] = o.precision == RopePrecision::kF32
                       ? static_cast<double>(static_cast<float>(p) * static_cast<float>(inv_freq[j]))
                       : static_cast<double>(p) * inv_freq[j];
  }
}

}  // namespace posenc::rope
