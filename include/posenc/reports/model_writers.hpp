#pragma once
/// Writers for `posenc model`: the mechanisms of a model as text or JSON (keys in
/// docs/formats.md). They only format.
#include <ostream>

#include "posenc/models/model_report.hpp"

namespace posenc::reports {

/// One block per mechanism: kind, where, each value (lists longer than 8 shortened to their
/// first and last entries), notes and the command that shows it; then defaulted fields.
void write_model_text(const models::ModelReport& r, std::ostream& out);

/// JSON object: source, input, model_type, family, config_class, num_layers, layer_types[],
/// mechanisms[{kind, where, layer_type, layers[], values{}, notes[], command}], defaults[],
/// notes[]. Numbers shortest round-trip; non-finite numbers null.
void write_model_json(const models::ModelReport& r, std::ostream& out);

}  // namespace posenc::reports
