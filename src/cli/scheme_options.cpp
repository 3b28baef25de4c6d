#include "scheme_options.hpp"

#include <fmt/format.h>

#include <cmath>
#include <limits>

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
  if (std::holds_alternative<std::int64_t>(spec.default_value)) {
    // Bounds are doubles in ParamSpec: +-2^63 (and beyond) stand for the int64 range.
    const auto bound = [](double b, std::int64_t extreme) {
      return std::abs(b) >= 0x1p63 ? extreme : static_cast<std::int64_t>(b);
    };
    integer_option(opt, bound(std::ceil(spec.min), std::numeric_limits<std::int64_t>::min()),
                   bound(std::floor(spec.max), std::numeric_limits<std::int64_t>::max()));
  } else if (std::holds_alternative<double>(spec.default_value)) {
    const double inf = std::numeric_limits<double>::infinity();
    number_option(opt, spec.min <= -1e300 ? -inf : spec.min, spec.max >= 1e300 ? inf : spec.max, spec.above_min);
  } else if (std::holds_alternative<bool>(spec.default_value)) {
    opt->transform(boolean())->type_name("true|false");
  } else if (std::holds_alternative<std::vector<double>>(spec.default_value)) {
    opt->transform(number_list_item())->type_name("NUMBER,...");
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

std::unique_ptr<Table> SchemeOptions::make_table() const {
  const std::string s = scheme();
  if (!s.empty()) return encodings::make_table(s, values());
  io::TableFile file = io::read_input(input_);
  Matrix m = std::move(file.values);
  TableInfo info;
  info.scheme = "input";
  info.params = {{"input", input_}};
  info.shape = {m.rows(), m.cols()};
  // The file's own labels go through to every output: its index column's name and first
  // value, and its column names.
  info.axis_names = {file.index_name.empty() ? "position" : file.index_name, "dim"};
  info.column_names = std::move(file.column_names);
  info.first_position = file.first_position;
  info.title = "table from " + input_;
  return std::make_unique<MatrixTable>(std::move(info), std::move(m));
}

}  // namespace posenc::cli
