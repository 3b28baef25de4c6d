#pragma once
// The options that say how `--input FILE` is read (--input-format, --delimiter, --index-col,
// --no-index, --npz-key, --input-dtype), shared by every command that takes --input.
#include <CLI/CLI.hpp>

#include <string>
#include <vector>

#include "posenc/formats/readers.hpp"

namespace posenc::cli {

struct InputFlags {
  std::string delimiter;  ///< as typed: a character, "tab" or "\t"
  bool no_index = false;
  formats::ReadOptions read;   ///< format, index_column, npz_key, raw2 bound directly
  std::vector<CLI::Option*> options;  ///< every option bound, to tell whether one was given
};

/// Adds the reading options to `cmd` (help group "Reading --input").
void bind_input_options(CLI::App& cmd, InputFlags& flags);
/// Throws Error when a reading option was given without --input.
void check_input_options(const InputFlags& flags, bool have_input);

/// The ReadOptions the flags say, for arrays of up to `max_axes` axes.
formats::ReadOptions read_options(const InputFlags& flags, std::size_t max_axes);

}  // namespace posenc::cli
