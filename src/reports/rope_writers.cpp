#include "posenc/reports/rope_writers.hpp"

#include "posenc/models/rope_gguf.hpp"
#include "gguf_json.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

namespace posenc::reports {
namespace {

using rope::RopeReport;

std::string csv_number(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  return fmt::format("{}", v);
}

std::string text_number(double v, const char* spec) {
  if (std::isnan(v)) return "-";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  return fmt::format(fmt::runtime(spec), v);
}

nlohmann::json number_rope(double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr); }
nlohmann::json length(std::int64_t n) { return n > 0 ? nlohmann::json(n) : nlohmann::json(nullptr); }  // 0 = not set
nlohmann::json source(const std::string& s) { return s.empty() ? nlohmann::json(nullptr) : nlohmann::json(s); }

std::string scaling_line(const RopeReport& r) {
  const auto& c = r.config;
  std::string s = fmt::format("{}{} (convention {}, precision {}, layout {})", to_string(c.scaling),
                              c.scaling == rope::RopeScaling::kNone ? " = transformers' rope_type \"default\"" : "",
                              to_string(c.convention), to_string(c.precision), to_string(c.layout));
  if (r.freqs.factor != 1.0) s += fmt::format(", factor {}", r.freqs.factor);
  return s;
}

}  // namespace

