// `posenc usage` as text, JSON and tables (usage_writers.hpp).
#include "posenc/reports/usage_writers.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <numbers>
#include <nlohmann/json.hpp>

#include "posenc/error.hpp"
#include "posenc/text.hpp"

namespace posenc::reports {
namespace {

using Json = nlohmann::ordered_json;

const std::vector<double>& usage_array(const analysis::UsageReport& r, const std::string& name) {
  if (name == "rho") return r.rho;
  if (name == "phi") return r.phi;
  if (name == "q-norm") return r.q_norm;
  if (name == "k-norm") return r.k_norm;
  if (name == "pair-cos") return r.pair_cos;
  if (name == "k-pair-cos") return r.k_pair_cos;
  throw Error(fmt::format("--table '{}' is not a usage array (choose rho, phi, q-norm, k-norm, pair-cos, k-pair-cos)", name));
}

/// layer × head × pair as nested arrays (one line per head's pairs), null for a NoPE layer,
/// written straight to `out` (400 000 numbers for a 7B model: the Json tree cost more than the
/// analysis). Shortest round-trip decimals; a non-finite value as null, as nlohmann writes it.
void write_usage_cube(const analysis::UsageReport& r, const std::vector<double>& v, std::ostream& out) {
  fmt::memory_buffer b;
  b.append(std::string_view("["));
  for (std::int64_t l = 0; l < r.model.layers; ++l) {
    b.append(std::string_view(l == 0 ? "\n  " : ",\n  "));
    if (!r.rope_layer[static_cast<std::size_t>(l)]) {
      b.append(std::string_view("null"));
      continue;
    }
    b.append(std::string_view("["));
    for (std::int64_t h = 0; h < r.model.heads; ++h) {
      b.append(std::string_view(h == 0 ? "\n   [" : ",\n   ["));
      for (std::int64_t i = 0; i < r.pairs; ++i) {
        if (i > 0) b.append(std::string_view(", "));
        const double x = v[r.at(l, h, i)];
        if (std::isfinite(x)) {
          const std::size_t at = b.size();
          fmt::format_to(std::back_inserter(b), "{}", x);
          // a whole number as nlohmann writes it ("1.0", not "1"), so that readers keep a float
          if (std::string_view(b.data() + at, b.size() - at).find_first_of(".e") == std::string_view::npos)
            b.append(std::string_view(".0"));
        } else {
          b.append(std::string_view("null"));
        }
      }
      b.append(std::string_view("]"));
    }
    b.append(std::string_view("\n  ]"));
  }
  b.append(std::string_view(r.model.layers > 0 ? "\n ]" : "]"));
  out.write(b.data(), static_cast<std::streamsize>(b.size()));
}

/// One top-level member of an indent-1 dump: its value indented one level deeper.
void write_usage_member(std::ostream& out, const std::string& key, const Json& value, bool first) {
  std::string text = value.dump(1, ' ', false, Json::error_handler_t::replace);
  std::string indented;
  indented.reserve(text.size() + text.size() / 8);
  for (const char c : text) {
    indented += c;
    if (c == '\n') indented += ' ';
  }
  out << (first ? "{\n " : ",\n ") << Json(key).dump() << ": " << indented;
}

TableInfo usage_info(const std::string& name, std::vector<std::size_t> shape, std::vector<std::string> axes,
                     const analysis::UsageReport& r) {
  TableInfo info;
  info.scheme = "usage";
  info.params = {{"path", ParamValue(r.model.path)}, {"table", ParamValue(name)}};
  info.shape = std::move(shape);
  info.axis_names = std::move(axes);
  info.value_name = name;
  return info;
}

}  // namespace

void write_usage_text(const analysis::UsageReport& r, std::ostream& out, std::size_t max_heads) {
  const auto& m = r.model;
  const auto& s = r.summary;
  out << fmt::format("{}: {} ({})\n", printable(m.path, 200), m.model_type.empty() ? "model" : m.model_type,
                     m.gguf ? "GGUF" : "safetensors");
  out << fmt::format("  {}, {} q heads over {} kv heads, head {}, rotary {} ({}), hidden {}\n", counted(m.layers, "layer", "layers"),
                     m.heads, m.kv_heads, m.head_dim, m.rotary_dim, counted(r.pairs, "pair", "pairs"), m.hidden);
  out << fmt::format("  q/k rows: {}; layout {} ({})\n", m.qk_source, rope::to_string(m.layout), m.layout_source);
  out << fmt::format("  gain folded in: {}\n", m.gain_source);
  out << fmt::format("  base {}, training length {}{}\n", m.base, m.train_len,
                     m.train_len > 0 ? " (" + m.train_len_source + ")" : std::string(" (unknown)"));
  for (const auto& n : m.notes) out << "  note: " << n << "\n";
  const std::int64_t rope_layers = std::count(r.rope_layer.begin(), r.rope_layer.end(), true);
  out << fmt::format("\nper pair, mean over {} × {} heads (rho: same-content usage, weights.md §5.5):\n",
                     counted(rope_layers, "RoPE layer", "RoPE layers"), m.heads);
  out << fmt::format("{:>5}  {:>12}  {:>12}  {:>12}  {:>10}  {:>10}  {}\n", "pair", "theta", "wavelength", "mean rho",
                     "q norm", "k norm", "mark");
  const double two_pi = 2 * std::numbers::pi;
  bool long_marked = false;
  for (std::int64_t i = 0; i < r.pairs; ++i) {
    const auto u = static_cast<std::size_t>(i);
    std::string mark;
    if (s.critical_dimension > 0 && i == s.critical_dimension / 2) mark += "critical dimension (pair d_extra/2)";
    if (m.train_len > 0 && !long_marked && two_pi / r.theta[u] > static_cast<double>(m.train_len)) {
      mark += std::string(mark.empty() ? "" : "; ") + "first wavelength > training length";
      long_marked = true;
    }
    out << fmt::format("{:>5}  {:>12.6g}  {:>12.6g}  {:>12.6g}  {:>10.4g}  {:>10.4g}  {}\n", i, r.theta[u],
                       two_pi / r.theta[u], s.mean_rho[u], s.mean_q_norm[u], s.mean_k_norm[u], mark);
  }
  out << fmt::format("\ncritical dimension (Liu et al. 2023): {}\n", s.critical_dimension);
  out << fmt::format("pairs with wavelength > training length: {} of {}; their share of rho: {:.4f}\n", s.long_pairs,
                     r.pairs, s.long_share);
  out << fmt::format("positional heads (≥ {:.2f} of rho in the {} highest-frequency pairs): {}\n", s.positional_share,
                     s.high_band, s.positional.size());
  if (!s.positional.empty())
    out << fmt::format("  {:>5}  {:>4}  {:>10}  {:>8}  {:>14}\n", "layer", "head", "high share", "top pair",
                       "offset phi/θ");
  for (std::size_t k = 0; k < s.positional.size() && k < max_heads; ++k) {
    const auto& p = s.positional[k];
    out << fmt::format("  {:>5}  {:>4}  {:>10.4f}  {:>8}  {:>14.4g}\n", p.layer, p.head, p.high_share, p.top_pair,
                       p.offset);
  }
  if (s.positional.size() > max_heads)
    out << fmt::format("  ... {} more (--format json lists them all)\n", s.positional.size() - max_heads);
}

void write_usage_json(const analysis::UsageReport& r, std::ostream& out) {
  const auto& m = r.model;
  const auto& s = r.summary;
  Json j;
  j["path"] = m.path;
  j["format"] = m.gguf ? "gguf" : "safetensors";
  j["model_type"] = m.model_type;
  j["layers"] = m.layers;
  j["heads"] = m.heads;
  j["kv_heads"] = m.kv_heads;
  j["head_dim"] = m.head_dim;
  j["rotary_dim"] = m.rotary_dim;
  j["pairs"] = r.pairs;
  j["hidden"] = m.hidden;
  j["layout"] = rope::to_string(m.layout);
  j["layout_source"] = m.layout_source;
  j["qk_source"] = m.qk_source;
  j["gain_source"] = m.gain_source;
  j["base"] = m.base;
  j["train_len"] = m.train_len;
  j["train_len_source"] = m.train_len_source;
  j["theta"] = r.theta;
  Json bases = Json::array();
  for (const double b : m.layer_base) bases.push_back(b > 0 ? Json(b) : Json(nullptr));
  j["layer_base"] = std::move(bases);
  Json heads = Json::array();
  for (const auto& p : s.positional)
    heads.push_back({{"layer", p.layer}, {"head", p.head}, {"high_share", p.high_share}, {"top_pair", p.top_pair},
                     {"offset", p.offset}});
  j["summary"] = {{"mean_rho", s.mean_rho},
                  {"mean_q_norm", s.mean_q_norm},
                  {"mean_k_norm", s.mean_k_norm},
                  {"critical_dimension", s.critical_dimension},
                  {"long_pairs", s.long_pairs},
                  {"long_share", s.long_share},
                  {"high_band", s.high_band},
                  {"positional_share", s.positional_share},
                  {"positional_heads", std::move(heads)}};
  j["notes"] = m.notes;
  // the members in order, the six arrays (layer × head × pair) before the summary
  bool first = true;
  for (const auto& [key, value] : j.items()) {
    if (key == "summary")
      for (const auto& [name, v] : {std::pair<const char*, const std::vector<double>*>{"q_norm", &r.q_norm},
                                    {"k_norm", &r.k_norm}, {"pair_cos", &r.pair_cos}, {"k_pair_cos", &r.k_pair_cos},
                                    {"rho", &r.rho}, {"phi", &r.phi}}) {
        out << ",\n \"" << name << "\": ";
        write_usage_cube(r, *v, out);
      }
    write_usage_member(out, key, value, first);
    first = false;
  }
  out << "\n}\n";
}

const std::vector<std::string>& usage_table_names() {
  static const std::vector<std::string> names = {"rho", "phi", "q-norm", "k-norm", "pair-cos", "k-pair-cos"};
  return names;
}

std::unique_ptr<Table> usage_table(const analysis::UsageReport& r, const std::string& name) {
  const auto& v = usage_array(r, name);
  const auto L = static_cast<std::size_t>(r.model.layers), H = static_cast<std::size_t>(r.model.heads),
             P = static_cast<std::size_t>(r.pairs);
  return std::make_unique<MatrixTable>(usage_info(name, {L, H, P}, {"layer", "head", "pair"}, r),
                                       Matrix(L * H, P, std::vector<double>(v)));
}

std::unique_ptr<Table> usage_layer_table(const analysis::UsageReport& r, const std::string& name) {
  const auto& v = usage_array(r, name);
  const auto L = static_cast<std::size_t>(r.model.layers), P = static_cast<std::size_t>(r.pairs);
  Matrix mean(L, P, std::nan(""));
  for (std::int64_t l = 0; l < r.model.layers; ++l) {
    if (!r.rope_layer[static_cast<std::size_t>(l)]) continue;
    for (std::int64_t i = 0; i < r.pairs; ++i) {
      double sum = 0;
      for (std::int64_t h = 0; h < r.model.heads; ++h) sum += v[r.at(l, h, i)];
      mean(static_cast<std::size_t>(l), static_cast<std::size_t>(i)) = sum / static_cast<double>(r.model.heads);
    }
  }
  return std::make_unique<MatrixTable>(usage_info(name, {L, P}, {"layer", "pair"}, r), std::move(mean));
}

std::unique_ptr<Table> usage_head_table(const analysis::UsageReport& r, const std::string& name, std::int64_t layer) {
  const auto& v = usage_array(r, name);
  if (layer < 0 || layer >= r.model.layers)
    throw Error(fmt::format("--layer {} is not a layer of the model (0 .. {})", layer, r.model.layers - 1));
  const auto H = static_cast<std::size_t>(r.model.heads), P = static_cast<std::size_t>(r.pairs);
  std::vector<double> data(H * P);
  for (std::size_t h = 0; h < H; ++h)
    for (std::size_t i = 0; i < P; ++i)
      data[h * P + i] = v[r.at(layer, static_cast<std::int64_t>(h), static_cast<std::int64_t>(i))];
  auto info = usage_info(name, {H, P}, {"head", "pair"}, r);
  info.params.emplace_back("layer", ParamValue(layer));
  return std::make_unique<MatrixTable>(std::move(info), Matrix(H, P, std::move(data)));
}

}  // namespace posenc::reports
