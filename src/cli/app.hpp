#pragma once
// Shared pieces of the command line: the streams a command writes to, and the
// `add_*_command` functions, one per subcommand file.
#include <CLI/CLI.hpp>

#include <ostream>
#include <string>
#include <string_view>

namespace posenc::cli {

/// Where a command writes: `out` is stdout (data), `err` is stderr (diagnostics).
struct Context {
  std::ostream& out;
  std::ostream& err;
  bool out_is_terminal = false;  ///< true when `out` is a terminal (binary output refused)
};

/// Each subcommand file binds its options and sets `exit_code` from its callback.
void add_rope_command(CLI::App& app, Context& ctx, int& exit_code);
void add_list_command(CLI::App& app, Context& ctx, int& exit_code);
void add_generate_command(CLI::App& app, Context& ctx, int& exit_code);
void add_decay_command(CLI::App& app, Context& ctx, int& exit_code);
void add_similarity_command(CLI::App& app, Context& ctx, int& exit_code);
void add_project_command(CLI::App& app, Context& ctx, int& exit_code);
void add_check_command(CLI::App& app, Context& ctx, int& exit_code);
void add_model_command(CLI::App& app, Context& ctx, int& exit_code);
void add_tensors_command(CLI::App& app, Context& ctx, int& exit_code);
void add_usage_command(CLI::App& app, Context& ctx, int& exit_code);
void add_extrapolate_command(CLI::App& app, Context& ctx, int& exit_code);
void add_completion_command(CLI::App& app, Context& ctx, int& exit_code);

/// Sets up posenc's top level (version, help format, --max-memory) and adds the command `only`
/// (every command when empty). `max_memory` receives --max-memory for --help's sake.
void configure_app(CLI::App& app, Context& ctx, int& exit_code, std::string& max_memory, std::string_view only);

}  // namespace posenc::cli
