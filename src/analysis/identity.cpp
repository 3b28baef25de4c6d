#include "posenc/analysis/identity.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "posenc/analysis/linalg.hpp"
#include "posenc/parallel.hpp"
#include "identity_util.hpp"

namespace posenc::analysis {
using namespace detail;

namespace {

double max_norm2(const Matrix& pe) {
  double m = 0.0;
  for (std::size_t t = 0; t < pe.rows(); ++t) m = std::max(m, dot(pe.row(t), pe.row(t)));
  return m > 0.0 ? m : 1.0;
}

}  // namespace

const std::vector<IdentityInfo>& identity_infos() {
  static const std::vector<IdentityInfo> all = {
      {"shift-linear", "one linear map T_delta takes PE_t to PE_{t+delta} for every t"},
      {"dot-shift-invariant", "PE_t . PE_{t+delta} depends only on delta"},
      {"dot-symmetric", "PE_t . PE_{t+delta} = PE_t . PE_{t-delta}"},
      {"unique", "no two positions share (nearly) the same vector"},
      {"bounded", "every value stays within +-bound"},
      {"rope-relative", "<R_m q, R_n k> = <q, R_{n-m} k> = Re sum q k* e^{i(m-n)theta}"},
      {"rope-norm", "|R_m x| = |x|"},
      {"rope-forms-agree", "matrix, complex and element-wise forms of RoPE give the same vector"},
      {"layouts-agree", "interleaved and half layouts agree up to the permutation 2i+s -> s*d/2+i"},
      {"bias-relative", "the bias depends only on j - i (up to a per-row constant)"},
      {"bias-symmetric", "b[i, j] = b[j, i]: with bias-relative, the bias depends on |i - j| only"},
      {"axial-relative", "<R_a q, R_b k> depends only on the offsets per axis (t, h, w; rows, columns)"},
      {"text-reduces-to-rope", "tokens with equal ids on every axis (text) rotate as 1-D RoPE"},
      {"xpos-relative", "<q~_m, k~_n> of xPos depends only on m - n (= sum zeta_i^((m-n)/gamma) x RoPE's pair score)"},
  };
  return all;
}

std::int64_t effective_max_offset(std::size_t rows, std::int64_t max_offset) {
  const std::int64_t limit = rows > 0 ? i64(rows) - 1 : 0;
  return std::min(limit, max_offset > 0 ? max_offset : kDefaultMaxOffset);
}

IdentityResult check_shift_linear(const Matrix& pe, const std::optional<Sinusoids>& known, std::int64_t max_offset,
                                  double tol) {
  IdentityResult r = start("shift-linear", tol, "|T_delta PE_t - PE_{t+delta}| relative to the table's scale");
  if (fail_on_non_finite(r, pe)) return r;
  const std::size_t n = pe.rows();
  if (known && known->dim == pe.cols()) {
    r.measure = "max_t |T_delta PE_t - PE_{t+delta}| / max_t |PE_t|";
    const double scale = std::sqrt(max_norm2(pe));
    const std::int64_t k_max = effective_max_offset(n, max_offset);
    std::vector<bool> paired(pe.cols(), false);
    for (std::size_t k = 0; k < known->omega.size(); ++k) paired[known->sin_col[k]] = paired[known->cos_col[k]] = true;
    std::vector<double> cos_d(known->omega.size()), sin_d(known->omega.size());
    for (std::int64_t d = 1; d <= k_max; ++d) {
      const auto du = static_cast<std::size_t>(d);
      for (std::size_t k = 0; k < known->omega.size(); ++k) {  // once per offset, not per (offset, t)
        cos_d[k] = std::cos(known->omega[k] * static_cast<double>(d));
        sin_d[k] = std::sin(known->omega[k] * static_cast<double>(d));
      }
      report_progress(du - 1, static_cast<std::size_t>(k_max));
      for (std::size_t t = 0; t + du < n; ++t) {
        const auto a = pe.row(t), b = pe.row(t + du);
        double err2 = 0.0;
        for (std::size_t k = 0; k < known->omega.size(); ++k) {
          const double c = cos_d[k];
          const double s = sin_d[k];
          const double sn = a[known->sin_col[k]], cs = a[known->cos_col[k]];
          const double es = sn * c + cs * s - b[known->sin_col[k]];
          const double ec = cs * c - sn * s - b[known->cos_col[k]];
          err2 += es * es + ec * ec;
        }
        for (std::size_t col = 0; col < pe.cols(); ++col)
          if (!paired[col]) err2 += (a[col] - b[col]) * (a[col] - b[col]);
        record(r, std::sqrt(err2) / scale, {{"t", i64(t)}, {"delta", d}});
      }
    }
    report_progress(static_cast<std::size_t>(k_max), static_cast<std::size_t>(k_max));
    r.note = fmt::format("known block rotation of {} frequency pairs, delta = 1..{}, every t", known->omega.size(), k_max);
    finish(r);
    return r;
  }
  r.measure = "||Y - T X|| / ||Y|| (least squares, delta = 1)";
  if (n < 3) {
    r.decided = false;
    r.note = "needs at least 3 positions";
    finish(r);
    return r;
  }
  Matrix x(n - 1, pe.cols()), y(n - 1, pe.cols());
  for (std::size_t t = 0; t + 1 < n; ++t) {
    std::copy(pe.row(t).begin(), pe.row(t).end(), x.row(t).begin());
    std::copy(pe.row(t + 1).begin(), pe.row(t + 1).end(), y.row(t).begin());
  }
  // T exists iff Y's columns lie in X's column space (Yᵀ = T Xᵀ).
  const ProjectionResidual res = projection_residual(x, y);
  if (res.rank >= n - 1) {
    r.decided = false;
    r.note = fmt::format(
        "the {} rows PE_0..PE_{} are linearly independent (rank {}), so some T fits any table exactly; "
        "it takes more positions than dimensions: at least {} rows",
        n - 1, n - 2, res.rank, pe.cols() + 2);
    finish(r);
    return r;
  }
  r.max_error = res.relative;
  const auto worst = std::max_element(res.row_residual.begin(), res.row_residual.end()) - res.row_residual.begin();
  r.worst = {{"t", worst}, {"delta", 1}};
  r.note = fmt::format("least-squares T over all {} pairs (PE_t, PE_t+1), rank {} of {} columns", n - 1, res.rank,
                       pe.cols());
  finish(r);
  return r;
}

IdentityResult check_dot_shift_invariant(const Matrix& pe, std::int64_t max_offset, double tol) {
  IdentityResult r = start("dot-shift-invariant", tol, "max |PE_t . PE_{t+delta} - PE_0 . PE_delta| / max_t |PE_t|^2");
  if (fail_on_non_finite(r, pe)) return r;
  const double scale = max_norm2(pe);
  const std::int64_t k_max = effective_max_offset(pe.rows(), max_offset);
  for (std::int64_t d = 0; d <= k_max; ++d) {
    const auto du = static_cast<std::size_t>(d);
    report_progress(du, static_cast<std::size_t>(k_max) + 1);
    const double ref = dot(pe.row(0), pe.row(du));
    for (std::size_t t = 1; t + du < pe.rows(); ++t)
      record(r, std::abs(dot(pe.row(t), pe.row(t + du)) - ref) / scale, {{"t", i64(t)}, {"delta", d}});
  }
  report_progress(static_cast<std::size_t>(k_max) + 1, static_cast<std::size_t>(k_max) + 1);
  r.note = fmt::format("delta = 0..{}, every t", k_max);
  finish(r);
  return r;
}

IdentityResult check_dot_symmetric(const Matrix& pe, std::int64_t max_offset, double tol) {
  IdentityResult r = start("dot-symmetric", tol, "max |PE_t . PE_{t+delta} - PE_t . PE_{t-delta}| / max_t |PE_t|^2");
  if (fail_on_non_finite(r, pe)) return r;
  const double scale = max_norm2(pe);
  // t − Δ >= 0 and t + Δ < N need N >= 2Δ + 1.
  const std::int64_t k_max = std::min(effective_max_offset(pe.rows(), max_offset), i64(pe.rows() > 0 ? (pe.rows() - 1) / 2 : 0));
  if (k_max < 1) {
    r.decided = false;
    r.note = "needs at least 3 positions";
  }
  for (std::int64_t d = 1; d <= k_max; ++d) {
    const auto du = static_cast<std::size_t>(d);
    report_progress(du - 1, static_cast<std::size_t>(k_max));
    for (std::size_t t = du; t + du < pe.rows(); ++t)
      record(r, std::abs(dot(pe.row(t), pe.row(t + du)) - dot(pe.row(t), pe.row(t - du))) / scale,
             {{"t", i64(t)}, {"delta", d}});
  }
  if (k_max >= 1) report_progress(static_cast<std::size_t>(k_max), static_cast<std::size_t>(k_max));
  if (r.decided) r.note = fmt::format("delta = 1..{}, every t with t - delta >= 0", k_max);
  finish(r);
  return r;
}

}  // namespace posenc::analysis
