// `posenc model` as text and JSON (see model_writers.hpp).
#include "posenc/reports/model_writers.hpp"

#include <fmt/format.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <variant>

#include "gguf_json.hpp"
#include "model_weights_writers.hpp"

namespace posenc::reports {
namespace {

using nlohmann::json;

json number_model(double v) { return std::isfinite(v) ? json(v) : json(nullptr); }

json param_to_json(const ParamValue& v) {
  return std::visit(
      [](const auto& x) -> json {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, double>) {
          return number_model(x);
        } else if constexpr (std::is_same_v<T, std::vector<double>>) {
          json a = json::array();
          for (double d : x) a.push_back(number_model(d));
          return a;
        } else {
          return json(x);
        }
      },
      v);
}

std::string shown(const ParamValue& v) {
  return std::visit(
      [](const auto& x) -> std::string {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, std::vector<double>> || std::is_same_v<T, std::vector<std::int64_t>>) {
          std::string s = "[";
          for (std::size_t i = 0; i < x.size(); ++i) {
            if (x.size() > 8 && i == 4) {
              s += fmt::format("… ({} values) …, ", x.size());
              i = x.size() - 3;
            }
            s += fmt::format("{}{}", x[i], i + 1 < x.size() ? ", " : "");
          }
          return s + "]";
        } else if constexpr (std::is_same_v<T, bool>) {
          return x ? "true" : "false";
        } else {
          return fmt::format("{}", x);
        }
      },
      v);
}

}  // namespace

void write_model_text(const models::ModelReport& r, std::ostream& out) {
  if (r.input == "gguf")
    out << fmt::format("{}: GGUF v{}, architecture {}{}, as llama.cpp runs it (convention ggml)\n", r.source,
                       r.gguf ? r.gguf->version : 0, r.model_type, r.family.empty() ? "" : fmt::format(" ({})", r.family));
  else
    out << fmt::format("{}: model_type {}{}\n", r.source, r.model_type.empty() ? "(none)" : r.model_type,
                       r.family.empty() ? "" : fmt::format(" ({}, {})", r.family, r.config_class));
  if (r.num_layers > 0) out << fmt::format("layers: {}\n", r.num_layers);
  if (!r.weights_source.empty()) out << fmt::format("weights: {}\n", r.weights_source);
  for (const auto& m : r.mechanisms) {
    out << fmt::format("\n{} — {}\n", to_string(m.kind), m.where);
    std::size_t width = 0;
    for (const auto& [k, v] : m.values) width = std::max(width, k.size());
    for (const auto& [k, v] : m.sources) width = std::max(width, k.size());
    for (const auto& [k, v] : m.values) out << fmt::format("  {:<{}}  {}\n", k, width, shown(v));
    for (const auto& n : m.notes) out << "  note: " << n << "\n";
    for (const auto& [k, from] : m.sources) out << fmt::format("  from: {:<{}}  {}\n", k, width, from);
    detail::weights_text(m, out);
    if (!m.command.empty()) out << "  shown by: " << m.command << "\n";
  }
  if (!r.stated.empty()) out << "\nposition-related fields the file states\n";
  for (const auto& d : r.stated) out << fmt::format("  {} = {}\n", d.field, d.value);
  if (!r.defaults.empty()) out << "\nfields the config leaves out (the config class's defaults)\n";
  for (const auto& d : r.defaults) out << fmt::format("  {} = {}  ({})\n", d.field, d.value, d.source);
  for (const auto& n : r.notes) out << "note: " << n << "\n";
}

void write_model_json(const models::ModelReport& r, std::ostream& out) {
  json mechanisms = json::array();
  for (const auto& m : r.mechanisms) {
    json values = json::object();
    for (const auto& [k, v] : m.values) values[k] = param_to_json(v);
    json sources = json::object();
    for (const auto& [k, from] : m.sources) sources[k] = from;
    mechanisms.push_back({{"kind", std::string(to_string(m.kind))}, {"where", m.where},
                          {"layer_type", m.layer_type.empty() ? json(nullptr) : json(m.layer_type)},
                          {"layers", m.layers}, {"values", values}, {"notes", m.notes},
                          {"command", m.command.empty() ? json(nullptr) : json(m.command)},
                          {"sources", sources}});
    detail::weights_json(m, mechanisms.back());
  }
  json defaults = json::array();
  for (const auto& d : r.defaults)
    defaults.push_back({{"field", d.field}, {"value", json::parse(d.value, nullptr, false)}, {"source", d.source}});
  json stated = json::array();
  for (const auto& d : r.stated)
    stated.push_back({{"field", d.field}, {"value", json::parse(d.value, nullptr, false)}, {"source", d.source}});
  json j = {{"source", r.source}, {"input", r.input}, {"convention", r.convention}, {"model_type", r.model_type},
            {"family", r.family.empty() ? json(nullptr) : json(r.family)},
            {"config_class", r.config_class.empty() ? json(nullptr) : json(r.config_class)},
            {"num_layers", r.num_layers > 0 ? json(r.num_layers) : json(nullptr)}, {"layer_types", r.layer_types},
            {"mechanisms", mechanisms}, {"defaults", defaults}, {"stated", stated}, {"notes", r.notes},
            {"gguf", r.gguf ? detail::gguf_source_json(*r.gguf) : json(nullptr)},
            {"weights_source", r.weights_source.empty() ? json(nullptr) : json(r.weights_source)}};
  out << j.dump(2) << "\n";
}

}  // namespace posenc::reports
