#pragma once
// The N x N bias tables of head-wise distance biases (kerple, sandwich): all heads as
// H x N x N (axes head, i, j) or one head as N x N, symmetric in |i - j| or causal (later
// keys masked with -inf).
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "posenc/encodings/scheme.hpp"

namespace posenc::encodings {

/// ParamSpecs shared by the head-wise bias schemes.
ParamSpec bias_head_param();  ///< --head h, -1 = all heads
ParamSpec bias_form_param();  ///< --form symmetric|causal

/// The table of `bias(h, n)` (head h 0-based, distance n = |i - j| >= 0) for `heads` heads:
/// all of them (`head` -1) or one, causal entries j > i masked with -inf. `info` gets its shape,
/// axes and column names here. Throws Error naming --head when head >= heads.
std::unique_ptr<Table> head_bias_table(TableInfo info, std::int64_t heads, std::int64_t head, std::int64_t len,
                                       bool causal, std::function<double(std::size_t, std::int64_t)> bias);

}  // namespace posenc::encodings
