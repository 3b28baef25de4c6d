#pragma once
// `-o PATH|-`, `--format` and `--dtype`, shared by every command that writes a table.
#include <CLI/CLI.hpp>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "app.hpp"
#include "figure_options.hpp"
#include "posenc/formats/format.hpp"
#include "posenc/table.hpp"

namespace posenc::cli {

struct OutputOptions {
  std::string path = "-";
  std::optional<std::string> format;
  std::string dtype = "float32";
  unsigned threads = 0;  ///< --threads; 0 = all cores (applied to posenc::set_threads when parsed)
  FigureOptions figure;

  /// Binds -o, --format (restricted to `allowed`) and --dtype to `app`. A command that can
  /// write png can also write svg and ansi, and gets the figure options (--width, ...).
  void bind(CLI::App& app, const std::vector<formats::Format>& allowed);
  /// The format from --format, else from the extension of -o, else an Error.
  formats::Format resolve() const;
  /// Fails early (before any work) when the output folder is missing or not writable.
  void check_path() const;

  std::vector<formats::Format> allowed;
};

/// Writes `write`'s bytes to -o: stdout for "-", else formats::write_atomically (a file appears
/// whole or not at all; `min_bytes`, a lower bound of the size, is checked against the free
/// disk space first). Every write is checked: a full disk or closed pipe stops at once.
void emit(Context& ctx, const OutputOptions& o, bool binary, const std::function<void(std::ostream&)>& write,
          std::uint64_t min_bytes = 0);

/// Writes a table in the resolved format (csv, json, npy, or a heatmap figure: png, svg, ansi).
void emit_table(Context& ctx, const OutputOptions& o, const Table& t);
/// emit_table without the warning on stderr when the output holds nan or infinite values.
void emit_table_unchecked(Context& ctx, const OutputOptions& o, const Table& t);

/// Writes a figure in the resolved format (png, svg or ansi), after o.figure's overrides.
void emit_figure(Context& ctx, const OutputOptions& o, render::Figure fig, const render::Metadata& metadata);

}  // namespace posenc::cli