void write_rope_report_text(const RopeReport& r, std::ostream& out) {
  const auto& f = r.freqs;
  out << fmt::format("{:>4} {:>9} {:>13} {:>13} {:>12} {:>12} {:>10} {:>10}  {}\n", "pair", "dims", "inv_freq",
                     "scaled", "wavelength", "scaled_wl", "turns_orig", "turns_tgt", "regime");
  for (const auto& row : r.rows) {
    std::string regime(to_string(row.regime));
    if (row.regime == rope::RopeRegime::kBlended) regime += fmt::format(" (w={:.3f})", row.blend);
    out << fmt::format("{:>4} {:>9} {:>13} {:>13} {:>12} {:>12} {:>10} {:>10}  {}\n", row.index,
                       fmt::format("{},{}", row.dim_a, row.dim_b), text_number(row.inv_freq_original, "{:.6e}"),
                       text_number(row.inv_freq, "{:.6e}"), text_number(row.wavelength_original, "{:.6g}"),
                       text_number(row.wavelength, "{:.6g}"), text_number(row.turns_original, "{:.4g}"),
                       text_number(row.turns_target, "{:.4g}"), regime);
  }
  out << "\nsummary\n";
  out << fmt::format("  scaling            {}\n", scaling_line(r));
  out << fmt::format("  rotary             {} of {} dims, base {}{}\n", r.config.rotary_dim, r.config.head_dim, r.config.base,
                     f.base != r.config.base ? fmt::format(" (scaled base {})", f.base) : std::string());
  const auto length = [](std::int64_t n, const std::string& source) {
    return n > 0 ? fmt::format("{} ({})", n, source) : std::string("not set");
  };
  out << fmt::format("  lengths            original {}, target {}\n", length(r.original_length, r.original_source),
                     length(r.target_length, r.target_source));
  out << fmt::format("  attention factor   {} (logits × {}{})\n", f.attention_factor, r.logit_scale,
                     f.logit_scale != 1.0 ? fmt::format(", with the softmax scale × {}", f.logit_scale) : std::string());
  if (rope::is_engine_convention(r.config.convention)) {
    const auto& info = rope::rope_convention_info(r.config.convention);
    out << fmt::format("  engine             {} ({})\n", info.engine, info.version);
    out << fmt::format("  cos/sin cache      {}; attention factor on {}\n",
                       f.cache_len > 0 ? fmt::format("{} rows{}", f.cache_len, f.cache_grows ? ", grown on demand" : "")
                                       : std::string("none, computed per call"),
                       f.attention_placement);
  }
  out << fmt::format("  regimes            {} unchanged, {} interpolated, {} blended, {} rescaled, {} zero\n", r.unchanged,
                     r.interpolated, r.blended, r.rescaled, r.zero);
  if (r.original_length > 0)
    out << fmt::format("  never a full turn  {} pairs within the original {} tokens\n", r.never_full_turn, r.original_length);
  if (r.critical_dimension)
    out << fmt::format("  critical dim       {} of {} (Liu et al. 2023: pairs 0 … {} turn fully within {} at base {})\n",
                       *r.critical_dimension, r.config.rotary_dim, *r.critical_dimension / 2 - 1,
                       r.critical_dimension_length, r.config.base);
  if (r.min_base)
    out << fmt::format("  min base           {:.3g} for {} positions (Men et al. 2024: Σ cos(m·θ_i) ≥ 0 for every m ≤ {}); "
                       "this rope's base {}\n",
                       *r.min_base, r.min_base_length, r.min_base_length, f.base);
  if (f.yarn)
    out << fmt::format("  yarn range         pairs {} .. {} (raw {:.6f} .. {:.6f}, beta_fast {}, beta_slow {}, {})\n",
                       f.yarn->low, f.yarn->high, f.yarn->low_raw, f.yarn->high_raw, f.yarn->beta_fast,
                       f.yarn->beta_slow, f.yarn->truncated ? "rounded" : "not rounded");
  if (f.llama3)
    out << fmt::format("  llama3 bands       {} unchanged / {} smoothed / {} divided (wavelengths {} .. {})\n",
                       f.llama3->unchanged, f.llama3->smoothed, f.llama3->divided, f.llama3->high_freq_wavelen,
                       f.llama3->low_freq_wavelen);
  if (!f.longrope_list.empty())
    out << fmt::format("  longrope list      {}_factor ({})\n", f.longrope_list, r.longrope_list_source);
  out << "\nsettings\n";
  std::size_t name_width = 0, value_width = 0;  // columns as wide as their longest entry
  for (const auto& s : r.config.sources) {
    name_width = std::max(name_width, s.name.size());
    value_width = std::max(value_width, s.value.size());
  }
  for (const auto& s : r.config.sources)
    out << fmt::format("  {:<{}}  {:<{}}  {}\n", s.name, name_width, s.value.empty() ? "-" : s.value, value_width,
                       s.source);
  if (!f.deviations.empty()) out << "\nwhere this engine departs from transformers\n";
  for (const auto& d : f.deviations) out << "  " << d << "\n";
  if (!r.per_layer_type.empty() || !r.no_rope_layers.empty()) out << "\nlayers\n";
  for (const auto& t : r.per_layer_type)
    out << fmt::format("  {:<18} {} layers, base {}, {}{}, attention factor {}{}\n", t.layer_type, t.layers.size(),
                       t.base, t.scaling, t.factor != 1.0 ? fmt::format(" ×{}", t.factor) : std::string(),
                       t.attention_factor, t.layer_type == r.layer_type ? "  (this report)" : "");
  if (!r.no_rope_layers.empty()) {
    std::string list;
    for (auto i : r.no_rope_layers) list += fmt::format("{}{}", list.empty() ? "" : ",", i);
    out << fmt::format("  {:<18} {} layers: {}\n", "no RoPE", r.no_rope_layers.size(), list);
  }
  if (!r.config.notes.empty() || !f.warnings.empty()) out << "\nwarnings\n";
  for (const auto& n : r.config.notes) out << "  note: " << n << "\n";
  for (const auto& w : f.warnings) out << "  warning: " << w << "\n";
}

void write_rope_report_csv(const RopeReport& r, std::ostream& out) {
  out << "pair,dim_a,dim_b,inv_freq_original,inv_freq,wavelength_original,wavelength,turns_original,turns_target,"
         "regime,blend\n";
  for (const auto& row : r.rows)
    out << fmt::format("{},{},{},{},{},{},{},{},{},{},{}\n", row.index, row.dim_a, row.dim_b,
                       csv_number(row.inv_freq_original), csv_number(row.inv_freq), csv_number(row.wavelength_original),
                       csv_number(row.wavelength), csv_number(row.turns_original), csv_number(row.turns_target),
                       to_string(row.regime), csv_number(row.blend));
}

