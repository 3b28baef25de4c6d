// The weights part of `posenc model` as text and JSON (see model_writers.hpp).
#include "model_weights_writers.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace posenc::reports::detail {
namespace {

using nlohmann::json;

json weights_num(double v) { return std::isfinite(v) ? json(v) : json(nullptr); }

json weights_numbers(const std::vector<double>& v) {
  json a = json::array();
  for (double d : v) a.push_back(weights_num(d));
  return a;
}

std::string weights_shape_text(const std::vector<std::uint64_t>& shape) {
  std::string s = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) s += fmt::format("{}{}", i ? ", " : "", shape[i]);
  return s + "]";
}

/// "0-1, 1026" from sorted indices.
std::string row_ranges(const std::vector<std::int64_t>& v) {
  if (v.empty()) return "none";
  std::string s;
  for (std::size_t i = 0; i < v.size();) {
    std::size_t j = i;
    while (j + 1 < v.size() && v[j + 1] == v[j] + 1) ++j;
    s += fmt::format("{}{}", s.empty() ? "" : ", ", i == j ? fmt::format("{}", v[i]) : fmt::format("{}-{}", v[i], v[j]));
    i = j + 1;
  }
  return s;
}

void table_text(const models::TableWeights& t, std::ostream& out) {
  out << fmt::format("  weights: {} {} {}{}\n", t.tensor, t.dtype, weights_shape_text(t.shape),
                     t.part_tensors.empty() ? "" : " (built)");
  for (std::size_t i = 0; i < t.part_tensors.size(); ++i)
    out << fmt::format("    part: {} {}\n", t.part_tensors[i], weights_shape_text(t.part_shapes[i]));
  out << fmt::format("    rule: {}\n", t.rule);
  out << fmt::format("    rows used: {}-{} of {} (position 0: row {}); unused rows: {}\n", t.first_row, t.last_row, t.rows,
                     t.first_row, row_ranges(t.unused_rows));
  if (!t.row_norm.empty()) {
    const auto lo = std::min_element(t.row_norm.begin(), t.row_norm.end());
    const auto hi = std::max_element(t.row_norm.begin(), t.row_norm.end());
    std::string head;
    for (std::size_t i = 0; i < std::min<std::size_t>(4, t.row_norm.size()); ++i)
      head += fmt::format("{}{:.6g}", i ? ", " : "", t.row_norm[i]);
    out << fmt::format("    row norm: min {:.6g} (row {}), max {:.6g} (row {}); rows 0-{}: {}\n", *lo,
                       lo - t.row_norm.begin(), *hi, hi - t.row_norm.begin(),
                       std::min<std::size_t>(4, t.row_norm.size()) - 1, head);
  }
  if (t.formula_max_abs_diff) out << fmt::format("    formula max |diff|: {:.6g}\n", *t.formula_max_abs_diff);
  if (t.statistics) {
    const auto& s = *t.statistics;
    if (!s.neighbour_cosine.empty())
      out << fmt::format("    neighbouring {}: cosine mean {:.6g}, min {:.6g}\n",
                         t.grid_rows > 0 ? "patches (x, x+1)" : "rows (t, t+1)", s.neighbour_cosine_mean,
                         s.neighbour_cosine_min);
    if (s.sinusoid_base > 0)
      out << fmt::format("    closest sinusoid table: base {:.4g} (RMS of the cosine-similarity difference {:.4g}; "
                         "base 10000: {:.4g})\n",
                         s.sinusoid_base, s.sinusoid_rms, s.sinusoid_rms_base_1e4);
  }
}

void bias_text(const models::BiasWeights& b, std::ostream& out) {
  out << fmt::format("  weights: {} {} {} (buckets × heads)\n", b.tensor, b.dtype, weights_shape_text(b.shape));
  for (std::int64_t h = 0; h < std::min<std::int64_t>(b.heads, 16); ++h) {
    double lo = INFINITY, hi = -INFINITY;
    for (std::int64_t k = 0; k < b.buckets; ++k) {
      const double v = b.bias[static_cast<std::size_t>(k * b.heads + h)];
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    }
    out << fmt::format("    head {:>2}: bucket 0 {:.6g}, bucket 1 {:.6g}, range [{:.6g}, {:.6g}]\n", h,
                       b.bias[static_cast<std::size_t>(h)],
                       b.buckets > 1 ? b.bias[static_cast<std::size_t>(b.heads + h)] : NAN, lo, hi);
  }
  if (b.heads > 16) out << fmt::format("    … {} more heads (--format json lists every value)\n", b.heads - 16);
}

