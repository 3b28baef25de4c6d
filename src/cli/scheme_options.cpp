#include "scheme_options.hpp"

#include <fmt/format.h>

#include <cctype>

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

CLI::Option* add_param(CLI::App& sub, const ParamSpec& spec, ParamValue& storage) {
  const std::string flag = "--" + spec.name;
  CLI::Option* opt = std::visit(
      [&](auto& v) -> CLI::Option* {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, std::vector<double>>) {
          return sub.add_option(flag, v, spec.help)->delimiter(',')->expected(0, -1);
        } else {
          return sub.add_option(flag, v, spec.help);
        }
      },
      storage);
  opt->default_str(to_string(spec.default_value));
  if (!spec.choices.empty()) opt->check(CLI::IsMember(spec.choices));
  const bool numeric = std::holds_alternative<double>(spec.default_value) ||
                       std::holds_alternative<std::int64_t>(spec.default_value);
  const bool real = std::holds_alternative<double>(spec.default_value);
  if (real && spec.max >= 1e300) {
    opt->check(finite_at_least(spec.min));  // CLI::Range would print 1e300 with %f
  } else {
    if (real) opt->check(finite_number());
    if (numeric && (spec.min > -1e300 || spec.max < 1e300)) opt->check(CLI::Range(spec.min, spec.max));
  }
  return opt;
}

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
      bound_.push_back({s.name, p.name, add_param(*sub, p, slot), &slot});
    }
  }
  parent.require_subcommand(0, 1);
  parent.allow_extras();  // unknown words are reported by scheme() with a suggestion
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
  for (const auto& b : bound_)
    if (b.scheme == s) out.set(b.name, *b.storage, b.option->count() > 0);
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
