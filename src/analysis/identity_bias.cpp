#include "posenc/analysis/identity_bias.hpp"

#include <fmt/format.h>

#include <cmath>
#include <limits>
#include <vector>

#include "identity_util.hpp"

namespace posenc::analysis {
using namespace detail;

IdentityResult check_bias_symmetric(const Table& bias, double tol) {
  IdentityResult r = start("bias-symmetric", tol, "max |b[i,j] - b[j,i]| / max |b|");
  const auto& shape = bias.info().shape;
  if (shape.size() < 2 || shape[shape.size() - 1] != shape[shape.size() - 2]) {
    r.decided = false;
    r.note = "needs a square N x N (or H x N x N) bias table";
    return r;
  }
  const std::size_t n = shape.back();
  const std::size_t heads = n == 0 ? 0 : bias.rows() / n;
  // One head at a time: N x N values held, whatever the head count.
  std::vector<double> b(n * n);
  double scale = 0.0;
  for (std::size_t h = 0; h < heads; ++h) {
    bias.fill(h * n, n, b);
    for (std::size_t k = 0; k < b.size(); ++k) {
      const double v = b[k];
      if (std::isnan(v) || v == std::numeric_limits<double>::infinity()) {
        r.holds = false;
        r.max_error = std::numeric_limits<double>::quiet_NaN();
        r.worst = {{"head", i64(h)}, {"i", i64(k / n)}, {"j", i64(k % n)}};
        r.note = fmt::format("the bias holds {} at head {}, i = {}, j = {}", std::isnan(v) ? "nan" : "inf", h, k / n,
                             k % n);
        return r;
      }
      if (std::isinf(v)) {
        r.decided = false;
        r.note = fmt::format("masked (-inf) entries, e.g. head {}, i = {}, j = {}: a causal form has no symmetric "
                             "counterpart (check its --form symmetric)",
                             h, k / n, k % n);
        return r;
      }
      scale = std::max(scale, std::abs(v));
    }
  }
  if (scale == 0.0) scale = 1.0;
  for (std::size_t h = 0; h < heads; ++h) {
    bias.fill(h * n, n, b);
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = i + 1; j < n; ++j)
        record(r, std::abs(b[i * n + j] - b[j * n + i]) / scale, {{"head", i64(h)}, {"i", i64(i)}, {"j", i64(j)}});
  }
  r.note = fmt::format("{} head{} of {} x {}", heads, heads == 1 ? "" : "s", n, n);
  finish(r);
  return r;
}

}  // namespace posenc::analysis
