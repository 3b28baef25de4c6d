#include "input_options.hpp"

#include <fmt/format.h>

#include "posenc/error.hpp"

namespace posenc::cli {

namespace {

/// --delimiter: one character, or tab / space by name ("\t" as typed in a shell also works).
CLI::Validator delimiter_check() {
  return CLI::Validator(
      [](std::string& s) -> std::string {
        if (s == "tab" || s == "\\t") s = "\t";
        if (s == "space") s = " ";
        const bool bad = s.size() != 1 || std::string_view("\"\n\r.+-0123456789").find(s[0]) != std::string_view::npos;
        if (bad)
          return fmt::format("--delimiter must be one character other than a digit, '.', '+', '-', a quote or a line "
                             "end, or tab or space (got '{}')",
                             s);
        return {};
      },
      "", "delimiter");
}

}  // namespace

void bind_input_options(CLI::App& cmd, InputFlags& flags) {
  const std::string group = "Reading --input";
  auto& opts = flags.options;
  opts.push_back(cmd.add_option("--input-format", flags.read.format,
                                "what --input holds (default: its extension; a name without one, - (stdin), "
                                "/dev/stdin or <(cmd) by its first bytes: numpy's magic, a zip's, else CSV text)")
                     ->check(CLI::IsMember({"csv", "npy", "npz"})));
  opts.push_back(cmd.add_option("--delimiter", flags.delimiter,
                                "CSV cell separator: one character, tab or space (default: ',', tab for .tsv); "
                                "e.g. --delimiter ';'")
                     ->type_name("CHAR")
                     ->transform(delimiter_check()));
  opts.push_back(cmd.add_option("--index-col", flags.read.index_column,
                                "CSV: the column of position labels, not data: a header name, or a 0-based number as "
                                "pandas' index_col (default: pandas' unnamed index, and a first column named "
                                "position, token, i, t, offset or index holding consecutive integers)")
                     ->type_name("NAME|N"));
  opts.push_back(cmd.add_flag("--no-index", flags.no_index, "CSV: every column is data (no index column recognised)")
                     ->excludes(opts.back()));
  opts.push_back(cmd.add_option("--npz-key", flags.read.npz_key,
                                ".npz: the array to read, as np.load(f)[NAME] (default: the first)")
                     ->type_name("NAME"));
  opts.push_back(cmd.add_option("--input-dtype", flags.read.raw2,
                                ".npy: what 2-byte raw values are (dtype '<V2': np.save writes ml_dtypes' bfloat16 so)")
                     ->check(CLI::IsMember({"bfloat16", "float16"})));
  opts.push_back(cmd.add_option("--rows", flags.read.rows,
                                "the rows (positions) to analyse, as a Python slice: A:B keeps rows A … B-1, A: from A, "
                                ":B the first B; negative bounds count from the end (default: every row)")
                     ->type_name("A:B"));
  for (CLI::Option* o : opts) o->group(group);
}

void check_input_options(const InputFlags& flags, bool have_input) {
  if (have_input) return;
  for (const CLI::Option* o : flags.options)
    if (o->count() > 0)
      throw Error(fmt::format("{} says how to read an --input file: give --input FILE, or leave it out",
                              o->get_name()));
}

formats::ReadOptions read_options(const InputFlags& flags, std::size_t max_axes) {
  formats::ReadOptions o = flags.read;
  if (!flags.delimiter.empty()) o.delimiter = flags.delimiter[0];
  if (flags.no_index) o.index = formats::ReadOptions::Index::kNone;
  if (!o.index_column.empty()) o.index = formats::ReadOptions::Index::kColumn;
  o.max_axes = max_axes;
  return o;
}

}  // namespace posenc::cli
