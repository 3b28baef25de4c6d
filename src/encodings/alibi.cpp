#include "posenc/encodings/alibi.hpp"

#include <fmt/format.h>

#include <cmath>
#include <limits>

#include "posenc/encodings/schemes.hpp"
#include "posenc/error.hpp"
#include "posenc/toeplitz.hpp"

namespace posenc::encodings {

AlibiForm parse_alibi_form(const std::string& name) {
  if (name == "symmetric") return AlibiForm::kSymmetric;
  if (name == "causal") return AlibiForm::kCausal;
  throw Error(fmt::format("--form must be symmetric or causal (got '{}')", name));
}

std::vector<double> alibi_slopes(std::int64_t heads) {
  if (heads < 1) throw Error(fmt::format("--heads must be at least 1 (got {})", heads));
  std::int64_t p = 1;  // the largest power of two <= heads
  while (p * 2 <= heads) p *= 2;
  std::vector<double> slopes;
  slopes.reserve(static_cast<std::size_t>(heads));
  const double pd = static_cast<double>(p);
  for (std::int64_t h = 0; h < p; ++h) slopes.push_back(std::exp2(-8.0 * static_cast<double>(h + 1) / pd));
  // slopes(2P)[0::2] are 2^(−8(2e+1)/(2P)) = 2^(−4(2e+1)/P).
  for (std::int64_t e = 0; e < heads - p; ++e) slopes.push_back(std::exp2(-4.0 * static_cast<double>(2 * e + 1) / pd));
  return slopes;
}

double alibi_bias(double m, std::int64_t i, std::int64_t j, AlibiForm form) {
  if (form == AlibiForm::kSymmetric) return 0.0 - m * static_cast<double>(i > j ? i - j : j - i);  // 0 - x: no "-0" on the diagonal
  if (j > i) return -std::numeric_limits<double>::infinity();
  return m * static_cast<double>(j);
}

Matrix alibi_matrix(std::int64_t len, double slope, AlibiForm form) {
  const auto n = static_cast<std::size_t>(len);
  Matrix m(n, n);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j)
      m(i, j) = alibi_bias(slope, static_cast<std::int64_t>(i), static_cast<std::int64_t>(j), form);
  return m;
}

namespace {
constexpr std::int64_t kDefaultHeads = 8;
}  // namespace

SchemeInfo alibi_scheme() {
  return {"alibi",
          "ALiBi per-head linear attention biases (Press et al. 2021); slopes for any head count",
          "symmetric: b[h,i,j] = -m_h*|i-j|; causal: m_h*j (j<=i), -inf (j>i); "
          "m_h = 2^(-8(h+1)/H) for H a power of two, else slopes(P) ++ every other of slopes(2P), P = 2^floor(log2 H)",
          {len_param(),
           {"heads", "number of attention heads H", std::int64_t{kDefaultHeads}, {}, 1, 65536},
           {"head", "one head h (0-based) as an N x N matrix; -1 = all heads, H x N x N", std::int64_t{-1}, {}, -1, 65535},
           {"form", "symmetric: -m|i-j|; causal: the paper's m*j with masked (-inf) future keys",
            std::string("symmetric"), {"symmetric", "causal"}}},
          [](const ParamMap& p) -> std::unique_ptr<Table> {
            const std::int64_t heads = p.integer("heads");
            const std::int64_t head = p.integer("head");
            if (head >= heads)
              throw Error(fmt::format("--head must be below --heads {} (got {}; heads are 0-based)", heads, head));
            const auto slopes = alibi_slopes(heads);
            const AlibiForm form = parse_alibi_form(p.text("form"));
            const auto n = static_cast<std::size_t>(p.integer("len"));
            std::vector<std::size_t> shape = {n, n};
            std::vector<std::string> axes = {"i", "j"};
            if (head < 0) {
              shape.insert(shape.begin(), slopes.size());
              axes.insert(axes.begin(), "head");
            }
            TableInfo info = make_info("alibi", p, shape, axes);
            info.params.emplace_back("slopes", slopes);   // the place: JSON "params"
            info.results.emplace_back("slopes", slopes);  // kept: figures title each head from it
            info.value_name = "bias";
            info.title = head < 0 ? fmt::format("ALiBi {} biases, {} heads", p.text("form"), heads)
                                  : fmt::format("ALiBi {} bias, head {} of {}, slope {}", p.text("form"), head, heads,
                                                slopes[static_cast<std::size_t>(head)]);
            for (std::size_t j = 0; j < n && n <= 100000; ++j) info.column_names.push_back(fmt::format("j{}", j));
            const std::size_t first_head = head < 0 ? 0 : static_cast<std::size_t>(head);
            if (form == AlibiForm::kSymmetric)  // −m|j − i|: a function of j − i, so figures reduce it from 2N values
              return toeplitz_function_table(
                  std::move(info), [slopes, first_head, form](std::size_t s, std::int64_t d0, std::span<double> out) {
                    const double m = slopes[first_head + s];
                    for (std::size_t k = 0; k < out.size(); ++k)
                      out[k] = alibi_bias(m, 0, d0 + static_cast<std::int64_t>(k), form);
                  });
            return std::make_unique<RowFunctionTable>(
                std::move(info), [slopes, first_head, n, form](std::size_t r, std::span<double> out) {
                  const double m = slopes[first_head + r / n];
                  const auto i = static_cast<std::int64_t>(r % n);
                  for (std::size_t j = 0; j < out.size(); ++j) out[j] = alibi_bias(m, i, static_cast<std::int64_t>(j), form);
                });
          },
          {{"slopes", fmt::format("slopes of the default --heads {}", kDefaultHeads), alibi_slopes(kDefaultHeads)}}};
}

}  // namespace posenc::encodings