void rope_text(const std::vector<models::RopeTensorWeights>& v, std::ostream& out) {
  for (std::size_t i = 0; i < v.size(); ++i) {
    const auto& t = v[i];
    std::size_t same = 1;  // layers holding the same buffer: one line (JSON lists each)
    while (i + same < v.size() && v[i + same].stored == t.stored && v[i + same].expected == t.expected) ++same;
    out << fmt::format("  weights: {} {} {}", t.tensor, t.dtype, weights_shape_text(t.shape));
    if (same > 1) out << fmt::format(" (and {} more, the same values, to {})", same - 1, v[i + same - 1].tensor);
    i += same - 1;
    if (t.max_rel_diff)
      out << fmt::format(": max relative difference from the expected values {:.3g} (pair {}; {} rounding: {:.0e})\n",
                         *t.max_rel_diff, t.worst_pair, t.dtype, t.tolerance);
    else
      out << fmt::format(": stored values {}{}\n", t.stored.empty() ? 0.0 : t.stored.front(),
                         t.stored.size() > 1 ? fmt::format(" … {}", t.stored.back()) : "");
  }
}

}  // namespace

void weights_text(const models::MechanismUse& m, std::ostream& out) {
  if (!m.weights) return;
  if (m.weights->table) table_text(*m.weights->table, out);
  if (m.weights->bias) bias_text(*m.weights->bias, out);
  rope_text(m.weights->rope, out);
}

void weights_json(const models::MechanismUse& m, json& mechanism) {
  if (!m.weights) return;
  const auto& w = *m.weights;
  if (w.table) {
    const auto& t = *w.table;
    json j = {{"tensor", t.tensor}, {"dtype", t.dtype}, {"shape", t.shape}, {"first_row", t.first_row},
              {"rows_used", {t.first_row, t.last_row}}, {"unused_rows", t.unused_rows}, {"row_norm", weights_numbers(t.row_norm)}};
    if (t.formula_max_abs_diff) j["formula_max_abs_diff"] = weights_num(*t.formula_max_abs_diff);
    if (!t.part_tensors.empty()) {
      json parts = json::array();
      for (std::size_t i = 0; i < t.part_tensors.size(); ++i)
        parts.push_back({{"tensor", t.part_tensors[i]}, {"shape", t.part_shapes[i]}});
      j["parts"] = parts;
    }
    mechanism["weights"] = j;
    json s = {{"rule", t.rule}, {"padding_row", t.padding_row >= 0 ? json(t.padding_row) : json(nullptr)},
              {"findings", w.findings}};
    if (t.grid_rows > 0) {
      s["grid_rows"] = t.grid_rows;
      s["grid_cols"] = t.grid_cols;
      s["class_token"] = t.class_token;
    }
    if (t.statistics) {
      s["neighbour_cosine_mean"] = weights_num(t.statistics->neighbour_cosine_mean);
      s["neighbour_cosine_min"] = weights_num(t.statistics->neighbour_cosine_min);
      if (t.statistics->sinusoid_base > 0) {
        s["sinusoid_base"] = weights_num(t.statistics->sinusoid_base);
        s["sinusoid_rms"] = weights_num(t.statistics->sinusoid_rms);
        s["sinusoid_rms_base_10000"] = weights_num(t.statistics->sinusoid_rms_base_1e4);
      }
    }
    mechanism["weights_summary"] = s;
  } else if (w.bias) {
    const auto& b = *w.bias;
    json rows = json::array();
    for (std::int64_t k = 0; k < b.buckets; ++k)
      rows.push_back(weights_numbers(std::vector<double>(b.bias.begin() + k * b.heads, b.bias.begin() + (k + 1) * b.heads)));
    mechanism["weights"] = {{"tensor", b.tensor}, {"dtype", b.dtype}, {"shape", b.shape}, {"bias", rows}};
    mechanism["weights_summary"] = {{"findings", w.findings}};
  } else if (!w.rope.empty()) {
    json list = json::array();
    for (const auto& t : w.rope)
      list.push_back({{"tensor", t.tensor}, {"dtype", t.dtype}, {"shape", t.shape}, {"stored", weights_numbers(t.stored)},
                      {"expected", t.expected.empty() ? json(nullptr) : weights_numbers(t.expected)},
                      {"max_rel_diff", t.max_rel_diff ? weights_num(*t.max_rel_diff) : json(nullptr)}});
    mechanism["weights"] = list;
    mechanism["weights_summary"] = {{"findings", w.findings}};
  }
}

}  // namespace posenc::reports::detail
