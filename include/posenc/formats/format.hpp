#pragma once
/// Output formats: one table of {name, extension, description, binary} that feeds
/// CLI choices, help and docs.
#include <optional>
#include <string>
#include <vector>

namespace posenc::formats {

enum class Format { kCsv, kJson, kNpy, kPng, kText, kSvg, kAnsi };

struct FormatInfo {
  Format format;
  std::string name;         ///< "csv"
  std::string extension;    ///< ".csv"
  std::string description;  ///< one line
  bool binary;              ///< refused to a terminal
};

/// Every format posenc knows.
const std::vector<FormatInfo>& formats();
const FormatInfo& info(Format f);

/// The format named by `flag` if given, else from the extension of `path` (case-insensitive),
/// restricted to `allowed`. Stdout (`path` "-" or "") without --format is text when allowed
/// (reports), else csv (tables). Throws Error listing the choices when nothing decides, and
/// when --format contradicts a known extension of `path` (csv to .npy; .txt holds any text).
Format resolve_format(const std::optional<std::string>& flag, const std::string& path,
                      const std::vector<Format>& allowed);

/// Names of `allowed` ("csv", "json", ...).
std::vector<std::string> format_names(const std::vector<Format>& allowed);

/// Element type of binary output and of the values printed in text formats.
enum class DType { kFloat32, kFloat64 };
DType parse_dtype(const std::string& name);  ///< "float32" | "float64"; else Error naming --dtype
std::string dtype_name(DType dtype);         ///< "float32" | "float64"

}  // namespace posenc::formats
