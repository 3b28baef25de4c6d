// posenc completion bash|zsh|fish: prints a completion script generated from the command line
// itself (every command, option and fixed choice; files for path options).
#include <memory>

#include "app.hpp"
#include "cli_model.hpp"

namespace posenc::cli {

void add_completion_command(CLI::App& app, Context& ctx, int& /*exit_code*/) {
  auto shell = std::make_shared<std::string>();
  CLI::App* cmd = app.add_subcommand("completion", "print a shell completion script (bash, zsh or fish)");
  cmd->add_option("shell", *shell, "the shell: bash, zsh or fish")->required()->type_name("SHELL");
  cmd->footer(
      "examples:\n"
      "  source <(posenc completion bash)                       # this bash session\n"
      "  posenc completion bash > /etc/bash_completion.d/posenc  # every bash session\n"
      "  posenc completion zsh > \"${fpath[1]}/_posenc\"           # zsh (then: compinit)\n"
      "  posenc completion fish > ~/.config/fish/completions/posenc.fish\n"
      "installed packages already put these files in place (see README, Installing)");
  cmd->callback([shell, &ctx] {
    const auto full = make_full_app();
    ctx.out << completion_script(describe(full->app), *shell);
  });
}

}  // namespace posenc::cli
