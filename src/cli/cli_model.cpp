#include "cli_model.hpp"

#include <algorithm>

namespace posenc::cli {
namespace {

std::vector<std::string> split_choices(const std::string& braced) {
  std::vector<std::string> out;
  std::string cur;
  for (const char ch : braced.substr(1, braced.size() - 2)) {
    if (ch == ',') {
      out.push_back(cur);
      cur.clear();
    } else {
      cur += ch;
    }
  }
  if (!cur.empty()) out.push_back(cur);
  return out;
}

OptionModel describe_option(const CLI::Option& o) {
  OptionModel m;
  for (const auto& s : o.get_snames()) m.names.push_back("-" + s);
  for (const auto& l : o.get_lnames()) m.names.push_back("--" + l);
  m.help = o.get_description();
  // A flag expects no value (CLI11 gives it a type size of 1 all the same).
  m.takes_value = o.get_expected_max() > 0;
  m.default_text = o.get_default_str();
  // get_type_name() is "TEXT:{a,b}" for IsMember validators: the type, then each validator's
  // description after ':'.
  const std::string full = o.get_type_name();
  std::string type = full;
  for (std::size_t brace = full.find(":{"); brace != std::string::npos; brace = full.find(":{", brace + 1)) {
    const std::size_t end = full.find('}', brace);
    if (end == std::string::npos) break;
    m.choices = split_choices(full.substr(brace + 1, end - brace));
    type = full.substr(0, brace);
  }
  if (full == "true|false") m.choices = {"true", "false"};
  m.type = m.takes_value ? type : "";
  m.list = type == "LIST" && !m.choices.empty();
  m.file = type == "PATH" || type == "FILE" || type.rfind("FILE", 0) == 0 || type == "DIR";
  return m;
}

}  // namespace

std::unique_ptr<FullApp> make_full_app() {
  auto full = std::make_unique<FullApp>();
  configure_app(full->app, full->ctx, full->exit_code, full->max_memory, "");
  return full;
}

CommandModel describe(const CLI::App& app, const std::string& path) {
  CommandModel m;
  m.name = app.get_name();
  m.path = path;
  m.description = app.get_description();
  m.footer = app.get_footer();
  m.fallthrough = app.get_fallthrough();
  for (const CLI::Option* o : app.get_options()) {
    if (o->get_lnames().empty() && o->get_snames().empty()) {  // positionals
      const std::string type = o->get_type_name();
      if (type == "PATH" || type == "FILE") m.positional_file = true;
      continue;
    }
    m.options.push_back(describe_option(*o));
  }
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
    const std::string p = path.empty() ? sub->get_name() : path + " " + sub->get_name();
    m.subcommands.push_back(describe(*sub, p));
  }
  return m;
}

}  // namespace posenc::cli
