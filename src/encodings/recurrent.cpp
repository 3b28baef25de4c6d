#include "posenc/encodings/recurrent.hpp"

#include <fmt/format.h>

#include <cmath>
#include <vector>

#include "posenc/encodings/schemes.hpp"
#include "posenc/error.hpp"

namespace posenc::encodings {
namespace {

void check_recurrent(std::int64_t len, std::int64_t dim, double base) {
  if (dim % 2 != 0) throw Error(fmt::format("--dim must be even for recurrent (got {})", dim));
  check_sinusoidal(dim, base, SinusoidalConvention::kPaper);
  if (len > kMaxRecurrentValues / dim)
    throw Error(fmt::format("--len {} with --dim {} is too large for recurrent, which keeps the table in memory: "
                            "len*dim must be at most {}",
                            len, dim, kMaxRecurrentValues));
}

}  // namespace

RecurrentResult recurrent_table(std::int64_t len, std::int64_t dim, double base, SinusoidalLayout layout) {
  check_recurrent(len, dim, base);
  const auto w = sinusoidal_frequencies(dim, base, SinusoidalConvention::kPaper);
  const std::size_t pairs = w.size();
  std::vector<double> cos_w(pairs), sin_w(pairs), s(pairs, 0.0), c(pairs, 1.0);
  for (std::size_t k = 0; k < pairs; ++k) {
    cos_w[k] = std::cos(w[k]);
    sin_w[k] = std::sin(w[k]);
  }

  RecurrentResult res{Matrix(static_cast<std::size_t>(len), static_cast<std::size_t>(dim)), 0.0, 0};
  std::vector<double> exact(static_cast<std::size_t>(dim));
  for (std::size_t t = 0; t < res.table.rows(); ++t) {
    auto row = res.table.row(t);
    for (std::size_t k = 0; k < pairs; ++k) {
      row[layout == SinusoidalLayout::kInterleaved ? 2 * k : k] = s[k];
      row[layout == SinusoidalLayout::kInterleaved ? 2 * k + 1 : pairs + k] = c[k];
      // One step of T: rotate (s, c) by w_k.
      const double s_next = cos_w[k] * s[k] + sin_w[k] * c[k];
      const double c_next = -sin_w[k] * s[k] + cos_w[k] * c[k];
      s[k] = s_next;
      c[k] = c_next;
    }
    sinusoidal_row(static_cast<double>(t), w, layout, exact);
    for (std::size_t i = 0; i < row.size(); ++i) {
      const double drift = std::abs(row[i] - exact[i]);
      if (drift > res.max_drift) {
        res.max_drift = drift;
        res.max_drift_position = t;
      }
    }
  }
  return res;
}

SchemeInfo recurrent_scheme() {
  return {"recurrent", "p_{t+1} = T p_t: iterating the one-step rotation reproduces sinusoidal, with drift",
          "p_0 = (0,1,0,1,...), (s,c)_{t+1} = [[cos w_k, sin w_k], [-sin w_k, cos w_k]] (s,c)_t",
          {len_param(), dim_param(128),
           {"base", "frequency base: w_k = base^(-2k/d) (the paper's frequencies)", 10000.0, {}, 1.0, 1e300},
           layout_param()},
          [](const ParamMap& p) -> std::unique_ptr<Table> {
            const auto len = p.integer("len");
            const auto dim = p.integer("dim");
            const double base = p.number("base");
            const auto layout = parse_layout(p.text("layout"), SinusoidalConvention::kPaper);
            auto res = recurrent_table(len, dim, base, layout);
            auto info = make_info("recurrent", p, {static_cast<std::size_t>(len), static_cast<std::size_t>(dim)});
            info.column_names = sinusoidal_column_names(dim, static_cast<std::size_t>(dim / 2), layout);
            info.results.emplace_back("layout", layout_name(layout));
            info.results.emplace_back("max_drift", res.max_drift);
            info.results.emplace_back("max_drift_position", static_cast<std::int64_t>(res.max_drift_position));
            info.title = fmt::format("recurrent ({}), base {}, N={}, D={}, max drift {:.3g} at t={}",
                                     layout_name(layout), base, len, dim, res.max_drift, res.max_drift_position);
            return std::make_unique<MatrixTable>(std::move(info), std::move(res.table));
          }};
}

}  // namespace posenc::encodings
