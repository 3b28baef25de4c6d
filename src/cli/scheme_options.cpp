#include "scheme_options.hpp"

#include <fmt/format.h>

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>

#include "posenc/analysis/decay_sources.hpp"
#include "posenc/schemes/registry.hpp"
#include "posenc/error.hpp"
#include "posenc/formats/readers.hpp"
#include "posenc/formats/tensor_table.hpp"
#include "posenc/text.hpp"
#include "parse_errors.hpp"
#include "validators.hpp"

namespace posenc::cli {
namespace {

std::vector<std::string> scheme_names() {
  std::vector<std::string> names;
  for (const auto& s : schemes::schemes()) names.push_back(s.name);
  return names;
}

}  // namespace

namespace {

// Bounds are doubles in ParamSpec: +-2^63 (and beyond) stand for the int64 range, +-1e300 for
// no bound.
std::pair<std::int64_t, std::int64_t> integer_bounds(const ParamSpec& spec) {
  const auto bound = [](double b, std::int64_t extreme) {
    return std::abs(b) >= 0x1p63 ? extreme : static_cast<std::int64_t>(b);
  };
  return {bound(std::ceil(spec.min), std::numeric_limits<std::int64_t>::min()),
          bound(std::floor(spec.max), std::numeric_limits<std::int64_t>::max())};
}

std::pair<double, double> number_bounds(const ParamSpec& spec) {
  const double inf = std::numeric_limits<double>::infinity();
  return {spec.min <= -1e300 ? -inf : spec.min, spec.max >= 1e300 ? inf : spec.max};
}

/// The validator of one value of a numeric parameter (it rewrites what it accepts in plain
/// decimal).
CLI::Validator value_check(const ParamSpec& spec) {
  if (std::holds_alternative<std::int64_t>(spec.default_value)) {
    const auto [lo, hi] = integer_bounds(spec);
    return integer_in(lo, hi);
  }
  const auto [lo, hi] = number_bounds(spec);
  return number_in(lo, hi, spec.above_min);
}

}  // namespace

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
  opt->default_str(default_text(spec));
  if (spec.path) opt->type_name("PATH");
  if (!spec.choices.empty()) opt->check(CLI::IsMember(spec.choices));
  if (std::holds_alternative<std::int64_t>(spec.default_value)) {
    const auto [lo, hi] = integer_bounds(spec);
    integer_option(opt, lo, hi);
  } else if (std::holds_alternative<double>(spec.default_value)) {
    const auto [lo, hi] = number_bounds(spec);
    number_option(opt, lo, hi, spec.above_min);
  } else if (std::holds_alternative<bool>(spec.default_value)) {
    opt->transform(boolean())->type_name("true|false");
  } else if (std::holds_alternative<std::vector<double>>(spec.default_value)) {
    opt->transform(number_list_item())->type_name("NUMBER,...");
  }
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

// A numeric option that takes "V" or "V1,V2,...": each value checked (and rewritten in plain
// decimal) as the single value would be.
CLI::Option* add_list_param(CLI::App& sub, const ParamSpec& spec, std::string& text) {
  const bool integer = std::holds_alternative<std::int64_t>(spec.default_value);
  const CLI::Validator one = value_check(spec);
  CLI::Option* opt = sub.add_option("--" + spec.name, text, spec.help + " (a comma list: one series per value)");
  opt->default_str(default_text(spec));
  opt->type_name(integer ? "INT[,INT...]" : "NUMBER[,NUMBER...]");
  opt->transform(CLI::Validator(
      [one](std::string& all) -> std::string {
        std::string checked;
        for (std::string item : split_commas(all)) {
          if (auto error = one(item); !error.empty()) return error;
          checked += (checked.empty() ? "" : ",") + item;
        }
        all = checked;
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

void SchemeOptions::bind(CLI::App& parent, std::ostream* notes) {
  parent_ = &parent;
  notes_ = notes;
  parent.add_option("--input", input_,
                    "a table of your own (.npy, .npz or .csv; - reads stdin: rows = positions), or a checkpoint's tensor: "
                    "FILE.safetensors:NAME (a folder or model.safetensors.index.json too; NAME[i] slices a 3-D tensor) in "
                    "place of a SCHEME")
      ->type_name("FILE");
  bind_input_options(parent, input_flags_);
  parent
      .add_option("--hf-config", hf_config_,
                  "a model's config.json, model folder or cached id (ORG/NAME): the scheme and settings its own code "
                  "uses (rope, alibi, t5, sinusoidal, learned, deberta, mrope, nope); without a SCHEME the model decides; flags "
                  "override it")
      ->type_name("PATH");
  for (const auto& s : schemes::schemes()) {
    CLI::App* sub = parent.add_subcommand(s.name, s.summary);
    sub->fallthrough();
    sub->footer("formula: " + s.formula);
    if (const std::string example = models::hf_config_example(s.name); !example.empty())
      sub->footer(fmt::format("formula: {}\n--hf-config PATH (a config.json, model folder or cached ORG/NAME) sets these "
                              "options as the model's own code does; flags override it, e.g.\n  posenc {} {} "
                              "--hf-config {}",
                              s.formula, parent.get_name(), s.name, example));
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
  const bool stray_word = !extras.empty() && extras.front().rfind('-', 0) != 0;  // reported below
  if (chosen.empty() && input_.empty() && !hf_config_.empty() && !model_ && !stray_word)
    throw SchemeFromModel{parent_->get_name(), models::scheme_of_model(hf_config_, "", "").scheme};
  if (!extras.empty()) {
    const std::string& word = extras.front();
    if (chosen.empty() && word.rfind('-', 0) != 0)
      throw Error(fmt::format("unknown scheme '{}'{}; choose one of: {}", word,
                              did_you_mean(word, scheme_names()), join_choices(scheme_names())));
    const std::string flag = word.substr(0, word.find('='));
    std::string hint;
    if (flag.rfind("--", 0) == 0 && !chosen.empty()) {
      hint = did_you_mean(flag, long_option_names(*parent_->get_subcommand(chosen)));
    } else if (flag == "--len" && !input_.empty()) {
      // "similarity --input t.npy --len 2000": the rows of a table are chosen with --rows.
      hint = " (with --input, --rows :N takes the first N rows and --rows A:B rows A … B-1)";
    } else if (flag.rfind("--", 0) == 0) {
      // "generate --causal": an option of some schemes, given before the scheme.
      std::vector<std::string> owners;
      for (const CLI::App* sub : parent_->get_subcommands([](const CLI::App*) { return true; }))
        for (const CLI::Option* o : sub->get_options())
          if (o->check_lname(flag.substr(2))) owners.push_back(sub->get_name());
      if (!owners.empty())
        hint = fmt::format(" ({} is an option of {}: name the scheme first, e.g. 'posenc {} {} {}')", flag,
                           join_choices(owners), parent_->get_name(), owners.front(), word);
    }
    throw Error(fmt::format("unexpected argument '{}'{}{}; see 'posenc {} {} --help'", word,
                            chosen.empty() ? "" : " for scheme " + chosen, hint, parent_->get_name(),
                            chosen.empty() ? "SCHEME" : chosen));
  }
  if (!hf_config_.empty()) {
    if (!input_.empty())
      throw Error(fmt::format("give either --hf-config or --input, not both (got '{}' and --input '{}'); a model's "
                              "trained table goes in with --input alone",
                              hf_config_, input_));
    return model_scheme(chosen)->scheme;
  }
  if (chosen.empty() && input_.empty())
    throw Error(fmt::format("give a SCHEME ({}), --input FILE or --hf-config PATH", join_choices(scheme_names())));
  if (!chosen.empty() && !input_.empty())
    throw Error(fmt::format("give either a SCHEME or --input, not both (got '{}' and --input '{}')", chosen, input_));
  check_input_options(input_flags_, !input_.empty());
  return chosen;
}

const models::ModelScheme* SchemeOptions::model_scheme(const std::string& chosen) const {
  if (model_) return &*model_;
  ParamMap given;  // the flags typed for the chosen scheme (T5's --mode/--causal picks its stack)
  for (const auto& b : bound_) {
    if (b.scheme != chosen) continue;
    if (b.name == "hf-config" && b.option->count() > 0)  // a scheme's own --hf-config (rope's)
      throw Error(fmt::format("--hf-config given twice ('{}' and '{}'): give it once", hf_config_,
                              std::get<std::string>(*b.storage)));
    if (b.option->count() > 0)
      given.set(b.name, b.text ? parse_number(*b.spec, split_commas(*b.text).front()) : *b.storage, true);
    for (std::size_t c = 0; c < b.choice_flags.size(); ++c)
      if (b.choice_flags[c]->count() > 0) given.set(b.name, b.spec->choices[c], true);
  }
  model_ = models::scheme_of_model(hf_config_, chosen, given);
  return &*model_;
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
  if (!hf_config_.empty()) {  // the model fills what the user did not type
    for (const auto& [name, value] : model_->values)
      if (!out.given(name)) out.set(name, value, false);
    out.set("hf-config", hf_config_, true);
    if (!notes_printed_) {
      // What was read goes to stderr once, and only for values that build a table: a flag the
      // model's scheme refuses (--bias-max under bloom) is the run's one line. (A model that sets
      // no flags, RoPE, whose table reads the config itself, has nothing to check here.)
      if (!model_->values.empty()) (void)schemes::make_table(s, out);
      notes_printed_ = true;
      if (notes_ != nullptr) {
        std::string flags;  // the settings in effect, as flags; the model's value beside one the user changed
        for (const auto& [name, value] : model_->values) {
          flags += fmt::format(" --{} {}", name, to_string(out.value(name)));
          if (out.given(name) && out.value(name) != value) flags += fmt::format(" (the model's: {})", to_string(value));
        }
        *notes_ << "posenc: note: " << model_->summary << ":" << flags << "\n";
        for (const auto& n : model_->notes) *notes_ << "posenc: note: " << n << "\n";
      }
    }
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
  if (!s.empty()) return schemes::make_table(s, values());
  std::vector<std::string> notes;
  auto table = analysis::input_table(input_, read_options(input_flags_, max_axes), &notes);
  if (notes_ != nullptr)
    for (const auto& n : notes) *notes_ << "posenc: note: " << n << "\n";
  return table;
}

std::unique_ptr<Table> SchemeOptions::make_streamed_table(std::size_t max_axes) const {
  if (!scheme().empty()) return make_table(max_axes);
  std::vector<std::string> notes;
  std::unique_ptr<Table> t = formats::open_tensor_table(input_, read_options(input_flags_, max_axes), &notes);
  if (!t) return make_table(max_axes);
  if (notes_ != nullptr)
    for (const auto& n : notes) *notes_ << "posenc: note: " << n << "\n";
  TableInfo& info = t->info();  // as make_table labels a 2-D --input
  info.scheme = "input";
  info.params = {{"input", input_}};
  info.axis_names = {"position", "dim"};
  info.title = "table from " + input_;
  return t;
}

}  // namespace posenc::cli
