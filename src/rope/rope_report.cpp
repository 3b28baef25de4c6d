#include "posenc/rope/rope_report.hpp"

#include "posenc/rope/rope_bounds.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <string>
#include <tuple>
#include <utility>

#include "posenc/error.hpp"
#include "posenc/parallel.hpp"

namespace posenc::rope {
namespace {

constexpr double kTwoPi = 2.0 * std::numbers::pi;

double wavelength(double theta) {
  return theta == 0.0 ? std::numeric_limits<double>::infinity() : kTwoPi / theta;
}

/// The target length and where it comes from.
std::pair<std::int64_t, std::string> target_length(const RopeConfig& c, const RopeFrequencies& f, std::int64_t original) {
  if (c.scaling == RopeScaling::kDynamic && c.convention == RopeConvention::kHf) {
    // Dynamic NTK is evaluated at max(seq_len, max_position_embeddings): report that length.
    if (c.seq_len > c.max_position_embeddings) return {c.seq_len, "--seq-len, where dynamic NTK is evaluated"};
    return {c.max_position_embeddings, "max_position_embeddings: without a longer --seq-len dynamic NTK keeps the "
                                       "original frequencies"};
  }
  if (c.seq_len > 0) return {c.seq_len, "--seq-len"};
  if (c.max_position_embeddings > original) return {c.max_position_embeddings, "max_position_embeddings"};
  if (f.factor > 1.0 && original > 0)
    return {static_cast<std::int64_t>(std::llround(f.factor * static_cast<double>(original))), "factor × original"};
  if (original > 0) return {original, "no extension: the original length"};
  return {0, ""};
}

/// Where the original length L_orig came from.
std::string original_source(const RopeConfig& c, const RopeFrequencies& f, std::int64_t original) {
  if (original <= 0) return "";
  const bool llama3 = c.scaling == RopeScaling::kLlama3;
  if (llama3 && c.convention == RopeConvention::kMeta) return "meta-llama apply_scaling's hard-coded 8192";
  if (llama3 && c.convention == RopeConvention::kGgml)
    return c.top_level_original_max_position_embeddings > 0 ? "llama.cpp's converter: top-level original_max_position_embeddings"
                                                            : "llama.cpp's converter default 8192";
  if (original == c.original_max_position_embeddings) return "original_max_position_embeddings";
  if (original == c.max_position_embeddings) return "max_position_embeddings; no original_max_position_embeddings";
  (void)f;
  return "the method";
}

/// Linear scaling reads no length, and a config with linear scaling but no
/// original_max_position_embeddings declares the context the model runs at after the extension
/// (LLaMA-2-7B-32K: linear ×8 with max_position_embeddings 32768 = 8 × Llama-2's 4096). So the
/// original is max / factor and the target max; the other reading is said in a note.
bool linear_extended(const RopeConfig& c, const RopeFrequencies& f) {
  return c.scaling == RopeScaling::kLinear && c.original_max_position_embeddings <= 0 &&
         c.max_position_embeddings > 0 && f.factor > 1.0;
}

void read_linear_lengths(RopeReport& r) {
  const auto& c = r.config;
  const double exact = static_cast<double>(c.max_position_embeddings) / r.freqs.factor;
  r.original_length = std::max<std::int64_t>(1, std::llround(exact));
  r.original_source = fmt::format("max_position_embeddings / factor = {} / {}{}: linear, max_position_embeddings read "
                                  "as the extended context",
                                  c.max_position_embeddings, r.freqs.factor,
                                  exact == static_cast<double>(r.original_length) ? "" : ", rounded");
  r.config.notes.push_back(fmt::format(
      "linear: no original_max_position_embeddings, so {} {} is read as the context after the ×{} extension "
      "(original {}); if it is the pre-extension length instead, give --original-max-position-embeddings {} "
      "(target then {})",
      c.label("max-position-embeddings"), c.max_position_embeddings, r.freqs.factor, r.original_length,
      c.max_position_embeddings, std::llround(r.freqs.factor * static_cast<double>(c.max_position_embeddings))));
}

/// Which LongRoPE list the frequencies use, and why: without --seq-len transformers starts with
/// short_factor whatever the target length, so a report must say the list it shows.
std::string longrope_source(const RopeConfig& c, const RopeFrequencies& f) {
  if (f.longrope_list.empty()) return "";
  const auto l = f.original_length;
  if (c.convention == RopeConvention::kGgml) {
    const auto n_ctx = c.seq_len > 0 ? c.seq_len : c.max_position_embeddings;
    return fmt::format("llama.cpp picks once by context size: n_ctx {} {} original {}", n_ctx, n_ctx > l ? ">" : "≤", l);
  }
  if (c.seq_len > 0) return fmt::format("--seq-len {} {} original {}", c.seq_len, c.seq_len > l ? ">" : "≤", l);
  return fmt::format("no --seq-len: transformers' list up to position {}; longer sequences switch to long_factor, "
                     "--seq-len {} shows it",
                     l, l + 1);
}

/// Adds the values the method derived to the settings, unless the user set them.
void add_derived(RopeConfig& c, const RopeFrequencies& f, std::int64_t original, const std::string& source) {
  const auto given = [&](const std::string& name) {
    for (const auto& s : c.sources)
      if (s.name == name) return s.source.starts_with("flag --") || !s.field.empty();
    return false;
  };
  for (const auto& d : f.derived)
    if (!given(d.name)) c.set_source(d.name, d.value, d.source);
  if (original > 0 && !given("original-max-position-embeddings") && !source.empty())
    c.set_source("original-max-position-embeddings", fmt::format("{}", original), "derived: " + source);
}

}  // namespace

std::int64_t rotary_dim_offset(const RopeConfig& c) {
  if (c.rotary_dims_trailing && c.rotary_dim < c.head_dim) return c.head_dim - c.rotary_dim;
  return c.rotary_offset;
}

std::string rotary_dims_note(const RopeConfig& c) {
  const std::int64_t off = rotary_dim_offset(c);
  if (off == 0) return {};
  if (c.rotary_dims_trailing)
    return fmt::format("dims of the {}-dim query/key head: the rotated part is its last {} dims ({}..{}); dims 0..{} "
                       "carry no position",
                       c.head_dim, c.rotary_dim, off, c.head_dim - 1, off - 1);
  return fmt::format("dims of the {}-dim query/key head as the model concatenates it: the {} dims of the rotary part "
                     "(projected on their own: q_pe / k_pe) follow {} dims that carry no position (0..{})",
                     off + c.head_dim, c.head_dim, off, off - 1);
}

RopeReport make_rope_report(const RopeConfig& c) {
  RopeReport r;
  r.config = c;
  r.freqs = compute_frequencies(c);
  const auto& f = r.freqs;
  r.original_length = f.original_length > 0 ? f.original_length : c.original_length();
  r.original_source = original_source(c, f, r.original_length);
  if (linear_extended(c, f)) read_linear_lengths(r);
  r.longrope_list_source = longrope_source(c, f);
  std::tie(r.target_length, r.target_source) = target_length(c, f, r.original_length);
  add_derived(r.config, f, r.original_length, r.original_source);  // listed with the settings
  r.logit_scale = f.attention_factor * f.attention_factor * f.logit_scale;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const auto pairs = static_cast<std::int64_t>(f.pairs());
  r.dim_offset = rotary_dim_offset(c);
  if (const std::string note = rotary_dims_note(c); !note.empty()) r.config.notes.push_back("pair table: " + note);
  for (std::size_t i = 0; i < f.pairs(); ++i) {
    RopePairRow row;
    row.index = i;
    const auto k = static_cast<std::int64_t>(i);
    row.dim_a = r.dim_offset + (c.layout == RopeLayout::kInterleaved ? 2 * k : k);
    row.dim_b = r.dim_offset + (c.layout == RopeLayout::kInterleaved ? 2 * k + 1 : k + pairs);
    row.inv_freq_original = f.inv_freq_original[i];
    row.inv_freq = f.inv_freq[i];
    row.wavelength_original = wavelength(row.inv_freq_original);
    row.wavelength = wavelength(row.inv_freq);
    row.turns_original =
        r.original_length > 0 ? static_cast<double>(r.original_length) * row.inv_freq_original / kTwoPi : nan;
    row.turns_target = r.target_length > 0 ? static_cast<double>(r.target_length) * row.inv_freq / kTwoPi : nan;
    row.regime = f.regime[i];
    row.blend = f.blend[i];
    if (!std::isnan(row.turns_original) && row.turns_original < 1.0) ++r.never_full_turn;
    switch (row.regime) {
      case RopeRegime::kUnchanged: ++r.unchanged; break;
      case RopeRegime::kInterpolated: ++r.interpolated; break;
      case RopeRegime::kBlended: ++r.blended; break;
      case RopeRegime::kRescaled: ++r.rescaled; break;
      case RopeRegime::kZero: ++r.zero; break;
    }
    r.rows.push_back(row);
  }
  return r;
}

bool RopeDiff::within(double tol) const {
  return inv_freq_max_rel <= tol && std::abs(attention_a - attention_b) <= tol && cos_max_abs <= tol &&
         sin_max_abs <= tol;
}

RopeDiff compare_rope(const RopeConfig& a, const RopeConfig& b, std::int64_t len) {
  const auto fa = compute_frequencies(a);
  const auto fb = compute_frequencies(b);
  if (fa.pairs() != fb.pairs()) {
    const auto name = [](const RopeConfig& c, const char* fallback) {
      return c.config_file.empty() ? std::string(fallback) : c.config_file;
    };
    throw Error(fmt::format("cannot compare: {} has {} frequency pairs, {} has {}", name(a, "the first configuration"),
                            fa.pairs(), name(b, "the second"), fb.pairs()));
  }
  RopeDiff d;
  d.pairs = fa.pairs();
  d.attention_a = fa.attention_factor;
  d.attention_b = fb.attention_factor;
  d.same_layout = a.layout == b.layout;
  for (std::size_t i = 0; i < d.pairs; ++i) {
    const double abs = std::abs(fa.inv_freq[i] - fb.inv_freq[i]);
    const double scale = std::max(std::abs(fa.inv_freq[i]), std::abs(fb.inv_freq[i]));
    const double rel = scale > 0 ? abs / scale : 0.0;
    d.inv_freq_max_abs = std::max(d.inv_freq_max_abs, abs);
    if (rel > d.inv_freq_max_rel) d.inv_freq_max_rel = rel, d.inv_freq_worst_pair = i;
    d.inv_freq_rel.push_back(rel);
  }
  // Blocks of positions on the worker threads, merged in position order: the maxima and the
  // first worst position are those of one pass from 0 to len, whatever the thread count.
  struct Span {
    double cos_max = 0, sin_max = 0, worst = -1;
    std::int64_t worst_position = 0;
    std::size_t worst_pair = 0;
    std::vector<double> table_max;
  };
  d.table_max_abs.assign(d.pairs, 0.0);
  double worst = -1;
  pipeline<Span>(
      static_cast<std::size_t>(std::max<std::int64_t>(len, 0)), 2048,
      [&](std::size_t first, std::size_t count, Span& s) {
        s = Span{};
        s.table_max.assign(d.pairs, 0.0);
        for (auto t = static_cast<std::int64_t>(first); t < static_cast<std::int64_t>(first + count); ++t) {
          const auto va = rope_pair_values(a, fa, t);
          const auto vb = rope_pair_values(b, fb, t);
          for (std::size_t i = 0; i < d.pairs; ++i) {
            const double dc = std::abs(va.cos[i] - vb.cos[i]);
            const double ds = std::abs(va.sin[i] - vb.sin[i]);
            s.cos_max = std::max(s.cos_max, dc);
            s.sin_max = std::max(s.sin_max, ds);
            s.table_max[i] = std::max(s.table_max[i], std::max(dc, ds));
            if (std::max(dc, ds) > s.worst) s.worst = std::max(dc, ds), s.worst_position = t, s.worst_pair = i;
          }
        }
      },
      [&](std::size_t, std::size_t, Span& s) {
        d.cos_max_abs = std::max(d.cos_max_abs, s.cos_max);
        d.sin_max_abs = std::max(d.sin_max_abs, s.sin_max);
        for (std::size_t i = 0; i < d.pairs; ++i) d.table_max_abs[i] = std::max(d.table_max_abs[i], s.table_max[i]);
        if (s.worst > worst) worst = s.worst, d.table_worst_position = s.worst_position, d.table_worst_pair = s.worst_pair;
      });
  return d;
}

void add_rope_bounds(RopeReport& r) {
  const RopeConfig& c = r.config;
  r.critical_dimension_length =
      c.original_max_position_embeddings > 0 ? c.original_max_position_embeddings : c.max_position_embeddings;
  if (r.critical_dimension_length > 0)
    r.critical_dimension = critical_dimension(c.rotary_dim, c.base, r.critical_dimension_length);
  r.min_base_length = c.max_position_embeddings;
  if (r.min_base_length > 0) r.min_base = min_base(c.rotary_dim, r.min_base_length);
}

}  // namespace posenc::rope
