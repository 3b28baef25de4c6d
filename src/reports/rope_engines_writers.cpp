#include "posenc/reports/rope_engines_writers.hpp"

#include <fmt/format.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "posenc/models/layers.hpp"

namespace posenc::reports {
namespace {

using rope::RopeEngineRow;

std::string cache_text(const rope::RopeFrequencies& f) {
  if (f.cache_len <= 0) return "per call";
  return fmt::format("{}{}", f.cache_len, f.cache_grows ? "+" : "");
}

std::string number(double v) { return fmt::format("{:.4g}", v); }

nlohmann::json finite(double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr); }

void write_body(const rope::RopeEnginesReport& r, std::ostream& out) {
  const auto& c = r.config;
  out << fmt::format("rope engines: {}, {} with {} pairs, a sequence of {} tokens (positions 0..{}), --tol {}\n",
                     c.config_file.empty() ? std::string("flags") : c.config_file, to_string(c.scaling), r.hf.pairs(),
                     r.len, r.len - 1, r.tol);
  out << fmt::format("transformers' own float32 vs float64 over these positions: max |Δcos|, |Δsin| {:.3g}\n\n",
                     r.noise);
  out << fmt::format("{:<9} {:>12} {:>9} {:>8} {:>9} {:>10} {:>10}  {}\n", "", "inv_freq", "attention", "logit",
                     "cache", "max", "max", "longrope");
  out << fmt::format("{:<9} {:>12} {:>9} {:>8} {:>9} {:>10} {:>10}  {}\n", "convention", "rel. diff", "factor", "scale",
                     "rows", "|Δcos|", "|Δsin|", "list");
  out << fmt::format("{:<9} {:>12} {:>9} {:>8} {:>9} {:>10} {:>10}  {}\n", "hf", "-", number(r.hf.attention_factor),
                     number(r.hf.logit_scale), cache_text(r.hf), "-", "-",
                     r.hf.longrope_list.empty() ? "-" : r.hf.longrope_list);
  for (const RopeEngineRow& row : r.rows) {
    const std::string name(to_string(row.convention));
    if (!row.ok) {
      out << fmt::format("{:<9} {:>12} {:>9} {:>8} {:>9} {:>10} {:>10}  {}\n", name, "refuses", "-", "-", "-", "-", "-",
                         "-");
      continue;
    }
    out << fmt::format("{:<9} {:>12} {:>9} {:>8} {:>9} {:>10} {:>10}  {}\n", name,
                       fmt::format("{:.3g}", row.diff.inv_freq_max_rel), number(row.freqs.attention_factor),
                       number(row.freqs.logit_scale), cache_text(row.freqs), fmt::format("{:.3g}", row.diff.cos_max_abs),
                       fmt::format("{:.3g}", row.diff.sin_max_abs),
                       row.freqs.longrope_list.empty() ? "-" : row.freqs.longrope_list);
  }
  out << "\nverdicts (cache rows: + grows on demand; Δ over positions each engine's cache holds)\n";
  for (const RopeEngineRow& row : r.rows)
    out << fmt::format("  {:<9} {}\n", to_string(row.convention), row.verdict);
}

void write_footer(bool within, std::ostream& out) {
  out << "\nversions\n";
  for (const auto& info : rope::rope_conventions())
    out << fmt::format("  {:<9} {}: {}\n", info.name, info.engine, info.version);
  out << fmt::format("\n{}\n", within ? "every convention that accepts these settings is within --tol"
                                      : "some conventions differ beyond --tol (exit status 1)");
}

}  // namespace

void write_rope_engines_text(const rope::RopeEnginesReport& r, std::ostream& out) {
  write_body(r, out);
  write_footer(r.within(), out);
}

