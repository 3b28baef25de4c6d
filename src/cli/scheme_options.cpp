#include "scheme_options.hpp"

#include <fmt/format.h>

#include <cctype>
#include <charconv>
#include <cstdlib>

#include "posenc/encodings/registry.hpp"
#include "posenc/error.hpp"
#include "posenc/io/readers.hpp"
#include "posenc/text.hpp"
#include "validators.hpp"

namespace posenc::cli {
namespace {

std::vector<std::string> scheme_names() {
  std::vector<std::string> names;
  for (const auto& s : encodings::schemes()) names.push_back(s.name);
  return names;
}

}  // namespace

std::vector<CLI::Validator> param_checks(const ParamSpec& spec) {
  std::vector<CLI::Validator> out;
  if (!spec.choices.empty()) out.push_back(CLI::IsMember(spec.choices));
  const bool numeric = std::holds_alternative<double>(spec.default_value) ||
                       std::holds_alternative<std::int64_t>(spec.default_value);
  const bool real = std::holds_alternative<double>(spec.default_value);
  if (real && spec.max >= 1e300) {
    out.push_back(finite_at_least(spec.min));  // CLI::Range would print 1e300 with %f
  } else {
    if (real) out.push_back(finite_number());
    if (numeric && (spec.min > -1e300 || spec.max < 1e300)) out.push_back(CLI::Range(spec.min, spec.max));
  }
  return out;
}

CLI::Option* add_param(CLI::App& sub, const ParamSpec& spec, ParamValue& storage) {
  const std::string flag = "--" + spec.name;
  CLI::Option* opt = std::visit(
      [&](auto& v) -> CLI::Option* {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, std::vector<double>> || std::is_same_v<T, std::vector<std::int64_t>>) {
          return sub.add_option(flag, v, spec.help)->delimiter(',')->expected(0, -1);
        } else {
          return sub.add_option(flag, v, spec.help);
        }
      },
      storage);
  opt->default_str(to_string(spec.default_value));
  for (auto& check : param_checks(spec)) opt->check(std::move(check));
  return opt;
}

