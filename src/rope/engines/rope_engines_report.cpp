#include "posenc/rope/engines/rope_engines.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "posenc/error.hpp"

namespace posenc::rope {
namespace {

bool exactly_equal(const RopeDiff& d, const RopeFrequencies& a, const RopeFrequencies& b) {
  return d.inv_freq_max_rel == 0.0 && d.cos_max_abs == 0.0 && d.sin_max_abs == 0.0 &&
         a.attention_factor == b.attention_factor && a.logit_scale == b.logit_scale;
}

std::string verdict(const RopeEngineRow& r, const RopeFrequencies& hf, double tol, std::int64_t len) {
  std::vector<std::string> causes = r.freqs.deviations;
  if (r.compared_len < len && causes.empty())
    causes.push_back(fmt::format("its cos/sin cache has {} rows: positions ≥ {} are outside it", r.compared_len,
                                 r.compared_len));
  if (is_engine_convention(r.convention) && std::abs(r.freqs.logit_scale - hf.logit_scale) > tol && causes.empty())
    causes.push_back(fmt::format("logit scale {:.6g} where transformers uses {:.6g}", r.freqs.logit_scale, hf.logit_scale));
  if (!causes.empty()) {
    std::string v = r.within ? "within --tol, but " : "differs: ";
    for (std::size_t i = 0; i < causes.size(); ++i) v += (i ? "; " : "") + causes[i];
    return v;
  }
  if (exactly_equal(r.diff, r.freqs, hf)) return "agrees bitwise";
  if (r.within)
    return fmt::format("agrees within --tol (float32 rounding: inv_freq {:.2g} relative, cos/sin {:.2g})",
                       r.diff.inv_freq_max_rel, std::max(r.diff.cos_max_abs, r.diff.sin_max_abs));
  return fmt::format("differs by its float32 arithmetic: inv_freq {:.2g} relative (pair {}), cos/sin {:.2g} at "
                     "position {}",
                     r.diff.inv_freq_max_rel, r.diff.inv_freq_worst_pair, std::max(r.diff.cos_max_abs, r.diff.sin_max_abs),
                     r.diff.table_worst_position);
}

}  // namespace

bool RopeEnginesReport::within() const {
  return std::all_of(rows.begin(), rows.end(), [](const RopeEngineRow& r) { return !r.ok || r.within; });
}

RopeEnginesReport compare_engines(const RopeConfig& c, std::int64_t len, double tol) {
  RopeEnginesReport rep;
  rep.config = c;
  rep.config.convention = RopeConvention::kHf;
  rep.config.seq_len = len;
  rep.len = len;
  rep.tol = tol;
  rep.hf = compute_frequencies(rep.config);
  {
    RopeConfig f64 = rep.config;
    f64.precision = RopePrecision::kF64;
    const auto noise = compare_rope(rep.config, f64, len);
    rep.noise = std::max(noise.cos_max_abs, noise.sin_max_abs);
  }
  for (const auto& info : rope_conventions()) {
    const auto conv = parse_rope_convention(info.name);
    if (conv == RopeConvention::kHf) continue;
    RopeEngineRow row;
    row.convention = conv;
    RopeConfig e = rep.config;
    e.convention = conv;
    try {
      row.freqs = compute_frequencies(e);
      row.compared_len = row.freqs.cache_len > 0 && !row.freqs.cache_grows ? std::min(len, row.freqs.cache_len) : len;
      row.diff = compare_rope(rep.config, e, row.compared_len);
      row.ok = true;
    } catch (const Error& err) {
      row.error = err.what();
      row.verdict = "refuses: " + row.error;
      rep.rows.push_back(std::move(row));
      continue;
    }
    // Meta and ggml do not model the softmax scale; the engines do.
    const bool logits_ok = !is_engine_convention(conv) || std::abs(row.freqs.logit_scale - rep.hf.logit_scale) <= tol;
    row.within = row.diff.within(tol) && logits_ok &&
                 row.compared_len == len;
    row.verdict = verdict(row, rep.hf, tol, len);
    rep.rows.push_back(std::move(row));
  }
  return rep;
}

}  // namespace posenc::rope