void write_model_engines_text(const rope::ModelEnginesReport& m, std::ostream& out) {
  const std::string no_rope =
      m.no_rope_layers.empty()
          ? std::string()
          : fmt::format("layers without RoPE, nothing to compare: {}\n", models::layer_ranges(m.no_rope_layers));
  if (m.ropes.size() == 1 && m.ropes.front().layer_type.empty()) {
    write_body(m.ropes.front().report, out);
    if (!no_rope.empty()) out << "\n" << no_rope;
    write_footer(m.within(), out);
    return;
  }
  const auto& first = m.ropes.front().report;
  out << fmt::format("rope engines: {}, {} ropes:", first.config.config_file.empty() ? std::string("flags")
                                                                                     : first.config.config_file,
                     m.ropes.size());
  for (std::size_t i = 0; i < m.ropes.size(); ++i)
    out << fmt::format("{} {} (layers {})", i ? ";" : "", m.ropes[i].layer_type, models::layer_ranges(m.ropes[i].layers));
  out << "\n" << no_rope;
  for (const auto& t : m.ropes) {
    out << fmt::format("\n== rope of the {} layers ({}) ==\n", t.layer_type, models::layer_ranges(t.layers));
    write_body(t.report, out);
  }
  write_footer(m.within(), out);
}

namespace {

// The object of one rope; `with_file`: the hf_config key too (the single-rope document).
nlohmann::json engines_json(const rope::RopeEnginesReport& r, bool with_file) {
  using nlohmann::json;
  json engines = json::array();
  for (const RopeEngineRow& row : r.rows) {
    const auto& info = rope::rope_convention_info(row.convention);
    json e = {{"convention", std::string(info.name)}, {"engine", std::string(info.engine)},
              {"version", std::string(info.version)}, {"ok", row.ok}, {"error", row.ok ? json(nullptr) : json(row.error)},
              {"verdict", row.verdict}, {"within", row.within}};
    if (row.ok) {
      const auto& f = row.freqs;
      json inv = json::array();
      for (double v : f.inv_freq) inv.push_back(finite(v));
      e["inv_freq"] = inv;
      e["inv_freq_max_rel"] = row.diff.inv_freq_max_rel;
      e["attention_factor"] = f.attention_factor;
      e["attention_placement"] = f.attention_placement;
      e["logit_scale"] = f.logit_scale;
      e["cache_len"] = f.cache_len > 0 ? json(f.cache_len) : json(nullptr);
      e["cache_grows"] = f.cache_grows;
      e["compared_len"] = row.compared_len;
      e["cos_max_abs"] = row.diff.cos_max_abs;
      e["sin_max_abs"] = row.diff.sin_max_abs;
      e["longrope_list"] = f.longrope_list.empty() ? json(nullptr) : json(f.longrope_list);
      e["deviations"] = f.deviations;
    }
    engines.push_back(std::move(e));
  }
  json hf_inv = json::array();
  for (double v : r.hf.inv_freq) hf_inv.push_back(finite(v));
  json j = {{"rope_type", std::string(to_string(r.config.scaling))},
            {"len", r.len},
            {"tol", r.tol},
            {"noise", r.noise},
            {"within", r.within()},
            {"transformers",
             {{"inv_freq", hf_inv},
              {"attention_factor", r.hf.attention_factor},
              {"logit_scale", r.hf.logit_scale},
              {"longrope_list", r.hf.longrope_list.empty() ? json(nullptr) : json(r.hf.longrope_list)}}},
            {"engines", engines}};
  if (with_file) j["hf_config"] = r.config.config_file.empty() ? json(nullptr) : json(r.config.config_file);
  return j;
}

}  // namespace

void write_rope_engines_json(const rope::RopeEnginesReport& r, std::ostream& out) {
  out << engines_json(r, true).dump(2) << "\n";
}

void write_model_engines_json(const rope::ModelEnginesReport& m, std::ostream& out) {
  using nlohmann::json;
  if (m.ropes.size() == 1 && m.ropes.front().layer_type.empty()) {
    json one = engines_json(m.ropes.front().report, true);
    if (!m.no_rope_layers.empty()) one["no_rope_layers"] = m.no_rope_layers;
    out << one.dump(2) << "\n";
    return;
  }
  const auto& first = m.ropes.front().report;
  json types = json::array();
  json ropes = json::object();
  for (const auto& t : m.ropes) {
    types.push_back(t.layer_type);
    json one = engines_json(t.report, false);
    one["layers"] = t.layers;
    ropes[t.layer_type] = std::move(one);
  }
  json j = {{"hf_config", first.config.config_file.empty() ? json(nullptr) : json(first.config.config_file)},
            {"len", first.len},
            {"tol", first.tol},
            {"within", m.within()},
            {"layer_types", types},
            {"no_rope_layers", m.no_rope_layers},
            {"rope_types", ropes}};
  out << j.dump(2) << "\n";
}

}  // namespace posenc::reports
