#include "posenc/cli/run.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <iostream>

#include "app.hpp"
#include "posenc/error.hpp"

namespace posenc::cli {
namespace {

// CLI11's messages, reshaped to our one-line form.
std::string failure_message(const CLI::App* /*app*/, const CLI::Error& e) {
  std::string msg = e.what();
  std::replace(msg.begin(), msg.end(), '\n', ' ');
  return fmt::format("posenc: error: {}\n", msg);
}

}  // namespace

int run(int argc, const char* const* argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  Context ctx{std::cout, std::cerr, isatty(STDOUT_FILENO) == 1};
  return run(args, ctx.out, ctx.err, ctx.out_is_terminal);
}

int run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  return run(args, out, err, false);
}

int run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err, bool out_is_terminal) {
  Context ctx{out, err, out_is_terminal};
  int exit_code = kOk;
  CLI::App app{"posenc: generate, analyse and draw the positional encodings of transformers", "posenc"};
  app.set_version_flag("--version", std::string("posenc ") + POSENC_VERSION);
  app.require_subcommand(1);
  app.failure_message(failure_message);
  app.option_defaults()->always_capture_default();
  app.footer("run 'posenc COMMAND --help' for the options of a command; docs: docs/cli.md");
  add_rope_command(app, ctx, exit_code);
  add_list_command(app, ctx, exit_code);
  add_generate_command(app, ctx, exit_code);
  add_decay_command(app, ctx, exit_code);
  add_similarity_command(app, ctx, exit_code);
  add_project_command(app, ctx, exit_code);
  add_check_command(app, ctx, exit_code);
  try {
    std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 takes argv reversed
    app.parse(reversed);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e, out, err);
    return code == 0 ? kOk : kUsageError;
  } catch (const Error& e) {
    err << "posenc: error: " << e.what() << "\n";
    return kUsageError;
  }
  return exit_code;
}

}  // namespace posenc::cli
