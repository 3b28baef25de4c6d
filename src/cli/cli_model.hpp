#pragma once
// The command line as data: every command, its options, their value types and fixed choices,
// read from the same CLI::App that parses and prints --help. Completion scripts and man pages
// are written from it, so they cannot drift from --help.
#include <CLI/CLI.hpp>

#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "app.hpp"

namespace posenc::cli {

struct OptionModel {
  std::vector<std::string> names;    ///< "--len", "-o", "--output" (long and short, as declared)
  std::string type;                  ///< "INT in 1..65536", "PATH", "" for a flag
  std::string help;                  ///< description
  std::string default_text;          ///< "" when none is shown
  std::vector<std::string> choices;  ///< fixed values ({a,b} validators, true|false)
  bool takes_value = false;          ///< false for flags (--help, --no-extras)
  bool file = false;                 ///< a path (PATH, FILE)
  bool list = false;                 ///< a comma list whose items are `choices` (extrapolate --methods)
};

struct CommandModel {
  std::string name;         ///< "posenc", "rope", "sinusoidal"
  std::string path;         ///< words after posenc: "", "rope", "generate sinusoidal"
  std::string description;
  std::string footer;       ///< examples and notes from --help's footer
  std::vector<OptionModel> options;
  std::vector<CommandModel> subcommands;
  bool fallthrough = false;  ///< the parent's options are accepted after this command too
  bool positional_file = false;  ///< takes a path as a positional argument (posenc model PATH)
};

/// The whole command line of posenc, with every command built (run() builds only the one named).
struct FullApp {
  std::ostringstream sink;
  Context ctx{sink, sink, false};
  int exit_code = 0;
  std::string max_memory;
  CLI::App app{"posenc: generate, analyse and draw the positional encodings of transformers", "posenc"};
};
std::unique_ptr<FullApp> make_full_app();

/// Reads `app` (and its subcommands, recursively) into a CommandModel.
CommandModel describe(const CLI::App& app, const std::string& path = "");

/// `posenc completion bash|zsh|fish`: the script for one shell.
std::string completion_script(const CommandModel& root, const std::string& shell);
const std::vector<std::string>& completion_shells();

/// "posenc" for the root, "posenc-rope" for `rope`: the man page's name.
std::string man_page_name(const CommandModel& cmd);

/// man page (roff) of one command: `posenc(1)` for the root, `posenc-rope(1)` ...
/// `docdir`: where the installed documentation is (the .deb's /usr/share/doc/posenc): the pages
/// named "docs/NAME.md" in --help's footers are named there.
std::string man_page(const CommandModel& root, const CommandModel& cmd, const std::string& date,
                     const std::string& docdir = "/usr/share/doc/posenc");

}  // namespace posenc::cli
