#include "head_bias_table.hpp"

#include <fmt/format.h>

#include <limits>

#include "posenc/error.hpp"

namespace posenc::encodings {

ParamSpec bias_head_param() {
  return {"head", "one head h (0-based) as an N x N matrix; -1 = all heads, H x N x N", std::int64_t{-1}, {}, -1, 65535};
}

ParamSpec bias_form_param() {
  return {"form", "symmetric: the bias of |i-j| everywhere; causal: later keys (j > i) masked with -inf",
          std::string("symmetric"), {"symmetric", "causal"}};
}

std::unique_ptr<Table> head_bias_table(TableInfo info, std::int64_t heads, std::int64_t head, std::int64_t len,
                                       bool causal, std::function<double(std::size_t, std::int64_t)> bias) {
  if (head >= heads)
    throw Error(fmt::format("--head must be below the {} heads (got {}; heads are 0-based)", heads, head));
  const auto n = static_cast<std::size_t>(len);
  info.shape = {n, n};
  info.axis_names = {"i", "j"};
  if (head < 0) {
    info.shape.insert(info.shape.begin(), static_cast<std::size_t>(heads));
    info.axis_names.insert(info.axis_names.begin(), "head");
  }
  for (std::size_t j = 0; j < n && n <= 100000; ++j) info.column_names.push_back(fmt::format("j{}", j));
  const std::size_t first = head < 0 ? 0 : static_cast<std::size_t>(head);
  return std::make_unique<RowFunctionTable>(std::move(info), [bias = std::move(bias), first, n, causal](
                                                                  std::size_t r, std::span<double> out) {
    const std::size_t h = first + r / n;
    const auto i = static_cast<std::int64_t>(r % n);
    for (std::size_t jj = 0; jj < out.size(); ++jj) {
      const auto j = static_cast<std::int64_t>(jj);
      out[jj] = causal && j > i ? -std::numeric_limits<double>::infinity() : bias(h, i > j ? i - j : j - i);
    }
  });
}

}  // namespace posenc::encodings
