#include "posenc/cli/run.hpp"

#include <fmt/format.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <iostream>
#include <memory>
#include <new>
#include <utility>

#include "app.hpp"
#include "help_formatter.hpp"
#include "parse_errors.hpp"
#include "posenc/reports/build_info.hpp"
#include "posenc/cli/colour.hpp"
#include "posenc/error.hpp"
#include "posenc/formats/fd_stream.hpp"
#include "posenc/formats/output.hpp"
#include "posenc/memory.hpp"
#include "posenc/parallel.hpp"
#include "posenc/text.hpp"
#include "progress.hpp"
#include "quiet.hpp"
#include "scheme_options.hpp"

namespace posenc::cli {
namespace {

// CLI11's messages, reshaped to our one-line form (parse_errors.cpp).
std::string failure_message(const CLI::App* app, const CLI::Error& e) {
  return fmt::format("posenc: error: {}\n", parse_error_message(*app, e));
}

/// "--dim=" with nothing after '=': CLI11 would take the next word ("-o") as the value.
void check_empty_values(const std::vector<std::string>& args) {
  for (const auto& a : args) {
    if (a.size() > 3 && a.rfind("--", 0) == 0 && a.back() == '=' && a.find('=') == a.size() - 1)
      throw Error(fmt::format("{} has no value after '=': write {}VALUE or {} VALUE", a, a, a.substr(0, a.size() - 1)));
  }
}

// SIGINT/SIGTERM/SIGHUP during a write: remove the temporary file, then die of the same
// signal (so the shell sees "killed by SIGINT", not a normal exit).
extern "C" void on_fatal_signal(int sig) {
  formats::remove_pending_temp_files();
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

void install_signal_handlers() {
  struct sigaction sa {};
  sa.sa_handler = on_fatal_signal;
  sigemptyset(&sa.sa_mask);
  for (const int sig : {SIGINT, SIGTERM, SIGHUP}) {
    struct sigaction old {};
    sigaction(sig, nullptr, &old);
    if (old.sa_handler != SIG_IGN) sigaction(sig, &sa, nullptr);  // keep nohup's and `&`'s SIG_IGN
  }
  // Past `ulimit -f` a write must fail with EFBIG (reported, temp file removed), not kill us.
  std::signal(SIGXFSZ, SIG_IGN);
}

using AddCommand = void (*)(CLI::App&, Context&, int&);
/// The commands, in the order `posenc --help` lists them.
constexpr std::pair<const char*, AddCommand> kCommands[] = {
    {"rope", add_rope_command},       {"list", add_list_command},         {"generate", add_generate_command},
    {"decay", add_decay_command},     {"similarity", add_similarity_command}, {"project", add_project_command},
    {"check", add_check_command},     {"model", add_model_command},       {"tensors", add_tensors_command},
    {"usage", add_usage_command},     {"extrapolate", add_extrapolate_command},
    {"completion", add_completion_command},
};

/// Sets the memory limit from `--max-memory SIZE` / `--max-memory=SIZE` anywhere in `args`
/// (the default when absent) and returns the other arguments.
std::vector<std::string> take_max_memory(const std::vector<std::string>& args) {
  set_memory_limit(0);  // each run starts from the default (tests call run repeatedly)
  std::vector<std::string> rest;
  constexpr std::string_view kFlag = "--max-memory";
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == kFlag) {
      if (i + 1 >= args.size()) throw Error("--max-memory needs a SIZE, e.g. --max-memory 16G");
      set_memory_limit(parse_bytes(args[++i]));
    } else if (args[i].rfind("--max-memory=", 0) == 0) {
      set_memory_limit(parse_bytes(std::string_view(args[i]).substr(kFlag.size() + 1)));
    } else {
      rest.push_back(args[i]);
    }
  }
  return rest;
}

/// "posenc frobnicate": name the word and the commands, instead of CLI11's "A subcommand is required".
void check_command_name(const std::vector<std::string>& args) {
  std::vector<std::string> names;
  for (const auto& c : kCommands) names.emplace_back(c.first);
  if (args.empty()) throw Error(fmt::format("give a command: {}; see 'posenc --help'", join_choices(names)));
  const std::string& word = args.front();
  if (word.rfind('-', 0) == 0 || std::find(names.begin(), names.end(), word) != names.end()) return;
  throw Error(fmt::format("unknown command '{}'{}; choose one of: {}", word, did_you_mean(word, names), join_choices(names)));
}

/// `posenc --version`: the version, then the build (build_info()).
std::string version_text() {
  std::string out = std::string("posenc ") + POSENC_VERSION;
  for (const auto& [name, value] : reports::build_info()) out += fmt::format("\n{}: {}", name, value);
  return out;
}

/// "posenc --version extra": CLI11 would print the version and ignore the rest.
void check_version_alone(const std::vector<std::string>& args) {
  if (args.empty() || args.front() != "--version" || args.size() == 1) return;
  throw Error(fmt::format("--version takes no other arguments (got '{}'); run 'posenc --version' alone", args[1]));
}

}  // namespace

