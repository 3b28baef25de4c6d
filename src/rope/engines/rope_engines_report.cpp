#include "posenc/rope/engines/rope_engines.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "posenc/error.hpp"
#include "rope_engine_internal.hpp"

namespace posenc::rope {
namespace {

bool exactly_equal(const RopeDiff& d, const RopeFrequencies& a, const RopeFrequencies& b) {
  return d.inv_freq_max_rel == 0.0 && d.cos_max_abs == 0.0 && d.sin_max_abs == 0.0 &&
         a.attention_factor == b.attention_factor && a.logit_scale == b.logit_scale;
}

/// Relative inv_freq difference float32 arithmetic alone can explain: ggml iterates θ ← θ·theta_scale
/// n_rot/2 times in float32 (up to 64 × 6e-8 ≈ 4e-6), the torch engines evaluate one power
/// each; well above that a difference has a cause other than rounding.
constexpr double kFloat32RelLimit = 1e-5;

/// Whether the row's logit scale (the extra softmax factor) differs from transformers' by more
/// than `tol`, relative.
bool logit_scale_differs(const RopeFrequencies& row, const RopeFrequencies& hf, double tol) {
  return !(std::abs(row.logit_scale - hf.logit_scale) <= tol * std::abs(hf.logit_scale));
}

// One rule for every row (meta, ggml and the engines): the named deviations first, then the
// cache, then the logit scale; a difference no deviation names is called float32 rounding only
// when it is of that size.
std::string verdict(const RopeEngineRow& r, const RopeFrequencies& hf, double tol, std::int64_t len) {
  std::vector<std::string> causes = r.freqs.deviations;
  if (r.compared_len < len && causes.empty())
    causes.push_back(fmt::format("its cos/sin cache has {} rows: positions ≥ {} are outside it", r.compared_len,
                                 r.compared_len));
  if (logit_scale_differs(r.freqs, hf, tol))
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
  if (r.diff.inv_freq_max_rel <= kFloat32RelLimit)
    return fmt::format("differs by its float32 arithmetic: inv_freq {:.2g} relative (pair {}), cos/sin {:.2g} at "
                       "position {}",
                       r.diff.inv_freq_max_rel, r.diff.inv_freq_worst_pair,
                       std::max(r.diff.cos_max_abs, r.diff.sin_max_abs), r.diff.table_worst_position);
  return fmt::format("differs for a cause posenc does not name: inv_freq {:.2g} relative (pair {}), beyond float32 "
                     "rounding; cos/sin {:.2g} at position {} (compare 'posenc rope --convention {}' with "
                     "--convention hf)",
                     r.diff.inv_freq_max_rel, r.diff.inv_freq_worst_pair,
                     std::max(r.diff.cos_max_abs, r.diff.sin_max_abs), r.diff.table_worst_position,
                     to_string(r.convention));
}

}  // namespace

bool RopeEnginesReport::within() const {
  return std::all_of(rows.begin(), rows.end(), [](const RopeEngineRow& r) { return !r.ok || r.within; });
}

bool ModelEnginesReport::within() const {
  return std::all_of(ropes.begin(), ropes.end(), [](const RopeTypeEngines& t) { return t.report.within(); });
}

RopeEnginesReport compare_engines(const RopeConfig& c, std::int64_t len, double tol) {
  RopeEnginesReport rep;
  rep.config = c;
  rep.config.convention = RopeConvention::kHf;
  rep.config.seq_len = len;
  rep.len = len;
  rep.tol = tol;
  rep.hf = compute_frequencies(rep.config);
  RopeConfig f64 = rep.config;
  f64.precision = RopePrecision::kF64;
  const RopeFrequencies f64_freqs = compute_frequencies(f64);
  std::vector<RopeConfig> configs;
  for (const auto& info : rope_conventions()) {
    const auto conv = parse_rope_convention(info.name);
    if (conv == RopeConvention::kHf) continue;
    RopeEngineRow row;
    row.convention = conv;
    RopeConfig e = rep.config;
    e.convention = conv;
    try {
      row.freqs = compute_frequencies(e);
      if (row.freqs.pairs() != rep.hf.pairs())  // compare_rope's refusal
        throw Error(fmt::format("cannot compare: {} has {} frequency pairs, {} has {}",
                                e.config_file.empty() ? std::string("the first configuration") : e.config_file,
                                rep.hf.pairs(), e.config_file.empty() ? std::string("the second") : e.config_file,
                                row.freqs.pairs()));
      row.compared_len = row.freqs.cache_len > 0 && !row.freqs.cache_grows ? std::min(len, row.freqs.cache_len) : len;
      row.ok = true;
    } catch (const Error& err) {
      row.error = err.what();
      row.verdict = "refuses: " + row.error;
    }
    configs.push_back(e);
    rep.rows.push_back(std::move(row));
  }
  // Every table against transformers' in one pass over the positions.
  std::vector<detail::engine::TableJob> jobs;
  std::vector<std::size_t> job_row;
  for (std::size_t k = 0; k < rep.rows.size(); ++k) {
    if (!rep.rows[k].ok) continue;
    detail::engine::TableJob job;
    job.config = &configs[k];
    job.freqs = &rep.rows[k].freqs;
    job.len = rep.rows[k].compared_len;
    jobs.push_back(std::move(job));
    job_row.push_back(k);
  }
  rep.noise = detail::engine::compare_engine_tables(rep.config, rep.hf, f64, f64_freqs, jobs, len);
  for (std::size_t j = 0; j < jobs.size(); ++j) {
    RopeEngineRow& row = rep.rows[job_row[j]];
    row.diff = std::move(jobs[j].diff);
    // The same rule for every row: frequencies, cos/sin, the logit scale and the cache length.
    row.within = row.diff.within(tol) && !logit_scale_differs(row.freqs, rep.hf, tol) && row.compared_len == len;
    row.verdict = verdict(row, rep.hf, tol, len);
  }
  return rep;
}

}  // namespace posenc::rope
