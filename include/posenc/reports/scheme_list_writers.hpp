#pragma once
/// `posenc list --format json`: every scheme with its parameters, defaults, choices and formula,
/// and the RoPE conventions (--convention) with the engine and release each reproduces.
#include <ostream>

namespace posenc::reports {

/// {"schemes": [{name, summary, formula, params: [{name, default (null: none), help, choices?,
/// flags?}], and derived values such as alibi's "slopes"}], "rope_conventions": [{name, engine,
/// version, description}]}, indented by 2.
void write_scheme_list_json(std::ostream& out);

}  // namespace posenc::reports
