#include "posenc/params.hpp"

#include <fmt/format.h>

#include <cmath>
#include <type_traits>

#include "posenc/error.hpp"

namespace posenc {

ParamMap::ParamMap(const std::vector<ParamSpec>& specs) {
  for (const auto& s : specs) set(s.name, s.default_value, /*given=*/false);
}

void ParamMap::set(const std::string& name, ParamValue value, bool given) {
  if (values_.count(name) == 0) order_.push_back(name);
  values_[name] = std::move(value);
  if (given) given_.insert(name);
}

bool ParamMap::has(const std::string& name) const { return values_.count(name) != 0; }

const ParamValue& ParamMap::value(const std::string& name) const {
  auto it = values_.find(name);
  if (it == values_.end()) throw Error(fmt::format("missing parameter '{}'", name));
  return it->second;
}

double ParamMap::number(const std::string& name) const {
  const auto& v = value(name);
  if (const auto* d = std::get_if<double>(&v)) return *d;
  if (const auto* i = std::get_if<std::int64_t>(&v)) return static_cast<double>(*i);
  throw Error(fmt::format("parameter '{}' is not a number", name));
}

std::int64_t ParamMap::integer(const std::string& name) const {
  const auto& v = value(name);
  if (const auto* i = std::get_if<std::int64_t>(&v)) return *i;
  if (const auto* d = std::get_if<double>(&v)) {
    if (std::floor(*d) == *d && std::abs(*d) < 9.2e18) return static_cast<std::int64_t>(*d);
  }
  throw Error(fmt::format("parameter '{}' must be an integer", name));
}

const std::string& ParamMap::text(const std::string& name) const {
  const auto& v = value(name);
  if (const auto* s = std::get_if<std::string>(&v)) return *s;
  throw Error(fmt::format("parameter '{}' is not text", name));
}

bool ParamMap::flag(const std::string& name) const {
  const auto& v = value(name);
  if (const auto* b = std::get_if<bool>(&v)) return *b;
  throw Error(fmt::format("parameter '{}' is not true/false", name));
}

const std::vector<double>& ParamMap::list(const std::string& name) const {
  const auto& v = value(name);
  if (const auto* l = std::get_if<std::vector<double>>(&v)) return *l;
  throw Error(fmt::format("parameter '{}' is not a list of numbers", name));
}

std::string to_string(const ParamValue& value) {
  return std::visit(
      [](const auto& v) -> std::string {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, bool>) {
          return v ? "true" : "false";
        } else if constexpr (std::is_same_v<T, std::string>) {
          return v;
        } else if constexpr (std::is_same_v<T, std::vector<double>> || std::is_same_v<T, std::vector<std::int64_t>>) {
          return fmt::format("{}", fmt::join(v, ","));
        } else {
          return fmt::format("{}", v);
        }
      },
      value);
}

std::string default_text(const ParamSpec& spec) { return spec.above_min ? "not set" : to_string(spec.default_value); }

}  // namespace posenc
