#include "parse_errors.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <regex>
#include <vector>

#include "posenc/text.hpp"

namespace posenc::cli {
namespace {

// The deepest subcommand the words chose ("posenc generate sinusoidal"), and its path.
const CLI::App* deepest(const CLI::App& app, std::string& path) {
  const CLI::App* at = &app;
  path = "posenc";
  for (;;) {
    const auto subs = at->get_subcommands();
    if (subs.empty()) return at;
    at = subs.back();
    path += " " + at->get_name();
  }
}

// The app that holds the leftover words (the deepest one that refuses extras), and its path.
const CLI::App* with_extras(const CLI::App& app, std::string& path) {
  const CLI::App* found = nullptr;
  std::string p = "posenc";
  const CLI::App* at = &app;
  for (;;) {
    if (!at->get_allow_extras() && at->remaining_size() > 0) found = at, path = p;
    const auto subs = at->get_subcommands();
    if (subs.empty()) break;
    at = subs.back();
    p += " " + at->get_name();
  }
  if (found == nullptr) found = deepest(app, path);
  return found;
}


std::vector<std::string> command_names(const CLI::App* app) {
  std::vector<std::string> names;
  for (const CLI::App* s : app->get_subcommands([](const CLI::App* a) { return !a->get_name().empty(); }))
    names.push_back(s->get_name());
  return names;
}

std::string quoted_list(const std::vector<std::string>& words) {
  std::vector<std::string> q;
  for (const auto& w : words) q.push_back(fmt::format("'{}'", w));
  return fmt::format("{}", fmt::join(q, " "));
}

// "--len" from "--len: ..." or "--len,-l".
std::string option_of(const std::string& msg) {
  std::string name = msg.substr(0, msg.find(": "));
  return name.substr(0, name.find(','));
}

const CLI::Option* find_option(const CLI::App* app, const std::string& name) {
  for (const CLI::App* a = app; a != nullptr; a = a->get_parent())
    for (const CLI::Option* o : a->get_options())
      if (o->check_name(name)) return o;
  return nullptr;
}

std::string extras_message(const CLI::App& top) {
  std::string path;
  const CLI::App* at = with_extras(top, path);
  const std::vector<std::string> words = at->remaining(false);
  if (words.empty()) return "unexpected arguments; see '" + path + " --help'";
  const std::string& first = words.front();
  const auto commands = command_names(at);
  std::string msg;
  if (first.rfind('-', 0) != 0 && !commands.empty() && words.size() == 1) {
    // "posenc rope frobnicate": a word where a command was expected.
    msg = fmt::format("unknown command '{}' for '{}'{}; choose one of: {}", first, path, did_you_mean(first, commands),
                      join_choices(commands));
  } else {
    const std::string flag = first.substr(0, first.find('='));
    const std::string hint = flag.rfind("--", 0) == 0 ? did_you_mean(flag, long_option_names(*at)) : "";
    msg = fmt::format("unexpected argument{} {} for '{}'{}", words.size() > 1 ? "s" : "", quoted_list(words), path, hint);
  }
  return msg + fmt::format("; see '{} --help'", path);
}

}  // namespace

std::vector<std::string> long_option_names(const CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::App* a = &app; a != nullptr; a = a->get_parent())
    for (const CLI::Option* o : a->get_options())
      for (const auto& l : o->get_lnames()) names.push_back("--" + l);
  return names;
}

std::string tidy_message(std::string msg) {
  static const std::regex json_tag(R"(\[json\.exception\.[a-z_]+\.[0-9]+\] )");
  msg = std::regex_replace(msg, json_tag, "");
  std::replace(msg.begin(), msg.end(), '\n', ' ');
  return printable(msg, 4 * msg.size() + 16);  // \xNN is 4 bytes: nothing is cut
}

