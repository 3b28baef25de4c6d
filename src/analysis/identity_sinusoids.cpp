#include "posenc/analysis/identity_sinusoids.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "identity_util.hpp"
#include "posenc/parallel.hpp"

namespace posenc::analysis {
using namespace detail;

namespace {

struct DeviationBlock {
  std::vector<double> values;
  SinusoidDeviation part;
};

/// Folds `b` (rows after those of `a`) into `a`; ties keep the earlier row.
void merge(SinusoidDeviation& a, const SinusoidDeviation& b) {
  if (b.max_dev > a.max_dev) a.max_dev = b.max_dev, a.dev_row = b.dev_row;
  a.max_norm = std::max(a.max_norm, b.max_norm);
  if (b.max_abs > a.max_abs) a.max_abs = b.max_abs, a.abs_row = b.abs_row, a.abs_col = b.abs_col;
  a.finite = a.finite && b.finite;
}

double scale_of(const SinusoidDeviation& dev) { return dev.max_norm > 0.0 ? dev.max_norm : 1.0; }

std::string number(double v) { return fmt::format("{:.3g}", v); }

}  // namespace

SinusoidDeviation sinusoid_deviation(const Table& table, const Sinusoids& s) {
  const std::size_t cols = table.cols();
  std::vector<bool> paired(cols, false);
  for (std::size_t k = 0; k < s.omega.size(); ++k) paired[s.sin_col[k]] = paired[s.cos_col[k]] = true;
  SinusoidDeviation total;
  const std::size_t step = std::max<std::size_t>(1, (std::size_t{1} << 16) / std::max<std::size_t>(cols, 1));
  pipeline<DeviationBlock>(
      table.rows(), step,
      [&](std::size_t first, std::size_t n, DeviationBlock& b) {
        b.values.resize(n * cols);
        table.fill(first, n, b.values);
        b.part = SinusoidDeviation{};
        for (std::size_t r = 0; r < n; ++r) {
          const double* row = &b.values[r * cols];
          const long double p = static_cast<long double>(s.first_position) + static_cast<long double>(first + r);
          long double dev2 = 0, norm2 = 0;
          for (std::size_t c = 0; c < cols; ++c) {
            const double v = row[c];
            if (!std::isfinite(v)) b.part.finite = false;
            if (std::abs(v) > b.part.max_abs) b.part.max_abs = std::abs(v), b.part.abs_row = first + r, b.part.abs_col = c;
            norm2 += static_cast<long double>(v) * v;
            if (!paired[c]) dev2 += static_cast<long double>(v) * v;  // the exact row is 0 there
          }
          for (std::size_t k = 0; k < s.omega.size(); ++k) {
            const long double a = static_cast<long double>(s.omega[k]) * p;
            const long double es = row[s.sin_col[k]] - std::sin(a), ec = row[s.cos_col[k]] - std::cos(a);
            dev2 += es * es + ec * ec;
          }
          const auto dev = static_cast<double>(std::sqrt(dev2));
          if (dev > b.part.max_dev || std::isnan(dev)) b.part.max_dev = dev, b.part.dev_row = first + r;
          b.part.max_norm = std::max(b.part.max_norm, static_cast<double>(std::sqrt(norm2)));
        }
      },
      [&](std::size_t, std::size_t, DeviationBlock& b) { merge(total, b.part); });
  return total;
}

std::optional<IdentityResult> closed_shift_linear(const SinusoidDeviation& dev, std::size_t rows, double tol) {
  IdentityResult r = start("shift-linear", tol, "upper bound of max_t |T_delta PE_t - PE_{t+delta}| / max_t |PE_t|");
  r.max_error = 2.0 * dev.max_dev / scale_of(dev);
  if (!(r.max_error <= tol)) return std::nullopt;
  r.worst = {{"t", i64(dev.dev_row)}};
  r.note = fmt::format("closed form, every delta and t of {} positions: the table is within {} of the exact "
                       "sinusoids (at t = {}), whose block rotations are exact, so the error is at most 2x that",
                       rows, number(dev.max_dev), dev.dev_row);
  finish(r);
  return r;
}

std::optional<IdentityResult> closed_dot_identity(const char* name, const SinusoidDeviation& dev, const Sinusoids& s,
                                                  std::size_t rows, double tol) {
  const bool symmetric = std::string_view(name) == "dot-symmetric";
  IdentityResult r = start(name, tol,
                           symmetric ? "upper bound of max |PE_t . PE_{t+delta} - PE_t . PE_{t-delta}| / max_t |PE_t|^2"
                                     : "upper bound of max |PE_t . PE_{t+delta} - PE_0 . PE_delta| / max_t |PE_t|^2");
  const double scale = scale_of(dev);
  r.max_error = 2.0 * dev.max_dev * (dev.max_norm + std::sqrt(static_cast<double>(s.omega.size()))) / (scale * scale);
  if (!(r.max_error <= tol)) return std::nullopt;
  if (symmetric && rows < 3) return std::nullopt;  // the direct check says why it cannot decide
  r.worst = {{"t", i64(dev.dev_row)}};
  r.note = fmt::format("closed form, every delta and t of {} positions: exact sinusoid rows give sum_k cos(w_k delta) "
                       "for every t; the table is within {} of them (at t = {})",
                       rows, number(dev.max_dev), dev.dev_row);
  finish(r);
  return r;
}

std::optional<IdentityResult> closed_unique(const Table& table, const Sinusoids& s, const SinusoidDeviation& dev,
                                            double min_distance) {
  const std::size_t n = table.rows();
  if (n < 2) return std::nullopt;
  // Closest offset of the exact rows: min over delta of sum_k sin^2(w_k delta / 2) (|x_i - x_j|^2 / 4).
  struct Best {
    double value = std::numeric_limits<double>::infinity();
    std::size_t delta = 1;
  };
  Best best;
  constexpr std::size_t kStep = 4096;
  pipeline<Best>(
      n - 1, kStep,
      [&](std::size_t first, std::size_t count, Best& b) {
        b = Best{};
        for (std::size_t i = 0; i < count; ++i) {
          const double delta = static_cast<double>(first + i + 1);
          double sum = 0.0;
          for (double w : s.omega) {
            const double h = std::sin(0.5 * w * delta);
            sum += h * h;
          }
          if (sum < b.value) b.value = sum, b.delta = first + i + 1;
        }
      },
      [&](std::size_t, std::size_t, Best& b) {
        if (b.value < best.value) best = b;
      });
  const double exact = 2.0 * std::sqrt(best.value);
  const double scale = scale_of(dev), threshold = min_distance * scale;
  // The table's own distance at that offset, positions 0 and delta*.
  const std::size_t cols = table.cols();
  std::vector<double> a(cols), b(cols);
  table.fill(0, 1, a);
  table.fill(best.delta, 1, b);
  double d2 = 0.0;
  for (std::size_t c = 0; c < cols; ++c) d2 += (a[c] - b[c]) * (a[c] - b[c]);
  const double measured = std::sqrt(d2);
  IdentityResult r = start("unique", min_distance, "smallest |PE_i - PE_j| / max_t |PE_t| (must exceed the tolerance)");
  r.max_error = measured / scale;
  r.worst = {{"i", 0}, {"j", i64(best.delta)}};
  if (exact - 2.0 * dev.max_dev > threshold) {
    r.holds = true;
  } else if (measured <= threshold) {
    r.holds = false;
  } else {
    return std::nullopt;
  }
  r.note = fmt::format("closed form over the {} offsets: |x_i - x_j|^2 = 4 sum_k sin^2(w_k (j - i)/2); closest "
                       "positions 0 and {} (the table is within {} of the exact sinusoids)",
                       n - 1, best.delta, number(dev.max_dev));
  return r;
}

IdentityResult closed_bounded(const SinusoidDeviation& dev, std::size_t rows, std::size_t cols, double bound) {
  IdentityResult r = start("bounded", bound, "largest |PE[t, k]| (must not exceed the bound)");
  r.max_error = dev.max_abs;
  r.worst = {{"t", i64(dev.abs_row)}, {"dim", i64(dev.abs_col)}};
  r.note = fmt::format("bound {} over {} x {} values", bound, rows, cols);
  finish(r);
  return r;
}

}  // namespace posenc::analysis
