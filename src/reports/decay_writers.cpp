#include "posenc/reports/decay_writers.hpp"

#include <fmt/format.h>

#include <cmath>
#include <cstdlib>
#include <nlohmann/json.hpp>

#include "posenc/analysis/scheme_traits.hpp"
#include "posenc/table.hpp"

namespace posenc::reports {
namespace {

// A value for JSON: null when not finite; with float32 output the float's shortest text read
// back as a double, so JSON prints 3.535256 like CSV does, not the widened 3.5352559089660645.
nlohmann::ordered_json decay_json_number(double v, bool f32) {
  if (!std::isfinite(v)) return nullptr;
  if (!f32) return v;
  return std::strtod(fmt::format("{}", to_f32(v)).c_str(), nullptr);
}

nlohmann::ordered_json decay_params_json(const DecayJsonSettings& s) {
  if (s.scheme.empty()) return {{"input", s.input}};
  nlohmann::ordered_json j = nlohmann::ordered_json::object();
  for (const auto& n : s.params.names()) std::visit([&](const auto& x) { j[n] = x; }, s.params.value(n));
  const std::string varied = s.vary.substr(0, s.vary.find('='));
  if (!s.vary.empty()) {  // the values used, not one of them
    j[varied] = nlohmann::ordered_json::array();
    for (const auto& v : s.varied_values) std::visit([&](const auto& x) { j[varied].push_back(x); }, v);
  }
  for (const auto& [k, v] : analysis::derived_values(s.scheme, s.params, s.vary.empty() ? "" : varied))
    std::visit([&, key = k](const auto& x) { j[key] = x; }, v);
  return j;
}

}  // namespace

void write_decay_json(const DecayJsonSettings& s, const std::vector<std::int64_t>& offsets, const analysis::DecayRun& run,
                      std::ostream& out) {
  nlohmann::ordered_json j;
  j["command"] = "decay";
  j["scheme"] = s.scheme.empty() ? "input" : s.scheme;
  j["params"] = decay_params_json(s);
  j["metric"] = run.uses_metric ? nlohmann::ordered_json(s.metric) : nullptr;
  if (run.uses_qk) j["qk"] = {{"vectors", s.qk}, {"seed", s.seed}};
  j["extras"] = run.has_extras && !s.no_extras;
  j["from"] = s.from;
  j["method"] = run.method();
  if (!s.vary.empty()) j["vary"] = s.vary;
  if (!s.compare.empty()) j["compare"] = s.compare;
  j["offset"] = offsets;
  j["series"] = nlohmann::ordered_json::array();
  for (const auto& x : run.all) {
    nlohmann::ordered_json values = nlohmann::ordered_json::array();
    for (double v : x.values) values.push_back(decay_json_number(v, s.float32));
    j["series"].push_back({{"name", x.name}, {"values", std::move(values)}});
  }
  out << j.dump(2) << "\n";
}

}  // namespace posenc::reports