std::string parse_error_message(const CLI::App& app, const CLI::Error& e) {
  std::string msg = e.what();
  std::replace(msg.begin(), msg.end(), '\n', ' ');
  std::string path;
  const CLI::App* at = deepest(app, path);
  if (dynamic_cast<const CLI::ExtrasError*>(&e) != nullptr) return tidy_message(extras_message(app));
  if (const auto* m = dynamic_cast<const CLI::ArgumentMismatch*>(&e)) {
    (void)m;
    const std::string name = option_of(msg), rest = msg.substr(std::min(msg.size(), name.size() + 2));
    if (rest.find(" required ") != std::string::npos && rest.ends_with(" missing")) return name + " needs a value";
    if (rest.rfind("At Most ", 0) == 0) {
      // "--len 2 --len 3": CLI11 says "At Most 1 required but received 2".
      const CLI::Option* o = find_option(at, name);
      std::string given;
      if (o != nullptr && !o->results().empty()) {
        std::vector<std::string> q;
        for (const auto& r : o->results()) q.push_back(fmt::format("'{}'", r));
        const std::string last = q.back();
        q.pop_back();
        given = fmt::format(" (got {} and {})", fmt::join(q, ", "), last);
      }
      return tidy_message(fmt::format("{} was given more than once{}; give it once", name, given));
    }
    if (msg.find(" was given a disallowed flag override") != std::string::npos)
      return tidy_message(fmt::format("{} is a flag and takes no value (write {} alone)", name, name));
    if (rest.rfind("At least ", 0) == 0) return tidy_message(fmt::format("{} needs more values: {}", name, rest));
    // "Expected exactly 2 arguments to --dims, got 1"
    static const std::regex count(R"(^Expected (exactly|at least) ([0-9]+) arguments to (\S+), got ([0-9]+)$)");
    std::smatch c;
    if (std::regex_match(msg, c, count))
      return tidy_message(fmt::format("{} takes {}{} values (got {})", c[3].str(), c[1].str() == "exactly" ? "" : "at least ",
                                      c[2].str(), c[4].str()));
  }
  if (const auto* x = dynamic_cast<const CLI::ExcludesError*>(&e)) {
    (void)x;
    // "--causal excludes --mode"
    const auto at_ex = msg.find(" excludes ");
    if (at_ex != std::string::npos)
      return tidy_message(fmt::format("{} cannot be used with {}; give one of them", msg.substr(0, at_ex), msg.substr(at_ex + 10)));
  }
  if (dynamic_cast<const CLI::RequiredError*>(&e) != nullptr) {
    if (msg == "A subcommand is required") {
      const auto commands = command_names(at);
      return fmt::format("'{}' needs a command: {}; see '{} --help'", path, join_choices(commands), path);
    }
    if (msg.ends_with(" is required") && msg.rfind("--", 0) == 0)
      return tidy_message(fmt::format("{}; see '{} --help'", msg, path));
  }
  if (dynamic_cast<const CLI::ValidationError*>(&e) != nullptr) {
    // CLI::IsMember: "--format: xyz not in {csv,json,npy}".
    static const std::regex member(R"(^(--[\w-]+): (.*) not in \{(.*)\}$)");
    std::smatch m;
    if (std::regex_match(msg, m, member)) {
      std::vector<std::string> choices;
      const std::string list = m[3].str();
      for (std::size_t at_c = 0; at_c <= list.size();) {
        const std::size_t comma = std::min(list.find(',', at_c), list.size());
        choices.push_back(list.substr(at_c, comma - at_c));
        at_c = comma + 1;
      }
      return tidy_message(fmt::format("{} must be one of {} (got '{}'){}", m[1].str(), join_choices(choices), m[2].str(),
                                      did_you_mean(m[2].str(), choices)));
    }
  }
  if (dynamic_cast<const CLI::ConversionError*>(&e) != nullptr) {
    if (msg.ends_with(": too many inputs for a flag"))
      return tidy_message(fmt::format("{} is a flag and takes no value (write {} alone)", option_of(msg), option_of(msg)));
    if (msg.ends_with(": Should be true/false or a number"))
      return tidy_message(fmt::format("{} must be true or false", option_of(msg)));
    static const std::regex convert(R"(^Could not convert: (\S+) = (.*)$)");
    std::smatch m;
    if (std::regex_match(msg, m, convert)) {
      const CLI::Option* o = find_option(at, m[1].str());
      if (o != nullptr && o->get_expected_min() == 0)  // a flag given "=maybe"
        return tidy_message(fmt::format("{} is a flag: write {} alone, or {}=true / {}=false (got '{}')", m[1].str(),
                                        m[1].str(), m[1].str(), m[1].str(), m[2].str()));
      return tidy_message(fmt::format("{} cannot be read from '{}'", m[1].str(), m[2].str()));
    }
  }
  // Validators' "--len: must be ..." reads "--len must be ...".
  const std::size_t colon = msg.find(": ");
  if (colon != std::string::npos && msg.rfind("-", 0) == 0) {
    const std::string name = msg.substr(0, colon), rest = msg.substr(colon + 2);
    if (rest.rfind("must ", 0) == 0 || rest.rfind("each ", 0) == 0) msg = name + " " + rest;
  }
  if (!msg.empty() && msg[0] >= 'A' && msg[0] <= 'Z') msg[0] = static_cast<char>(msg[0] - 'A' + 'a');
  return tidy_message(msg);
}

}  // namespace posenc::cli
