// `posenc list --format json` (reports/scheme_list_writers.hpp).
#include "posenc/reports/scheme_list_writers.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <variant>

#include "posenc/rope/rope.hpp"
#include "posenc/schemes/registry.hpp"

namespace posenc::reports {
namespace {

nlohmann::json scheme_list_value(const ParamValue& v) {
  return std::visit([](const auto& x) { return nlohmann::json(x); }, v);
}

}  // namespace

void write_scheme_list_json(std::ostream& out) {
  nlohmann::json all = nlohmann::json::array();
  for (const auto& s : schemes::schemes()) {
    nlohmann::json params = nlohmann::json::array();
    for (const auto& p : s.params) {
      // null: no default ("not set" in the text form)
      nlohmann::json j = {{"name", p.name}, {"default", p.above_min ? nlohmann::json() : scheme_list_value(p.default_value)},
                          {"help", p.help}};
      if (!p.choices.empty()) j["choices"] = p.choices;
      if (p.choice_flags) {  // --causal = --mode causal
        nlohmann::json flags = nlohmann::json::array();
        for (const auto& c : p.choices) flags.push_back("--" + c);
        j["flags"] = flags;
      }
      params.push_back(std::move(j));
    }
    nlohmann::json entry = {{"name", s.name}, {"summary", s.summary}, {"formula", s.formula}, {"params", params}};
    for (const auto& d : s.derived) entry[d.key] = scheme_list_value(d.value);  // alibi: "slopes"
    all.push_back(std::move(entry));
  }
  nlohmann::json conventions = nlohmann::json::array();
  for (const auto& c : rope::rope_conventions())
    conventions.push_back({{"name", std::string(c.name)}, {"engine", std::string(c.engine)},
                           {"version", std::string(c.version)}, {"description", std::string(c.description)}});
  out << nlohmann::json{{"schemes", all}, {"rope_conventions", conventions}}.dump(2) << "\n";
}

}  // namespace posenc::reports
