// posenc list [--format text|json]: every scheme, its parameters and formula.
#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "app.hpp"
#include "posenc/schemes/registry.hpp"
#include "posenc/rope/rope.hpp"
#include "posenc/error.hpp"

namespace posenc::cli {
namespace {

nlohmann::json to_json(const ParamValue& v) {
  return std::visit([](const auto& x) { return nlohmann::json(x); }, v);
}

// "0.5, 0.25, ..." for lists (shortest round-trip numbers), else as the command line writes it.
std::string value_text(const ParamValue& v) {
  if (const auto* list = std::get_if<std::vector<double>>(&v)) return fmt::format("{}", fmt::join(*list, ", "));
  return to_string(v);
}

void print_text(std::ostream& out) {
  for (const auto& s : schemes::schemes()) {
    out << fmt::format("{:<12} {}\n", s.name, s.summary);
    out << fmt::format("{:<12} formula: {}\n", "", s.formula);
    for (const auto& p : s.params) {
      std::string accepted = p.choices.empty() ? "" : " (" + fmt::format("{}", fmt::join(p.choices, "|")) + ")";
      out << fmt::format("{:<12}   --{:<34} {}{}\n", "", fmt::format("{} {}", p.name, default_text(p)),
                         p.help, accepted);
    }
    for (const auto& d : s.derived) out << fmt::format("{:<12} {}: {}\n", "", d.label, value_text(d.value));
    out << "\n";
  }
  out << "rope conventions (--convention): whose RoPE arithmetic is reproduced, and which release\n";
  for (const auto& c : rope::rope_conventions())
    out << fmt::format("  {:<9} {} ({}): {}\n", c.name, c.engine, c.version, c.description);
}

void print_json(std::ostream& out) {
  nlohmann::json all = nlohmann::json::array();
  for (const auto& s : schemes::schemes()) {
    nlohmann::json params = nlohmann::json::array();
    for (const auto& p : s.params) {
      // null: no default ("not set" in the text form)
      nlohmann::json j = {{"name", p.name}, {"default", p.above_min ? nlohmann::json() : to_json(p.default_value)}, {"help", p.help}};
      if (!p.choices.empty()) j["choices"] = p.choices;
      if (p.choice_flags) {  // --causal = --mode causal
        nlohmann::json flags = nlohmann::json::array();
        for (const auto& c : p.choices) flags.push_back("--" + c);
        j["flags"] = flags;
      }
      params.push_back(std::move(j));
    }
    nlohmann::json entry = {{"name", s.name}, {"summary", s.summary}, {"formula", s.formula}, {"params", params}};
    for (const auto& d : s.derived) entry[d.key] = to_json(d.value);  // alibi: "slopes"
    all.push_back(std::move(entry));
  }
  nlohmann::json conventions = nlohmann::json::array();
  for (const auto& c : rope::rope_conventions())
    conventions.push_back({{"name", std::string(c.name)}, {"engine", std::string(c.engine)},
                           {"version", std::string(c.version)}, {"description", std::string(c.description)}});
  out << nlohmann::json{{"schemes", all}, {"rope_conventions", conventions}}.dump(2) << "\n";
}

}  // namespace

void add_list_command(CLI::App& app, Context& ctx, int& exit_code) {
  auto format = std::make_shared<std::string>("text");
  CLI::App* cmd = app.add_subcommand("list", "list every scheme with its parameters, defaults and formula");
  cmd->add_option("--format", *format, "text or json")->capture_default_str()->check(CLI::IsMember({"text", "json"}));
  cmd->callback([format, &ctx, &exit_code] {
    if (*format == "json") {
      print_json(ctx.out);
    } else {
      print_text(ctx.out);
    }
    exit_code = 0;
  });
}

}  // namespace posenc::cli
