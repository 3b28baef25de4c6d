#include "posenc/formats/format.hpp"

#include <fmt/format.h>
#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <filesystem>

#include "posenc/error.hpp"
#include "posenc/text.hpp"

namespace posenc::formats {

const std::vector<FormatInfo>& formats() {
  static const std::vector<FormatInfo> table = {
      {Format::kCsv, "csv", ".csv", "comma-separated values with a header row (pandas, spreadsheets)", false},
      {Format::kJson, "json", ".json", "one JSON object: parameters echoed back, shape, nested data", false},
      {Format::kNpy, "npy", ".npy", "numpy's .npy array (float32 or float64, C order)", true},
      {Format::kPng, "png", ".png", "PNG image (heatmap or plot)", true},
      {Format::kText, "text", ".txt", "plain text report", false},
      {Format::kSvg, "svg", ".svg", "SVG vector figure, text as text (for papers)", false},
      {Format::kAnsi, "ansi", "", "figure preview in the terminal (24-bit colour half blocks)", false},
  };
  return table;
}

const FormatInfo& info(Format f) {
  for (const auto& i : formats()) {
    if (i.format == f) return i;
  }
  throw Error("unknown output format");  // unreachable: every enumerator is in the table
}

std::vector<std::string> format_names(const std::vector<Format>& allowed) {
  std::vector<std::string> names;
  for (const auto f : allowed) names.push_back(info(f).name);
  return names;
}

namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

bool is_allowed(Format f, const std::vector<Format>& allowed) {
  return std::find(allowed.begin(), allowed.end(), f) != allowed.end();
}

/// `f` (from --format) unless `path` has the extension of another format: `--format csv -o
/// keep.npy` would put CSV text in a file every tool reads as .npy. A .txt name or an unknown
/// extension holds anything.
Format check_extension(Format f, const std::string& path) {
  if (path.empty() || path == "-") return f;
  const std::string ext = lower(std::filesystem::path(path).extension().string());
  for (const auto& i : formats()) {
    if (ext.empty() || i.extension != ext || i.format == f || i.format == Format::kText) continue;
    throw Error(fmt::format("--format {} contradicts -o '{}' ({} is the extension of {}): drop --format or rename the file",
                            info(f).name, path, i.extension, i.name));
  }
  return f;
}

}  // namespace

Format resolve_format(const std::optional<std::string>& flag, const std::string& path,
                      const std::vector<Format>& allowed) {
  const auto names = format_names(allowed);
  const std::string choices = join_choices(names);
  if (flag) {
    const std::string name = lower(*flag);
    for (const auto f : allowed) {
      if (info(f).name == name) return check_extension(f, path);
    }
    throw Error(fmt::format("--format must be {} (got '{}'){}", choices, *flag, did_you_mean(name, names)));
  }
  const std::string ext = lower(std::filesystem::path(path).extension().string());
  // A device, FIFO or socket named without an extension (/dev/null, /dev/stdout, bash's
  // >(cmd) as /dev/fd/63) is a stream like stdout, and gets stdout's default.
  struct stat st {};
  const bool stream = !path.empty() && path != "-" && ext.empty() && ::stat(path.c_str(), &st) == 0 &&
                      !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
  if (path.empty() || path == "-" || stream) {
    // stdout: the text the command has (a report), else CSV, so that `posenc generate ... |
    // head` works without --format.
    for (const auto f : {Format::kText, Format::kCsv})
      if (is_allowed(f, allowed)) return f;
    throw Error(fmt::format("-o {}: cannot tell the output format of {}: give --format {}", stream ? fmt::format("'{}'", path) : "-",
                            stream ? "a device or pipe" : "stdout", choices));
  }
  for (const auto& i : formats()) {
    if (ext.empty() || i.extension != ext) continue;
    if (is_allowed(i.format, allowed)) return i.format;
    throw Error(fmt::format("-o '{}': this command cannot write {}: give --format {} or another extension",
                            path, i.name, choices));
  }
  std::vector<std::string> exts;
  for (const auto f : allowed)
    if (!info(f).extension.empty()) exts.push_back(info(f).extension);  // ansi has none
  throw Error(fmt::format("-o '{}': cannot tell the output format from the extension: use {} or give --format {}",
                          path, join_choices(exts), choices));
}

DType parse_dtype(const std::string& name) {
  if (name == "float32") return DType::kFloat32;
  if (name == "float64") return DType::kFloat64;
  throw Error(fmt::format("--dtype must be float32 or float64 (got '{}')", name));
}

std::string dtype_name(DType dtype) { return dtype == DType::kFloat32 ? "float32" : "float64"; }

}  // namespace posenc::formats