namespace {

bool is_number(const ParamValue& v) { return std::holds_alternative<double>(v) || std::holds_alternative<std::int64_t>(v); }

std::vector<std::string> split_commas(const std::string& text) {
  std::vector<std::string> out;
  for (std::size_t start = 0;;) {
    const auto comma = text.find(',', start);
    out.push_back(text.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (comma == std::string::npos) return out;
    start = comma + 1;
  }
}

// A numeric option that takes "V" or "V1,V2,...": each value checked as the single value would be.
CLI::Option* add_list_param(CLI::App& sub, const ParamSpec& spec, std::string& text) {
  const bool integer = std::holds_alternative<std::int64_t>(spec.default_value);
  auto checks = param_checks(spec);
  CLI::Option* opt = sub.add_option("--" + spec.name, text, spec.help + " (a comma list: one series per value)");
  opt->default_str(to_string(spec.default_value));
  opt->type_name(integer ? "INT[,INT...]" : "NUM[,NUM...]");
  opt->check(CLI::Validator(
      [checks, integer](std::string& all) -> std::string {
        for (std::string one : split_commas(all)) {
          if (integer) {
            std::int64_t v = 0;
            const auto [end, ec] = std::from_chars(one.data(), one.data() + one.size(), v);
            if (ec != std::errc() || end != one.data() + one.size()) return "must be an integer (got '" + one + "')";
          }
          for (const auto& check : checks) {
            std::string copy = one;
            if (auto error = check(copy); !error.empty()) return error;
          }
        }
        return {};
      },
      "", "value-list"));
  return opt;
}

ParamValue parse_number(const ParamSpec& spec, const std::string& text) {  // already validated
  if (std::holds_alternative<std::int64_t>(spec.default_value)) {
    std::int64_t v = 0;
    std::from_chars(text.data(), text.data() + text.size(), v);
    return v;
  }
  return std::strtod(text.c_str(), nullptr);
}

}  // namespace

void SchemeOptions::bind(CLI::App& parent) {
  parent_ = &parent;
  parent.add_option("--input", input_,
                    "a table of your own (.npy or .csv: rows = positions) in place of a SCHEME")
      ->type_name("FILE");
  for (const auto& s : encodings::schemes()) {
    CLI::App* sub = parent.add_subcommand(s.name, s.summary);
    sub->fallthrough();
    sub->footer("formula: " + s.formula);
    for (const auto& p : s.params) {
      ParamValue& slot = storage_.emplace_back(p.default_value);
      if (allow_lists_ && is_number(p.default_value)) {
        std::string& text = texts_.emplace_back();
        bound_.push_back({s.name, p.name, add_list_param(*sub, p, text), &slot, &text, &p});
      } else {
        bound_.push_back({s.name, p.name, add_param(*sub, p, slot), &slot, nullptr, &p});
      }
      if (p.choice_flags) add_choice_flags(*sub, p, bound_.back());
    }
  }
  parent.require_subcommand(0, 1);
  parent.allow_extras();  // unknown words are reported by scheme() with a suggestion
}

void SchemeOptions::add_choice_flags(CLI::App& sub, const ParamSpec& p, Bound& b) {
  for (const auto& choice : p.choices) {
    const std::string help = fmt::format("same as --{} {}", p.name, choice);
    CLI::Option* flag = sub.add_flag("--" + choice, help);
    for (CLI::Option* other : b.choice_flags) flag->excludes(other);
    flag->excludes(b.option);
    b.choice_flags.push_back(flag);
  }
}

std::string SchemeOptions::scheme() const {
  const auto extras = parent_->remaining();
  std::string chosen;
  for (const auto* sub : parent_->get_subcommands()) chosen = sub->get_name();
  if (!extras.empty()) {
    const std::string& word = extras.front();
    if (chosen.empty() && word.rfind('-', 0) != 0)
      throw Error(fmt::format("unknown scheme '{}'{}; choose one of: {}", word,
                              did_you_mean(word, scheme_names()), join_choices(scheme_names())));
    throw Error(fmt::format("unexpected argument '{}'{}; see 'posenc {} {} --help'", word,
                            chosen.empty() ? "" : " for scheme " + chosen, parent_->get_name(),
                            chosen.empty() ? "SCHEME" : chosen));
  }
  if (chosen.empty() && input_.empty())
    throw Error(fmt::format("give a SCHEME ({}) or --input FILE", join_choices(scheme_names())));
  if (!chosen.empty() && !input_.empty())
    throw Error(fmt::format("give either a SCHEME or --input, not both (got '{}' and --input '{}')", chosen, input_));
  return chosen;
}

ParamMap SchemeOptions::values() const {
  const std::string s = scheme();
  ParamMap out;
  for (const auto& b : bound_) {
    if (b.scheme != s) continue;
    const bool given = b.option->count() > 0;
    if (b.text && given) {
      out.set(b.name, parse_number(*b.spec, split_commas(*b.text).front()), true);
    } else {
      out.set(b.name, *b.storage, given);
    }
    for (std::size_t c = 0; c < b.choice_flags.size(); ++c)  // --causal: --mode causal
      if (b.choice_flags[c]->count() > 0) out.set(b.name, b.spec->choices[c], true);
  }
  return out;
}

std::vector<std::pair<std::string, std::string>> SchemeOptions::value_lists() const {
  const std::string s = scheme();
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& b : bound_)
    if (b.scheme == s && b.text && b.option->count() > 0 && b.text->find(',') != std::string::npos)
      out.emplace_back(b.name, *b.text);
  return out;
}

std::unique_ptr<Table> SchemeOptions::make_table(std::size_t max_axes) const {
  const std::string s = scheme();
  if (!s.empty()) return encodings::make_table(s, values());
  TableInfo info;
  Matrix m;
  std::string ext = input_.size() >= 4 ? input_.substr(input_.size() - 4) : "";
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  const bool npy = ext == ".npy";
  if (max_axes > 2 && npy) {
    auto a = io::read_npy_array(input_, max_axes);
    m = std::move(a.values);
    if (a.shape.size() == 3) {
      info.shape = a.shape;
      info.axis_names = {"head", "i", "j"};
    }
  } else {
    m = io::read_table(input_);
  }
  info.scheme = "input";
  info.params = {{"input", input_}};
  if (info.shape.empty()) {
    info.shape = {m.rows(), m.cols()};
    info.axis_names = {"position", "dim"};
  }
  info.title = "table from " + input_;
  return std::make_unique<MatrixTable>(std::move(info), std::move(m));
}

}  // namespace posenc::cli
