#include "analysis_support.hpp"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <cstdlib>

#include "posenc/schemes/registry.hpp"
#include "posenc/analysis/scheme_traits.hpp"
#include "posenc/error.hpp"
#include "posenc/text.hpp"

namespace posenc::cli {
namespace {

ParamValue parse_value(const ParamSpec& spec, const std::string& text) {
  const std::string where = fmt::format("--vary {}", spec.name);
  auto check_range = [&](double v) {
    if (v < spec.min || v > spec.max)
      throw Error(fmt::format("{}: {} is outside [{}, {}]", where, text, spec.min, spec.max));
  };
  return std::visit(
      [&](const auto& def) -> ParamValue {
        using T = std::decay_t<decltype(def)>;
        if constexpr (std::is_same_v<T, std::int64_t>) {
          std::int64_t v = 0;
          const auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
          if (ec != std::errc() || p != text.data() + text.size())
            throw Error(fmt::format("{}: '{}' is not an integer", where, text));
          check_range(static_cast<double>(v));
          return v;
        } else if constexpr (std::is_same_v<T, double>) {
          char* end = nullptr;
          const double v = std::strtod(text.c_str(), &end);
          if (text.empty() || end != text.c_str() + text.size() || !std::isfinite(v))
            throw Error(fmt::format("{}: '{}' is not a number", where, text));
          check_range(v);
          return v;
        } else if constexpr (std::is_same_v<T, bool>) {
          if (text == "true") return true;
          if (text == "false") return false;
          throw Error(fmt::format("{}: '{}' must be true or false", where, text));
        } else if constexpr (std::is_same_v<T, std::string>) {
          if (!spec.choices.empty() && std::find(spec.choices.begin(), spec.choices.end(), text) == spec.choices.end())
            throw Error(fmt::format("{}: '{}' is not one of {}", where, text, join_choices(spec.choices)));
          return text;
        } else {
          throw Error(fmt::format("{}: list parameters cannot be varied", where));
        }
      },
      spec.default_value);
}

}  // namespace

std::vector<Variant> make_variants(const std::string& scheme, const ParamMap& base, const std::string& vary) {
  if (vary.empty()) return {{"", base}};
  const auto eq = vary.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == vary.size())
    throw Error(fmt::format("--vary must be NAME=V1,V2,... (got '{}')", vary));
  if (scheme.empty()) throw Error("--vary needs a SCHEME, not --input");
  const std::string name = vary.substr(0, eq);
  const auto& info = schemes::find_scheme(scheme);
  const ParamSpec* spec = nullptr;
  std::vector<std::string> names;
  for (const auto& p : info.params) {
    names.push_back(p.name);
    if (p.name == name) spec = &p;
  }
  if (!spec)
    throw Error(fmt::format("--vary: '{}' is not a parameter of {}{}; choose one of: {}", name, scheme,
                            did_you_mean(name, names), join_choices(names)));
  std::vector<Variant> out;
  std::string rest = vary.substr(eq + 1);
  for (std::size_t start = 0; start <= rest.size();) {
    const auto comma = std::min(rest.find(',', start), rest.size());
    const std::string text = rest.substr(start, comma - start);
    Variant v{fmt::format("{}={}", name, text), base};
    v.params.set(name, parse_value(*spec, text), true);
    out.push_back(std::move(v));
    start = comma + 1;
  }
  return out;
}

std::unique_ptr<Table> analysis_table(const SchemeOptions& source) {
  const std::string scheme = source.scheme();
  if (scheme.empty()) return source.make_table();
  return schemes::make_table(scheme, analysis::analysis_params(scheme, source.values()));
}

nlohmann::ordered_json entries_json(const std::vector<std::pair<std::string, ParamValue>>& entries) {
  nlohmann::ordered_json j = nlohmann::ordered_json::object();
  for (const auto& [k, v] : entries) std::visit([&, key = k](const auto& x) { j[key] = x; }, v);
  return j;
}

std::string number_text(double v, bool float32) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  return float32 ? fmt::format("{}", static_cast<float>(v)) : fmt::format("{}", v);
}

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

}  // namespace posenc::cli
