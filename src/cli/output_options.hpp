#pragma once
// `-o PATH|-`, `--format` and `--dtype`, shared by every command that writes a table.
#include <CLI/CLI.hpp>

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "app.hpp"
#include "posenc/io/format.hpp"
#include "posenc/table.hpp"

namespace posenc::cli {

struct OutputOptions {
  std::string path = "-";
  std::optional<std::string> format;
  std::string dtype = "float32";
  unsigned threads = 0;  ///< --threads; 0 = all cores (applied to posenc::set_threads when parsed)

  /// Binds -o, --format (restricted to `allowed`) and --dtype to `app`.
  void bind(CLI::App& app, const std::vector<io::Format>& allowed);
  /// The format from --format, else from the extension of -o, else an Error.
  io::Format resolve() const;
  /// Fails early (before any work) when the output folder is missing or not writable.
  void check_path() const;

  std::vector<io::Format> allowed;
};

/// Writes `write`'s bytes to -o: stdout for "-", else atomically (temp file + rename).
void emit(Context& ctx, const OutputOptions& o, bool binary, const std::function<void(std::ostream&)>& write);

/// Writes a table in the resolved format (csv, json, npy or a png heatmap).
void emit_table(Context& ctx, const OutputOptions& o, const Table& t);
/// emit_table without the warning on stderr when the output holds nan or infinite values.
void emit_table_unchecked(Context& ctx, const OutputOptions& o, const Table& t);

}  // namespace posenc::cli
