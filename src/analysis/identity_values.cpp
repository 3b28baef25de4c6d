// unique, bounded and bias-relative: identities about the values of a table.
#include <fmt/format.h>

#include <cmath>
#include <limits>
#include <numeric>
#include <vector>

#include "identity_util.hpp"
#include "posenc/analysis/identity.hpp"
#include "posenc/analysis/linalg.hpp"
#include "posenc/parallel.hpp"

namespace posenc::analysis {
using namespace detail;

IdentityResult check_unique(const Matrix& pe, double min_distance) {
  IdentityResult r = start("unique", min_distance, "smallest |PE_i - PE_j| / max_t |PE_t| (must exceed the tolerance)");
  if (fail_on_non_finite(r, pe)) return r;
  const std::size_t n = pe.rows();
  std::vector<double> norm2(n);
  double scale = 0.0;
  for (std::size_t t = 0; t < n; ++t) {
    norm2[t] = dot(pe.row(t), pe.row(t));
    scale = std::max(scale, std::sqrt(norm2[t]));
  }
  if (scale == 0.0) scale = 1.0;
  if (n < 2) {
    r.max_error = std::numeric_limits<double>::infinity();
    r.note = "a single position";
    r.holds = true;
    return r;
  }
  // Squared distances from the Gram matrix, a block of rows at a time; the closest pair is
  // then measured directly, which keeps full precision for nearly equal rows.
  double best = std::numeric_limits<double>::infinity();
  std::size_t bi = 0, bj = 1;
  std::vector<double> gram;
  constexpr std::size_t kRows = 64;
  for (std::size_t first = 0; first < n; first += kRows) {
    const std::size_t count = std::min(kRows, n - first);
    // O(N²·D): a bar on a terminal (posenc::set_progress), in rows weighted by the pairs
    // left (the first rows pair with all the others), so that its time left is right.
    const double pairs_done = static_cast<double>(first) * static_cast<double>(2 * n - first - 1) / 2.0;
    report_progress(static_cast<std::size_t>(static_cast<double>(n) * pairs_done / (static_cast<double>(n) * static_cast<double>(n - 1) / 2.0)), n);
    gram_rows(pe, first, count, gram);
    for (std::size_t a = 0; a < count; ++a) {
      const std::size_t i = first + a;
      for (std::size_t j = i + 1; j < n; ++j) {
        const double d2 = norm2[i] + norm2[j] - 2.0 * gram[a * n + j];
        if (d2 < best) {
          best = d2;
          bi = i;
          bj = j;
        }
      }
    }
  }
  report_progress(n, n);
  double exact = 0.0;
  for (std::size_t c = 0; c < pe.cols(); ++c) exact += (pe(bi, c) - pe(bj, c)) * (pe(bi, c) - pe(bj, c));
  r.max_error = std::sqrt(exact) / scale;
  r.worst = {{"i", i64(bi)}, {"j", i64(bj)}};
  r.holds = r.max_error > min_distance;
  r.note = fmt::format("closest positions {} and {} of {}", bi, bj, n);
  return r;
}

IdentityResult check_bounded(const Matrix& pe, double bound) {
  IdentityResult r = start("bounded", bound, "largest |PE[t, k]| (must not exceed the bound)");
  if (fail_on_non_finite(r, pe)) return r;
  for (std::size_t t = 0; t < pe.rows(); ++t)
    for (std::size_t c = 0; c < pe.cols(); ++c) record(r, std::abs(pe(t, c)), {{"t", i64(t)}, {"dim", i64(c)}});
  r.note = fmt::format("bound {} over {} x {} values", bound, pe.rows(), pe.cols());
  finish(r);
  return r;
}

IdentityResult check_bias_relative(const Table& bias, double tol) {
  IdentityResult r = start("bias-relative", tol,
                           "max |b[i,j] - c_i - f(j - i)| / max |b|, c_i a constant per row");
  const auto& shape = bias.info().shape;
  if (shape.size() < 2) {
    r.decided = false;
    r.note = "needs a 2-D (N x M) or 3-D (H x N x M) bias table";
    finish(r);
    return r;
  }
  const std::size_t m = shape.back(), n = shape[shape.size() - 2];
  const std::size_t heads = bias.rows() / std::max<std::size_t>(n, 1);
  // Pass 1: the scale (largest finite |value|), so errors are relative. −inf is a mask; NaN
  // and +inf are not a bias softmax can use, so the first one fails the identity.
  std::vector<double> row(m);
  double scale = 0.0;
  for (std::size_t rr = 0; rr < bias.rows(); ++rr) {
    bias.fill(rr, 1, row);
    for (std::size_t j = 0; j < m; ++j) {
      const double v = row[j];
      if (std::isfinite(v)) {
        scale = std::max(scale, std::abs(v));
      } else if (!(v < 0)) {
        r.holds = false;
        r.max_error = std::numeric_limits<double>::quiet_NaN();
        r.worst = {{"head", i64(rr / std::max<std::size_t>(n, 1))}, {"i", i64(rr % std::max<std::size_t>(n, 1))}, {"j", i64(j)}};
        r.note = fmt::format("the bias holds {} at head {}, i = {}, j = {}; only -inf (a mask) may be non-finite",
                             std::isnan(v) ? "nan" : "inf", r.worst[0].second, r.worst[1].second, j);
        return r;
      }
    }
  }
  if (scale == 0.0) scale = 1.0;
  // Pass 2: b[i, j] = f(j − i) + c_i with unknown f and c. Each visible entry is a constraint
  // x_offset − x_row = b[i, j] between two unknowns (x_offset = f(j − i), x_row = −c_i), kept in a
  // union–find whose nodes carry their difference to the root: a constraint between nodes
  // already connected is checked (its residual is the error), otherwise it joins them. So a
  // table of that form never fails, whatever its shape (N > M rows have no diagonal) or mask,
  // and any other table fails at the first entry that contradicts the ones before it.
  // Masked (−inf) entries add no constraint but must fall on the same offsets in every row.
  double worst_err = 0.0;
  std::size_t wh = 0, wi = 0, wj = 0;
  bool any = false;
  const auto note = [&](double err, std::size_t h, std::size_t i, std::size_t j) {
    if (!any || err > worst_err) {
      worst_err = err;
      wh = h, wi = i, wj = j;
      any = true;
    }
  };
  const double inf = std::numeric_limits<double>::infinity();
  const std::size_t offsets = n + m - 1;
  std::vector<std::size_t> parent(offsets + n), size(offsets + n);
  std::vector<double> pot(offsets + n);  // x_node − x_parent
  const auto find = [&](std::size_t x) {  // the root; afterwards pot[x] = x_x − x_root
    std::size_t root = x;
    double total = 0.0;
    for (; parent[root] != root; root = parent[root]) total += pot[root];
    while (parent[x] != x) {  // path compression: every node on the path points at the root
      const std::size_t next = parent[x];
      const double own = pot[x];
      pot[x] = total;
      parent[x] = root;
      total -= own;
      x = next;
    }
    return root;
  };
  enum : char { kUnseen, kValue, kMasked };
  std::vector<char> state(offsets);
  for (std::size_t h = 0; h < heads; ++h) {
    std::iota(parent.begin(), parent.end(), std::size_t{0});
    std::fill(size.begin(), size.end(), std::size_t{1});
    std::fill(pot.begin(), pot.end(), 0.0);
    std::fill(state.begin(), state.end(), kUnseen);
    for (std::size_t i = 0; i < n; ++i) {
      bias.fill(h * n + i, 1, row);
      const std::size_t row_node = offsets + i;
      for (std::size_t j = 0; j < m; ++j) {
        const std::size_t k = j + n - 1 - i;  // j − i + N − 1
        const bool is_masked = !std::isfinite(row[j]);
        if (state[k] == kUnseen) {
          state[k] = is_masked ? kMasked : kValue;
        } else if ((state[k] == kMasked) != is_masked) {
          note(inf, h, i, j);
          continue;
        }
        if (is_masked) {
          note(0.0, h, i, j);
          continue;
        }
        const std::size_t ra = find(k), rb = find(row_node);
        const double w = row[j];  // x_k − x_row
        if (ra == rb) {
          note(std::abs(pot[k] - pot[row_node] - w) / scale, h, i, j);
          continue;
        }
        const double d = w - pot[k] + pot[row_node];  // x_ra − x_rb
        if (size[ra] < size[rb]) {
          parent[ra] = rb, pot[ra] = d, size[rb] += size[ra];
        } else {
          parent[rb] = ra, pot[rb] = -d, size[ra] += size[rb];
        }
        note(0.0, h, i, j);
      }
    }
  }
  r.max_error = worst_err;
  if (any) r.worst = {{"head", i64(wh)}, {"i", i64(wi)}, {"j", i64(wj)}};
  r.note = fmt::format("{} head(s) of {} x {}; f and the row constants c_i fitted as the rows are read; "
                       "-inf entries are a mask and must follow j - i too", heads, n, m);
  finish(r);
  return r;
}

}  // namespace posenc::analysis
