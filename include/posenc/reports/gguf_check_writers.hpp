#pragma once
/// Writers of `posenc rope diff` with a .gguf side (gguf_check.hpp): one line per finding.
#include <ostream>
#include <string>

#include "posenc/models/gguf_check.hpp"

namespace posenc::reports {

/// Text: the findings (`error`/`note`, what, where, expected, found, cause), then the effect
/// at each context, then the verdict.
void write_gguf_check_text(const models::GgufCheck& k, const std::string& a, const std::string& b, std::ostream& out);

/// JSON: {"a", "b", "expected_architecture", "tol", "ok", "findings": [...], "effects": [...]}.
void write_gguf_check_json(const models::GgufCheck& k, const std::string& a, const std::string& b, std::ostream& out);

}  // namespace posenc::reports
