#pragma once
/// The q/k row-order check (`posenc rope diff --weights`) as text and JSON.
#include <ostream>

#include "posenc/models/qk_order.hpp"

namespace posenc::reports {

/// The geometry, the expected map and why, one line per layer and tensor (found map, best mean
/// cosine, its largest relative row error, the runner-up), the findings and the GGUF-only checks.
void write_qk_order_text(const models::QkOrderReport& r, std::ostream& out);

/// JSON: `ok`, geometry, `expected_map`, `tensors` (each with `layer`, `tensor`, `found_map`,
/// `scores`), `findings` (each with `layer`, `tensor`, `found_map`, `expected_map`, `bug`),
/// `checks`, `notes`.
void write_qk_order_json(const models::QkOrderReport& r, std::ostream& out);

}  // namespace posenc::reports
