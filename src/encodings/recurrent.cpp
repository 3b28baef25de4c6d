#include "posenc/encodings/recurrent.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "posenc/encodings/schemes.hpp"
#include "posenc/error.hpp"
#include "posenc/parallel.hpp"

namespace posenc::encodings {
namespace {

void check_recurrent(std::int64_t len, std::int64_t dim, double base) {
  if (dim % 2 != 0) throw Error(fmt::format("--dim must be even for recurrent (got {})", dim));
  check_sinusoidal(dim, base, SinusoidalConvention::kPaper);
  if (len > kMaxRecurrentValues / dim)
    throw Error(fmt::format("--len {} with --dim {} is too large for recurrent, which computes every step in "
                            "sequence before writing: len*dim must be at most {}",
                            len, dim, kMaxRecurrentValues));
}

}  // namespace

RecurrentTable::RecurrentTable(TableInfo info, std::int64_t len, std::int64_t dim, double base, SinusoidalLayout layout)
    : Table(std::move(info)), pairs_(static_cast<std::size_t>(dim / 2)), layout_(layout) {
  check_recurrent(len, dim, base);
  const auto w = sinusoidal_frequencies(dim, base, SinusoidalConvention::kPaper);
  cos_w_.resize(pairs_);
  sin_w_.resize(pairs_);
  for (std::size_t k = 0; k < pairs_; ++k) {
    cos_w_[k] = std::cos(w[k]);
    sin_w_[k] = std::sin(w[k]);
  }
  const auto rows = static_cast<std::size_t>(len);
  const std::size_t state_bytes = 2 * pairs_ * sizeof(double);
  every_ = std::max<std::size_t>(256, (rows * state_bytes + kRecurrentCheckpointBytes - 1) / kRecurrentCheckpointBytes);
  saved_.reserve((rows + every_ - 1) / every_ * 2 * pairs_);

  std::vector<double> s(pairs_, 0.0), c(pairs_, 1.0), row(2 * pairs_), exact(2 * pairs_);
  for (std::size_t t = 0; t < rows; ++t) {
    if (t % every_ == 0) {
      saved_.insert(saved_.end(), s.begin(), s.end());
      saved_.insert(saved_.end(), c.begin(), c.end());
      report_progress(t, rows);
    }
    put(s, c, row);
    sinusoidal_row(static_cast<double>(t), w, layout, exact);
    for (std::size_t i = 0; i < row.size(); ++i) {
      const double drift = std::abs(row[i] - exact[i]);
      if (drift > max_drift_) {
        max_drift_ = drift;
        max_drift_position_ = t;
      }
    }
    step(s, c);
  }
  report_progress(rows, rows);  // this pass is done: writing the table is a new piece of work
}

void RecurrentTable::put(std::span<const double> s, std::span<const double> c, std::span<double> row) const {
  const bool interleaved = layout_ == SinusoidalLayout::kInterleaved;
  for (std::size_t k = 0; k < pairs_; ++k) {
    row[interleaved ? 2 * k : k] = s[k];
    row[interleaved ? 2 * k + 1 : pairs_ + k] = c[k];
  }
}

void RecurrentTable::step(std::span<double> s, std::span<double> c) const {
  for (std::size_t k = 0; k < pairs_; ++k) {
    const double s_next = cos_w_[k] * s[k] + sin_w_[k] * c[k];
    const double c_next = -sin_w_[k] * s[k] + cos_w_[k] * c[k];
    s[k] = s_next;
    c[k] = c_next;
  }
}

void RecurrentTable::fill(std::size_t first, std::size_t count, std::span<double> out) const {
  const std::size_t cols = 2 * pairs_, checkpoint = first / every_;
  const double* state = saved_.data() + checkpoint * cols;
  std::vector<double> s(state, state + pairs_), c(state + pairs_, state + cols);
  for (std::size_t t = checkpoint * every_; t < first + count; ++t) {
    if (t >= first) put(s, c, out.subspan((t - first) * cols, cols));
    step(s, c);
  }
}

RecurrentResult recurrent_table(std::int64_t len, std::int64_t dim, double base, SinusoidalLayout layout) {
  TableInfo info;
  info.shape = {static_cast<std::size_t>(std::max<std::int64_t>(len, 0)), static_cast<std::size_t>(std::max<std::int64_t>(dim, 0))};
  const RecurrentTable t(std::move(info), len, dim, base, layout);
  return {t.to_matrix(), t.max_drift(), t.max_drift_position()};
}

SchemeInfo recurrent_scheme() {
  return {"recurrent", "p_{t+1} = T p_t: iterating the one-step rotation reproduces sinusoidal, with drift",
          "p_0 = (0,1,0,1,...), (s,c)_{t+1} = [[cos w_k, sin w_k], [-sin w_k, cos w_k]] (s,c)_t",
          {len_param(), dim_param(128),
           {"base", "frequency base: w_k = base^(-2k/d) (the paper's frequencies)", 10000.0, {}, 1.0, 1e300},
           [] {
             auto layout = layout_param();  // recurrent has no --convention: auto is interleaved
             layout.help = "interleaved: sin at 2k, cos at 2k+1; split: all sines then all cosines; auto: interleaved";
             return layout;
           }()},
          [](const ParamMap& p) -> std::unique_ptr<Table> {
            const auto len = p.integer("len");
            const auto dim = p.integer("dim");
            const double base = p.number("base");
            const auto layout = parse_layout(p.text("layout"), SinusoidalConvention::kPaper);
            auto info = make_info("recurrent", p, {static_cast<std::size_t>(len), static_cast<std::size_t>(dim)});
            info.column_names = sinusoidal_column_names(dim, static_cast<std::size_t>(dim / 2), layout);
            auto table = std::make_unique<RecurrentTable>(std::move(info), len, dim, base, layout);
            TableInfo& out = table->info();
            out.results.emplace_back("layout", layout_name(layout));
            out.results.emplace_back("max_drift", table->max_drift());
            out.results.emplace_back("max_drift_position", static_cast<std::int64_t>(table->max_drift_position()));
            out.title = fmt::format("recurrent ({}), base {}, N={}, D={}, max drift {:.3g} at t={}", layout_name(layout),
                                    base, len, dim, table->max_drift(), table->max_drift_position());
            return table;
          }};
}

}  // namespace posenc::encodings
