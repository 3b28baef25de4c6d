#pragma once
// Pieces shared by `posenc rope`, `posenc rope diff` and `posenc rope permutation`.
#include <CLI/CLI.hpp>

#include <cstdint>
#include <functional>
#include <list>
#include <optional>
#include <string>
#include <vector>

#include "app.hpp"
#include "posenc/rope/rope_report.hpp"
#include "posenc/formats/format.hpp"
#include "posenc/params.hpp"

namespace posenc::cli {

/// The `rope` scheme's settings (its registry ParamSpecs, so names and defaults are those of
/// `posenc generate rope`) bound as options of one command, minus the table-only --len/--table.
class RopeSettings {
 public:
  void bind(CLI::App& app);
  /// The same settings as one side's overrides of `rope diff`: `--NAME-a` (suffix "a") for each
  /// setting but --hf-config (that side's file is --config-a), in help group `group`.
  void bind_side(CLI::App& app, const std::string& suffix, const std::string& group);
  /// The values, `given` set for the flags the user typed (they override --hf-config).
  ParamMap values() const;
  /// Sets in `p` (as given) each setting whose flag the user typed; returns them as
  /// {name, value text} in declaration order.
  std::vector<std::pair<std::string, std::string>> apply_given(ParamMap& p) const;

 private:
  struct Bound {
    std::string name;
    CLI::Option* option;
    ParamValue value;
  };
  std::list<Bound> bound_;  // stable addresses for CLI11 to write into
};

/// `-o PATH|-` and `--format` of a report: text to stdout unless --format or the extension of
/// -o says otherwise.
struct ReportOutput {
  std::string path = "-";
  std::optional<std::string> format;
  std::vector<formats::Format> allowed;

  void bind(CLI::App& app, std::vector<formats::Format> formats);
  /// --format, else the extension of -o, else text (when text is allowed and -o is stdout).
  formats::Format resolve() const;
  /// Resolves the format and checks -o's folder, before any work starts.
  formats::Format prepare() const;
  /// Writes through `write` to stdout or atomically to -o.
  void emit(Context& ctx, formats::Format f, const std::function<void(std::ostream&)>& write) const;
};

/// `posenc rope diff` and `posenc rope permutation`, sub-commands of `rope`. diff reads the
/// shared settings from `rope` (its unknown options fall through to it).
void add_rope_diff_command(CLI::App& rope, Context& ctx, const RopeSettings& shared, int& exit_code);
void add_rope_permutation_command(CLI::App& rope, Context& ctx, int& exit_code);
/// `posenc rope engines` (rope_engines_command.cpp): every convention beside transformers.
void add_rope_engines_command(CLI::App& rope, Context& ctx, const RopeSettings& shared, int& exit_code);

}  // namespace posenc::cli
