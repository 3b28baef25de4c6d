#pragma once
// One sub-command per scheme under a parent command (generate, decay, ...), each
// with the scheme's own parameters and defaults, so `posenc generate rope --help`
// shows exactly what rope accepts.
#include <CLI/CLI.hpp>

#include <list>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "input_options.hpp"
#include "posenc/models/model_schemes.hpp"
#include "posenc/params.hpp"
#include "posenc/table.hpp"

namespace posenc::cli {

/// Binds `spec` as `--NAME` on `sub`, writing into `storage` (which holds the default and so
/// fixes the type): choices become CLI::IsMember, numbers are checked against their range by
/// validators.hpp's family, lists take commas.
CLI::Option* add_param(CLI::App& sub, const ParamSpec& spec, ParamValue& storage);

/// Thrown by SchemeOptions::scheme() when --hf-config decides the scheme of a command line that
/// names none: run() parses the line again with `scheme` after the `command` word, so that the
/// scheme's own options (--len, --heads, ...) are read as if the user had named it.
struct SchemeFromModel {
  std::string command;
  std::string scheme;
};

class SchemeOptions {
 public:
  /// Lets every numeric scheme option take a comma list (`--base 100,1000,10000`), each value
  /// checked as a single one would be; values() then holds the first value and value_lists()
  /// the lists. For `decay`, where a list means one series per value. Call before bind().
  void allow_value_lists() { allow_lists_ = true; }
  /// The options of the chosen scheme given two or more values: {name, "V1,V2,..."}.
  std::vector<std::pair<std::string, std::string>> value_lists() const;
  /// Adds the scheme sub-commands, `--input FILE` and the options that say how to read it to
  /// `parent`; what the reader decided for the user (an index column taken) goes to `notes`.
  void bind(CLI::App& parent, std::ostream* notes = nullptr);

  /// The chosen scheme ("" when --input is used); with --hf-config and no scheme, the model's.
  /// Throws Error when neither or both are given, an unknown word stands where a scheme
  /// belongs, or the scheme named contradicts the --hf-config model.
  std::string scheme() const;
  /// The values of the chosen scheme, `given` set for the flags the user typed; under
  /// --hf-config the model's values fill the flags the user did not type.
  ParamMap values() const;
  /// Builds the table: the scheme's, or the user's --input file. With max_axes 3 an --input
  /// may also be H×N×M (an .npy/.npz, or posenc's long-form CSV: a bias table per head).
  std::unique_ptr<Table> make_table(std::size_t max_axes = 2) const;
  /// make_table, except that a tensor --input (FILE.safetensors:NAME, FILE.gguf:NAME) is read on
  /// demand as it is written (formats/tensor_table.hpp), in bounded memory: for a caller that
  /// only writes the table (generate to CSV, JSON or .npy), not one that analyses it.
  std::unique_ptr<Table> make_streamed_table(std::size_t max_axes = 2) const;
  const std::string& input() const { return input_; }

 private:
  struct Bound {
    std::string scheme;
    std::string name;
    CLI::Option* option;
    ParamValue* storage;
    std::string* text;      // the option's text when it takes a comma list, else null
    const ParamSpec* spec;  // in the registry, which lives as long as the program
    std::vector<CLI::Option*> choice_flags = {};  // --CHOICE flags, one per spec->choices entry
  };
  void add_choice_flags(CLI::App& sub, const ParamSpec& p, Bound& b);
  /// The --hf-config model's scheme and values, read once (its notes go to notes_ then).
  const models::ModelScheme* model_scheme(const std::string& chosen) const;
  CLI::App* parent_ = nullptr;
  std::string hf_config_;  // --hf-config given to the command (before or after the scheme)
  mutable std::optional<models::ModelScheme> model_;
  mutable bool notes_printed_ = false;
  bool allow_lists_ = false;
  std::string input_;
  InputFlags input_flags_;
  std::ostream* notes_ = nullptr;
  std::list<ParamValue> storage_;  // stable addresses for CLI11 to write into
  std::list<std::string> texts_;
  std::list<Bound> bound_;
};

}  // namespace posenc::cli
