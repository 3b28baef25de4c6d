#include "posenc/analysis/decay_sources.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>

#include "posenc/error.hpp"
#include "posenc/schemes/registry.hpp"
#include "posenc/text.hpp"

namespace posenc::analysis {
namespace {

// `text` as a value of `spec`, checked as the flag checks it; `where` starts each message.
ParamValue param_from_text(const ParamSpec& spec, const std::string& text, const std::string& where) {
  auto check_range = [&](double v) {
    if (v < spec.min || v > spec.max) throw Error(fmt::format("{}: {} is outside [{}, {}]", where, text, spec.min, spec.max));
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
          throw Error(fmt::format("{}: list parameters take no value here", where));
        }
      },
      spec.default_value);
}

// The parameter `name` of `scheme`, or an Error listing them (`where` starts it).
const ParamSpec& scheme_param(const std::string& scheme, const std::string& name, const std::string& where) {
  const auto& info = schemes::find_scheme(scheme);
  std::vector<std::string> names;
  for (const auto& p : info.params) {
    if (p.name == name) return p;
    names.push_back(p.name);
  }
  throw Error(fmt::format("{}: '{}' is not a parameter of {}{}; choose one of: {}", where, name, scheme,
                          did_you_mean(name, names), join_choices(names)));
}

}  // namespace

std::vector<Variant> make_variants(const std::string& scheme, const ParamMap& base, const std::string& vary) {
  if (vary.empty()) return {{"", base}};
  const auto eq = vary.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == vary.size())
    throw Error(fmt::format("--vary must be NAME=V1,V2,... (got '{}')", vary));
  if (scheme.empty()) throw Error("--vary needs a SCHEME, not --input");
  const std::string name = vary.substr(0, eq);
  const ParamSpec& spec = scheme_param(scheme, name, "--vary");
  std::vector<Variant> out;
  const std::string rest = vary.substr(eq + 1);
  for (std::size_t start = 0; start <= rest.size();) {
    const auto comma = std::min(rest.find(',', start), rest.size());
    const std::string text = rest.substr(start, comma - start);
    Variant v{fmt::format("{}={}", name, text), base};
    v.params.set(name, param_from_text(spec, text, "--vary " + spec.name), true);
    out.push_back(std::move(v));
    start = comma + 1;
  }
  return out;
}

std::vector<std::string> split_words(const std::string& spec) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false;
  for (std::size_t i = 0; i < spec.size(); ++i) {
    const char ch = spec[i];
    if (ch == ' ' || ch == '\t' || ch == '\n') {
      if (in_word) words.push_back(word), word.clear(), in_word = false;
      continue;
    }
    in_word = true;
    if (ch == '\'') {
      const std::size_t end = spec.find('\'', i + 1);
      if (end == std::string::npos) throw Error("unterminated ' quote");
      word.append(spec, i + 1, end - i - 1);
      i = end;
    } else if (ch == '"') {
      std::size_t j = i + 1;
      for (; j < spec.size() && spec[j] != '"'; ++j) {
        if (spec[j] == '\\' && j + 1 < spec.size() && (spec[j + 1] == '"' || spec[j + 1] == '\\')) ++j;
        word.push_back(spec[j]);
      }
      if (j >= spec.size()) throw Error("unterminated \" quote");
      i = j;
    } else if (ch == '\\' && i + 1 < spec.size()) {
      word.push_back(spec[++i]);
    } else {
      word.push_back(ch);
    }
  }
  if (in_word) words.push_back(word);
  return words;
}

SchemeWords parse_scheme_words(const std::string& spec, const std::string& where) {
  const std::string at = fmt::format("{}='{}'", where, spec);
  SchemeWords out;
  std::vector<std::string> words;
  try {
    words = split_words(spec);
  } catch (const Error& e) {
    throw Error(fmt::format("{}: {}", at, e.what()));
  }
  std::size_t i = 0;
  if (i < words.size() && words[i].rfind("--", 0) != 0) {
    try {
      out.scheme = schemes::find_scheme(words[i++]).name;
    } catch (const Error& e) {
      throw Error(fmt::format("{}: {}", at, e.what()));
    }
  }
  if (!out.scheme.empty())
    for (const auto& p : schemes::find_scheme(out.scheme).params) out.values.set(p.name, p.default_value, false);
  for (; i < words.size(); ++i) {
    const std::string& w = words[i];
    if (w.rfind("--", 0) != 0 || w.size() == 2)
      throw Error(fmt::format("{}: '{}' is not an option (write SCHEME --NAME VALUE ...)", at, w));
    const auto eq = w.find('=');
    const std::string name = w.substr(2, eq == std::string::npos ? std::string::npos : eq - 2);
    std::optional<std::string> text;
    if (eq != std::string::npos) text = w.substr(eq + 1);
    if (name == "input") {
      if (!text && i + 1 < words.size()) text = words[++i];
      if (!text || text->empty()) throw Error(fmt::format("{}: --input needs a FILE", at));
      out.input = *text;
      continue;
    }
    if (out.scheme.empty())
      throw Error(fmt::format("{}: --{} needs a SCHEME first ('{} --{} ...')", at, name, "SCHEME", name));
    const ParamSpec& p = scheme_param(out.scheme, name, at);
    const bool flag = std::holds_alternative<bool>(p.default_value);
    if (!text && flag && (i + 1 >= words.size() || (words[i + 1] != "true" && words[i + 1] != "false"))) {
      out.values.set(p.name, true, true);
      continue;
    }
    if (!text) {
      if (i + 1 >= words.size()) throw Error(fmt::format("{}: --{} needs a value", at, name));
      text = words[++i];
    }
    out.values.set(p.name, param_from_text(p, *text, fmt::format("{}: --{}", at, name)), true);
  }
  if (out.scheme.empty() == out.input.empty())
    throw Error(fmt::format("{}: give a SCHEME or --input FILE{}", at, out.scheme.empty() ? "" : ", not both"));
  return out;
}

std::unique_ptr<Table> input_table(const std::string& path, const formats::ReadOptions& options,
                                   std::vector<std::string>* notes) {
  TableInfo info;
  formats::TableFile file = formats::read_input(path, options);
  if (notes != nullptr) notes->insert(notes->end(), file.notes.begin(), file.notes.end());
  Matrix m = std::move(file.values);
  if (file.shape.size() == 3) {
    info.shape = file.shape;
    info.axis_names = file.axis_names.empty() ? std::vector<std::string>{"head", "i", "j"} : file.axis_names;
    if (!file.value_name.empty()) info.value_name = file.value_name;
  }
  info.scheme = "input";
  info.params = {{"input", path}};
  if (info.shape.empty()) {
    info.shape = {m.rows(), m.cols()};
    // The file's own labels go through to every output: its index column's name and first
    // value, and its column names.
    info.axis_names = {file.index_name.empty() ? "position" : file.index_name, "dim"};
    info.column_names = std::move(file.column_names);
    info.first_position = file.first_position;
  }
  info.title = "table from " + path;
  return std::make_unique<MatrixTable>(std::move(info), std::move(m));
}

}  // namespace posenc::analysis