void configure_app(CLI::App& app, Context& ctx, int& exit_code, std::string& max_memory, std::string_view only) {
  app.set_version_flag("--version", version_text);
  app.require_subcommand(1);
  app.failure_message(failure_message);
  app.formatter(help_formatter());
  app.option_defaults()->always_capture_default();
  app.footer("run 'posenc COMMAND --help' for the options of a command; docs: docs/cli.md");
  app.add_option("--max-memory", max_memory,
                 "largest in-memory result allowed: bytes (4096, 1e9) or with a suffix K, M, G or T (powers of "
                 "1024), e.g. 16G, 1.5G (default: half the available memory); may stand anywhere on the line")
      ->type_name("SIZE");
  // Taken out of the arguments before parsing (take_colour), like --max-memory: here for --help,
  // the man page and the completions.
  static std::string colour_help;
  app.add_option("--color", colour_help,
                 "colour in the ANSI preview and in messages: auto (default: the preview unless NO_COLOR is set, "
                 "messages only on a terminal), always, never (the preview in glyphs); may stand anywhere on the line")
      ->type_name("WHEN")
      ->check(CLI::IsMember({"auto", "always", "never"}));
  // Taken out of the arguments by run (take_quiet): here for --help, the man page and completions.
  static bool quiet_help = false;
  app.add_flag("--quiet", quiet_help,
               "no warnings or notes on stderr (errors are still printed, the exit code is unchanged); may stand "
               "anywhere on the line");
  for (const auto& [name, add] : kCommands)
    if (only.empty() || only == name) add(app, ctx, exit_code);
}

int run(int argc, const char* const* argv) {
  install_signal_handlers();
  std::vector<std::string> args(argv + 1, argv + argc);
  // stdout through a descriptor stream that keeps the errno of a failed write, so that
  // "> /dev/full" or a closed pipe is reported with its cause.
  formats::FdOStream out(STDOUT_FILENO);
  std::unique_ptr<ProgressBar> bar;  // only for a person watching: nothing when stderr is a file or pipe
  const bool err_is_terminal = isatty(STDERR_FILENO) == 1;
  if (err_is_terminal) bar = std::make_unique<ProgressBar>(std::cerr);
  const MessageColour colour(std::cerr, err_is_terminal);
  return run(args, out, std::cerr, isatty(STDOUT_FILENO) == 1);
}

int run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  return run(args, out, err, false);
}

namespace {

int run_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err, bool out_is_terminal) {
  Context ctx{out, err, out_is_terminal};
  int exit_code = kOk;
  set_threads(0);  // all cores unless --threads says otherwise
  CLI::App app{"posenc: generate, analyse and draw the positional encodings of transformers", "posenc"};
  std::string max_memory;  // for --help; the value is taken out of args by take_max_memory
  try {
    check_empty_values(args);
    const auto rest = take_colour(take_max_memory(args));
    check_version_alone(rest);
    check_command_name(rest);
    // Only the command named is built (the commands hold hundreds of options, so this makes a
    // run several times cheaper); all of them for `posenc --help` and other options.
    configure_app(app, ctx, exit_code, max_memory, rest.front().starts_with('-') ? "" : rest.front());
    std::vector<std::string> reversed(rest.rbegin(), rest.rend());  // CLI11 takes argv reversed
    app.parse(reversed);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e, out, err);
    return code == 0 ? kOk : kUsageError;
  } catch (const SchemeFromModel& d) {  // --hf-config chose the scheme: read the line again, naming it
    std::vector<std::string> named = args;
    const auto command = std::find(named.begin(), named.end(), d.command);
    if (command == named.end()) {
      err << "posenc: error: internal error (please report): the command word is not on the line\n";
      return kUsageError;
    }
    named.insert(command + 1, d.scheme);
    return run_command(named, out, err, out_is_terminal);
  } catch (const OutputError& e) {
    err << "posenc: error: " << e.what() << "\n";
    return kOutputError;
  } catch (const Error& e) {
    err << "posenc: error: " << tidy_message(e.what()) << "\n";
    return kUsageError;
  } catch (const std::bad_alloc&) {
    err << "posenc: error: out of memory: use a smaller --len/--dim or write csv/npy/json, which stream\n";
    return kUsageError;
  } catch (const std::length_error&) {
    err << "posenc: error: out of memory: use a smaller --len/--dim or write csv/npy/json, which stream\n";
    return kUsageError;
  } catch (const std::exception& e) {
    // Our bug, not the user's: still one line and exit 2, but say so (the fuzzers look for it).
    err << "posenc: error: internal error (please report): " << tidy_message(e.what()) << "\n";
    return kUsageError;
  }
  return exit_code;
}

}  // namespace

int run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err, bool out_is_terminal) {
  bool quiet = false;
  const std::vector<std::string> rest = take_quiet(args, quiet);
  QuietStream quiet_err(err);
  const int code = run_command(rest, out, quiet ? quiet_err : err, out_is_terminal);
  quiet_err.flush();
  // Whatever went to stdout (a table, a report, --help) must have arrived: a full disk or
  // a closed pipe is an error, not a silent exit 0. An error already reported is enough.
  out.flush();
  if (!out && code != kUsageError && code != kOutputError) {
    err << "posenc: error: cannot write to stdout: " << formats::stream_error(out) << "\n";
    return kOutputError;
  }
  return code;
}

}  // namespace posenc::cli
