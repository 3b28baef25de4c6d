#include "posenc/analysis/similarity.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "posenc/analysis/gram.hpp"
#include "posenc/analysis/linalg.hpp"
#include "posenc/memory.hpp"
#include "posenc/toeplitz.hpp"

namespace posenc::analysis {
namespace {

class StoredToeplitzTable : public ToeplitzTable {
 public:
  StoredToeplitzTable(TableInfo info, std::vector<double> g) : ToeplitzTable(std::move(info)), g_(std::move(g)) {}
  void diagonals(std::size_t, std::int64_t first_delta, std::span<double> out) const override {
    const auto at = first_delta + static_cast<std::int64_t>(cols()) - 1;  // g_[Δ + N − 1]
    std::copy_n(g_.begin() + at, out.size(), out.begin());
  }
  void fill(std::size_t first, std::size_t count, std::span<double> out) const override {
    const std::size_t n = cols();
    for (std::size_t r = 0; r < count; ++r) {
      const std::size_t i = first + r;
      // g index of (i, j) is j − i + n − 1.
      std::copy_n(g_.begin() + static_cast<std::ptrdiff_t>(n - 1 - i), n, out.begin() + static_cast<std::ptrdiff_t>(r * n));
    }
  }

 private:
  std::vector<double> g_;
};

class BlockedSimilarityTable : public Table {
 public:
  BlockedSimilarityTable(TableInfo info, Matrix pe, Metric metric)
      : Table(std::move(info)), pe_(std::move(pe)), metric_(metric) {}
  void fill(std::size_t first, std::size_t count, std::span<double> out) const override {
    similarity_rows(pe_, metric_, first, count, out);
  }

 private:
  Matrix pe_;
  Metric metric_;
};

}  // namespace

void similarity_rows(const Matrix& pe, Metric metric, std::size_t first, std::size_t count, std::span<double> out) {
  const std::size_t n = pe.rows();
  if (metric == Metric::kDistance) {
    constexpr std::size_t kBlock = 64;
    for (std::size_t jb = 0; jb < n; jb += kBlock)
      for (std::size_t r = 0; r < count; ++r) {
        const auto a = pe.row(first + r);
        for (std::size_t j = jb; j < std::min(n, jb + kBlock); ++j) {
          const auto b = pe.row(j);
          double s = 0.0;
          for (std::size_t c = 0; c < a.size(); ++c) s += (a[c] - b[c]) * (a[c] - b[c]);
          out[r * n + j] = std::sqrt(s);
        }
      }
    return;
  }
  std::vector<double> gram;
  gram_rows(pe, first, count, gram);
  std::vector<double> norm2(n);
  if (metric == Metric::kCosine)
    for (std::size_t j = 0; j < n; ++j) {
      double s = 0.0;
      for (double v : pe.row(j)) s += v * v;
      norm2[j] = s;
    }
  for (std::size_t r = 0; r < count; ++r)
    for (std::size_t j = 0; j < n; ++j)
      out[r * n + j] = metric_from_dot(metric, gram[r * n + j], norm2[first + r], norm2[j]);
}

Matrix similarity(const Matrix& pe, Metric metric) { return symmetric_similarity(pe, metric); }

std::unique_ptr<Table> toeplitz_table(TableInfo info, std::vector<double> g) {
  const std::size_t n = (g.size() + 1) / 2;
  info.shape = {n, n};
  return std::make_unique<StoredToeplitzTable>(std::move(info), std::move(g));
}

std::unique_ptr<Table> sinusoid_similarity_table(TableInfo info, const Sinusoids& s, std::size_t n, Metric metric) {
  check_memory(2 * static_cast<std::uint64_t>(n), sizeof(double), fmt::format("the similarity of {} positions", n),
               ", or a smaller --len");
  std::vector<double> g(2 * n - 1);
  const auto k = static_cast<double>(s.omega.size());
  std::vector<std::int64_t> offsets(n);
  for (std::size_t d = 0; d < n; ++d) offsets[d] = static_cast<std::int64_t>(d);
  const auto dots = sinusoid_dots(s, offsets);
  for (std::size_t d = 0; d < n; ++d) {
    const double v = metric_from_dot(metric, dots[d], k, k);
    g[n - 1 + d] = v;  // even in Δ
    g[n - 1 - d] = v;
  }
  return toeplitz_table(std::move(info), std::move(g));
}

std::unique_ptr<Table> similarity_table(TableInfo info, Matrix pe, Metric metric, bool stream) {
  const auto n = static_cast<std::uint64_t>(pe.rows());
  info.shape = {pe.rows(), pe.rows()};
  // The symmetric product computes each pair once, but holds all N² values (plus a packed copy
  // of the rows); past the memory limit the rows are streamed, each block against all rows.
  if (!stream && n * n + 2 * n * pe.cols() <= memory_limit() / sizeof(double))
    return std::make_unique<MatrixTable>(std::move(info), symmetric_similarity(pe, metric));
  return std::make_unique<BlockedSimilarityTable>(std::move(info), std::move(pe), metric);
}

}  // namespace posenc::analysis
