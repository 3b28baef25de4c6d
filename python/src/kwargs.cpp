#include "kwargs.hpp"

#include <fmt/format.h>

#include <cmath>
#include <limits>

#include "posenc/error.hpp"
#include "posenc/text.hpp"

namespace py = pybind11;

namespace posenc::python {
namespace {

bool is_bool(py::handle v) { return PyBool_Check(v.ptr()) != 0; }
bool is_integer(py::handle v) { return !is_bool(v) && PyIndex_Check(v.ptr()) != 0; }
bool is_real(py::handle v) { return !is_bool(v) && (is_integer(v) || PyFloat_Check(v.ptr()) != 0 || py::isinstance<py::float_>(v)); }

std::string shown(py::handle v) {
  std::string s = py::repr(v).cast<std::string>();
  return printable(s, 60);
}

std::string range_text(const ParamSpec& s, bool integer) {
  const bool lo = s.min > -1e300 && std::abs(s.min) < 0x1p63, hi = s.max < 1e300 && std::abs(s.max) < 0x1p63;
  if (integer && lo && hi) return fmt::format(" in {}..{}", static_cast<std::int64_t>(std::ceil(s.min)), static_cast<std::int64_t>(std::floor(s.max)));
  if (lo && hi) return s.above_min ? fmt::format(" > {} and <= {}", s.min, s.max) : fmt::format(" in {}..{}", s.min, s.max);
  if (lo) return fmt::format(" {} {}", s.above_min ? ">" : ">=", s.min);
  if (hi) return fmt::format(" <= {}", s.max);
  return "";
}

void check_range(const ParamSpec& s, double v, bool integer, const std::string& key, py::handle given) {
  const bool below = s.above_min ? !(v > s.min) : v < s.min;
  if (std::isnan(v) || below || v > s.max)
    throw Error(fmt::format("{}={}: must be {}{}", key, shown(given), integer ? "an integer" : "a number",
                            range_text(s, integer)));
}

std::string text_of(py::handle v, const ParamSpec& s, const std::string& key) {
  if (py::isinstance<py::str>(v)) return v.cast<std::string>();
  if (s.path && py::hasattr(v, "__fspath__")) return py::str(v.attr("__fspath__")()).cast<std::string>();
  if (s.choices.empty() && (py::isinstance<py::list>(v) || py::isinstance<py::tuple>(v))) {  // methods=["ntk", "yarn"]
    std::string out;
    for (auto item : v) {
      if (!py::isinstance<py::str>(item)) throw Error(fmt::format("{}={}: must be a list of names", key, shown(v)));
      out += (out.empty() ? "" : ",") + item.cast<std::string>();
    }
    return out;
  }
  throw Error(fmt::format("{}={}: must be a string{}", key, shown(v), s.path ? " or a path" : ""));
}

ParamValue convert(const ParamSpec& s, py::handle v, const std::string& key) {
  return std::visit(
      [&](const auto& def) -> ParamValue {
        using T = std::decay_t<decltype(def)>;
        if constexpr (std::is_same_v<T, bool>) {
          if (!is_bool(v)) throw Error(fmt::format("{}={}: must be True or False", key, shown(v)));
          return v.cast<bool>();
        } else if constexpr (std::is_same_v<T, std::int64_t>) {
          if (!is_integer(v)) throw Error(fmt::format("{}={}: must be an integer{}", key, shown(v), range_text(s, true)));
          const auto n = py::int_(py::reinterpret_borrow<py::object>(v));
          long long x = PyLong_AsLongLong(n.ptr());
          if (x == -1 && PyErr_Occurred()) {
            PyErr_Clear();
            throw Error(fmt::format("{}={}: must be an integer{}", key, shown(v), range_text(s, true)));
          }
          check_range(s, static_cast<double>(x), true, key, v);
          return static_cast<std::int64_t>(x);
        } else if constexpr (std::is_same_v<T, double>) {
          if (!is_real(v)) throw Error(fmt::format("{}={}: must be a number{}", key, shown(v), range_text(s, false)));
          const double x = py::float_(py::reinterpret_borrow<py::object>(v)).cast<double>();
          if (!std::isfinite(x)) throw Error(fmt::format("{}={}: must be a finite number{}", key, shown(v), range_text(s, false)));
          check_range(s, x, false, key, v);
          return x;
        } else if constexpr (std::is_same_v<T, std::string>) {
          std::string t = text_of(v, s, key);
          if (!s.choices.empty() && std::find(s.choices.begin(), s.choices.end(), t) == s.choices.end())
            throw Error(fmt::format("{}='{}': choose one of: {}{}", key, printable(t, 60), join_choices(s.choices),
                                    did_you_mean(t, s.choices)));
          return t;
        } else {
          using E = typename T::value_type;
          if (py::isinstance<py::str>(v) || !py::isinstance<py::iterable>(v))
            throw Error(fmt::format("{}={}: must be a list of numbers", key, shown(v)));
          T out;
          for (auto item : v) {
            if (std::is_same_v<E, double> ? !is_real(item) : !is_integer(item))
              throw Error(fmt::format("{}={}: must be a list of {}", key, shown(v),
                                      std::is_same_v<E, double> ? "numbers" : "integers"));
            const double x = py::float_(py::reinterpret_borrow<py::object>(item)).cast<double>();
            if (!std::isfinite(x)) throw Error(fmt::format("{}={}: every value must be finite", key, shown(v)));
            out.push_back(static_cast<E>(x));
          }
          return out;
        }
      },
      s.default_value);
}

}  // namespace

ParamSpec option_spec(std::string name, ParamValue default_value, double min, double max, std::vector<std::string> choices,
                      bool path) {
  ParamSpec s;
  s.name = std::move(name);
  s.default_value = std::move(default_value);
  s.min = min, s.max = max;
  s.choices = std::move(choices);
  s.path = path;
  return s;
}

std::string keyword_name(const std::string& option) {
  std::string k = option;
  for (char& c : k)
    if (c == '-') c = '_';
  return k;
}

bool Keywords::has(const std::string& name) const { return kw_.contains(py::str(name)); }

bool Keywords::take_one(const ParamSpec& spec, ParamValue& out) {
  const std::string key = keyword_name(spec.name);
  known_.push_back(key);
  if (!kw_.contains(py::str(key))) return false;
  py::object v = kw_[py::str(key)];
  PyDict_DelItemString(kw_.ptr(), key.c_str());
  if (v.is_none()) return false;  // None: the default, as if not given
  out = convert(spec, v, key);
  return true;
}

std::vector<std::string> Keywords::take_texts(const std::string& option) {
  const std::string key = keyword_name(option);
  known_.push_back(key);
  std::vector<std::string> out;
  if (!kw_.contains(py::str(key))) return out;
  py::object v = kw_[py::str(key)];
  PyDict_DelItemString(kw_.ptr(), key.c_str());
  if (v.is_none()) return out;
  const auto bad = [&] {
    return Error(fmt::format("{}=: a string or a list of strings (got {})", key, py::str(py::type::of(v).attr("__name__")).cast<std::string>()));
  };
  if (py::isinstance<py::str>(v)) return {v.cast<std::string>()};
  if (!py::isinstance<py::list>(v) && !py::isinstance<py::tuple>(v)) throw bad();
  for (const auto item : v) {
    if (!py::isinstance<py::str>(item)) throw bad();
    out.push_back(item.cast<std::string>());
  }
  return out;
}

void Keywords::take(const std::vector<ParamSpec>& specs, ParamMap& p, bool defaults) {
  for (const auto& s : specs) {
    ParamValue v = s.default_value;
    if (take_one(s, v)) {
      p.set(s.name, std::move(v), true);
    } else if (defaults) {
      p.set(s.name, std::move(v), false);
    }
  }
}

void Keywords::finish() const {
  for (auto item : kw_) {
    const std::string key = py::str(item.first).cast<std::string>();
    const std::string hint = did_you_mean(key, known_);
    throw Error(fmt::format("unknown keyword '{}' for {}{}", printable(key, 60), where_,
                            hint.empty() ? fmt::format("; accepted: {}", join_choices(known_)) : hint));
  }
}

}  // namespace posenc::python