void write_rope_report_json(const RopeReport& r, std::ostream& out) {
  using nlohmann::json;
  const auto& c = r.config;
  const auto& f = r.freqs;
  json pairs = json::array();
  for (const auto& row : r.rows)
    pairs.push_back({{"index", row.index}, {"dims", {row.dim_a, row.dim_b}}, {"inv_freq_original", number_rope(row.inv_freq_original)},
                     {"inv_freq", number_rope(row.inv_freq)}, {"wavelength_original", number_rope(row.wavelength_original)},
                     {"wavelength", number_rope(row.wavelength)}, {"turns_original", number_rope(row.turns_original)},
                     {"turns_target", number_rope(row.turns_target)}, {"regime", std::string(to_string(row.regime))},
                     {"blend", number_rope(row.blend)}});
  json settings = json::array();
  for (const auto& s : c.sources) settings.push_back({{"name", s.name}, {"value", s.value}, {"source", s.source}});
  json j = {{"rope_type", std::string(to_string(c.scaling))}, {"convention", std::string(to_string(c.convention))},
            {"precision", std::string(to_string(c.precision))}, {"layout", std::string(to_string(c.layout))},
            {"head_dim", c.head_dim}, {"rotary_dim", c.rotary_dim}, {"base", c.base}, {"scaled_base", f.base},
            {"factor", f.factor}, {"original_length", length(r.original_length)},
            {"original_length_source", source(r.original_source)}, {"target_length", length(r.target_length)},
            {"target_length_source", source(r.target_source)},
            {"attention_factor", f.attention_factor}, {"logit_scale", f.logit_scale}, {"logits_total", r.logit_scale},
            {"cache_len", length(f.cache_len)}, {"cache_grows", f.cache_grows},
            {"attention_placement", f.attention_placement}, {"deviations", f.deviations},
            {"max_model_len", length(c.max_model_len)}, {"inv_freq", json::array()},
            {"inv_freq_original", json::array()}, {"pairs", pairs}, {"yarn", nullptr}, {"llama3", nullptr},
            {"longrope_list", f.longrope_list.empty() ? json(nullptr) : json(f.longrope_list)},
            {"longrope_list_source", source(r.longrope_list_source)},
            {"never_full_turn", r.never_full_turn},
            {"critical_dimension", r.critical_dimension ? json(*r.critical_dimension) : json(nullptr)},
            {"critical_dimension_length", length(r.critical_dimension_length)},
            {"min_base", r.min_base ? json(*r.min_base) : json(nullptr)},
            {"min_base_length", length(r.min_base_length)},
            {"regimes", {{"unchanged", r.unchanged}, {"interpolated", r.interpolated}, {"blended", r.blended},
                         {"rescaled", r.rescaled}, {"zero", r.zero}}},
            {"settings", settings}, {"warnings", f.warnings}, {"notes", c.notes}};
  for (std::size_t i = 0; i < f.pairs(); ++i) {
    j["inv_freq"].push_back(number_rope(f.inv_freq[i]));
    j["inv_freq_original"].push_back(number_rope(f.inv_freq_original[i]));
  }
  j["layer_type"] = r.layer_type.empty() ? json(nullptr) : json(r.layer_type);
  j["no_rope_layers"] = r.no_rope_layers;
  if (!r.per_layer_type.empty()) {
    j["per_layer_type"] = json::object();
    for (const auto& t : r.per_layer_type) {
      json inv = json::array();
      for (double v : t.inv_freq) inv.push_back(number_rope(v));
      j["per_layer_type"][t.layer_type] = {{"layers", t.layers}, {"base", t.base}, {"scaling", t.scaling},
                                           {"factor", t.factor}, {"attention_factor", t.attention_factor},
                                           {"inv_freq", inv}};
    }
  }
  if (f.yarn)
    j["yarn"] = {{"beta_fast", f.yarn->beta_fast}, {"beta_slow", f.yarn->beta_slow}, {"low_raw", f.yarn->low_raw},
                 {"high_raw", f.yarn->high_raw}, {"low", f.yarn->low}, {"high", f.yarn->high},
                 {"truncate", f.yarn->truncated}};
  if (f.llama3)
    j["llama3"] = {{"unchanged", f.llama3->unchanged}, {"smoothed", f.llama3->smoothed}, {"divided", f.llama3->divided},
                   {"high_freq_wavelen", f.llama3->high_freq_wavelen}, {"low_freq_wavelen", f.llama3->low_freq_wavelen},
                   {"original_length", f.llama3->original_length}};
  if (c.gguf) j["gguf"] = detail::gguf_source_json(*c.gguf);  // what was read from a .gguf file
  out << j.dump(2) << "\n";
}

}  // namespace posenc::reports
