#pragma once
/// What every encoding scheme declares: name, summary, formula, parameters and factory
/// (SchemeInfo), and the parameters many schemes share. The table of all of them is
/// posenc/schemes/registry.hpp.
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "posenc/params.hpp"
#include "posenc/table.hpp"

namespace posenc::encodings {


struct SchemeInfo {
  std::string name;      ///< "sinusoidal"
  std::string summary;   ///< one line for help and `posenc list`
  std::string formula;   ///< one-line formula
  std::vector<ParamSpec> params;
  /// Builds the table from parameter values; throws Error for values the user can fix.
  std::function<std::unique_ptr<Table>(const ParamMap&)> make;
  /// Values that follow from the default parameters, shown by `posenc list` (text: one line
  /// "label: value"; JSON: "key": value), e.g. alibi's slopes for the default head count.
  struct Derived {
    std::string key;
    std::string label;
    ParamValue value;
  };
  std::vector<Derived> derived = {};
  /// Values the analyses (decay, similarity, project, check) use for parameters the user did
  /// not give, e.g. mrope's table "rotated" (rows whose dot products are attention scores)
  /// and precision "f64".
  std::vector<std::pair<std::string, ParamValue>> analysis_defaults = {};
};

/// A TableInfo echoing every value of `p`, with the given shape and axis names.
TableInfo make_info(const std::string& scheme, const ParamMap& p, std::vector<std::size_t> shape,
                    std::vector<std::string> axis_names = {"position", "dim"});

/// Parameters shared by many schemes.
ParamSpec len_param();                         ///< --len N: number of positions
ParamSpec dim_param(std::int64_t default_dim);  ///< --dim D: width of each position vector
/// --dim D of a scheme whose D is split in pairs (at least 2; evenness is the scheme's check),
/// with the scheme's own `help`.
ParamSpec pair_dim_param(std::int64_t default_dim, std::string help);

/// Limits that keep a request sane before memory is touched.
inline constexpr std::int64_t kMaxLen = std::int64_t{1} << 31;
inline constexpr std::int64_t kMaxDim = 65536;

}  // namespace posenc::encodings
