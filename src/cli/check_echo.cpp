#include "check_echo.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "posenc/analysis/scheme_traits.hpp"
#include "posenc/schemes/registry.hpp"

namespace posenc::cli {
namespace {

/// A shell word: as is when it needs no quoting, else in single quotes.
std::string shell_word(const std::string& s) {
  const bool plain = !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           std::string_view("_./,:=+-@%").find(c) != std::string_view::npos;
  });
  if (plain) return s;
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string flag(const std::string& name, const std::string& value) { return fmt::format(" --{} {}", name, shell_word(value)); }

}  // namespace

CheckEcho check_echo(const std::string& scheme, const std::string& input, const ParamMap& given, const TableInfo& info,
                     const std::vector<std::string>& requested, const analysis::CheckSettings& s,
                     const analysis::CheckRun& run) {
  CheckEcho e;
  e.command = scheme.empty() ? "check" + flag("input", input) : "check " + scheme;
  if (!scheme.empty() && given.has("hf-config") && given.given("hf-config"))
    e.command += flag("hf-config", given.text("hf-config"));
  if (!requested.empty()) e.command += flag("identity", fmt::format("{}", fmt::join(requested, ",")));
  // The identities that ran (or were skipped) decide which options mattered.
  std::vector<std::string> names;
  for (const auto* list : {&run.results, &run.skipped})
    for (const auto& r : *list) names.push_back(r.name);
  const auto any = [&](std::initializer_list<const char*> ids) {
    return std::any_of(names.begin(), names.end(),
                       [&](const std::string& n) { return std::find(ids.begin(), ids.end(), n) != ids.end(); });
  };
  const bool rope = analysis::scheme_kind(scheme) == analysis::SchemeKind::kRope;
  const auto option = [&](const char* name, nlohmann::ordered_json value, const std::string& text) {
    e.options[name] = std::move(value);
    e.command += flag(name, text);
  };
  e.options = nlohmann::ordered_json::object();
  if (std::any_of(names.begin(), names.end(), [](const std::string& n) { return n != "unique" && n != "bounded"; }))
    option("tol", s.tolerance, fmt::format("{}", s.tolerance));
  if (any({"unique"})) option("min-distance", s.min_distance, fmt::format("{}", s.min_distance));
  if (any({"bounded"})) option("bound", s.bound, fmt::format("{}", s.bound));
  if (!rope && any({"shift-linear", "dot-shift-invariant", "dot-symmetric"}))
    option("max-offset", s.max_offset, fmt::format("{}", s.max_offset));
  if (rope) {
    option("qk", s.qk, s.qk);
    option("seed", s.seed, fmt::format("{}", s.seed));
  }
  if (!scheme.empty()) {
    const auto& specs = schemes::find_scheme(scheme).params;
    for (const auto& [name, value] : info.params) {
      const bool declared = std::any_of(specs.begin(), specs.end(), [&, n = name](const auto& p) { return p.name == n; });
      if (declared && name != "hf-config") e.settings += flag(name, posenc::to_string(value));
    }
    if (!e.settings.empty()) e.settings.erase(0, 1);
  }
  return e;
}

}  // namespace posenc::cli
