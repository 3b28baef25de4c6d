#pragma once
/// The table of every encoding scheme: name, summary, formula, parameters and
/// factory. It feeds the command line (one sub-command per scheme), `posenc list`
/// and the docs. It sits above models/: `--hf-config` on a scheme reads a model.
#include <memory>
#include <string_view>
#include <vector>

#include "posenc/encodings/scheme.hpp"

namespace posenc::schemes {

using encodings::SchemeInfo;

/// Every scheme, in the order `posenc list` shows them.
const std::vector<SchemeInfo>& schemes();

/// The scheme called `name`; throws Error "unknown scheme 'x', did you mean 'y'?".
const SchemeInfo& find_scheme(std::string_view name);

/// Builds a table from a scheme name and values (missing values take defaults).
std::unique_ptr<Table> make_table(std::string_view scheme, const ParamMap& values);

}  // namespace posenc::schemes
