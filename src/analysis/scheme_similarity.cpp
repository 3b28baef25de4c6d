#include "posenc/analysis/scheme_similarity.hpp"

#include <fmt/format.h>

#include "posenc/analysis/decay.hpp"
#include "posenc/analysis/rope_identity.hpp"
#include "posenc/analysis/scheme_traits.hpp"
#include "posenc/analysis/similarity.hpp"
#include "posenc/error.hpp"
#include "posenc/memory.hpp"

namespace posenc::analysis {

void check_similarity_scheme(const std::string& scheme) {
  if (scheme_kind(scheme) == SchemeKind::kBias)
    throw Error(fmt::format("similarity needs position vectors; {} is a bias between positions "
                            "(see 'posenc generate {}' or 'posenc decay {}')",
                            scheme, scheme, scheme));
}

std::unique_ptr<Table> scheme_similarity(const std::string& scheme, const Table& table, const std::string& metric_text,
                                         const std::string& qk, std::uint64_t seed, bool stream) {
  const Metric metric = parse_metric(metric_text);
  check_similarity_scheme(scheme);
  if (table.info().shape.size() != 2) throw Error("similarity needs a 2-D table (rows = positions)");
  const std::size_t n = table.rows();
  TableInfo info = table.info();
  info.shape = {n, n};
  info.axis_names = {"i", "j"};
  info.column_names.clear();
  for (std::size_t j = 0; j < n && n <= 100000; ++j) info.column_names.push_back(fmt::format("j{}", j));
  info.value_name = metric_text;
  info.params.emplace_back("metric", metric_text);

  if (scheme_kind(scheme) == SchemeKind::kRope) {
    // <R_i q, R_j k> for fixed q, k depends only on j − i: Toeplitz from the O(N·d) closed form.
    // Rotations keep norms, so cosine and distance follow from the score and |q|, |k|.
    const auto view = rope_view(table.info());
    const auto c = make_rope_case(view.theta, view.layout, 1, parse_qk(qk), seed);
    // The offsets, the scores and the Toeplitz row: three vectors of 2N - 1 values.
    check_memory(2 * static_cast<std::uint64_t>(n), 3 * sizeof(double), fmt::format("the similarity of {} positions", n),
                 ", or a smaller --len");
    std::vector<std::int64_t> offsets;
    for (std::int64_t d = -static_cast<std::int64_t>(n) + 1; d < static_cast<std::int64_t>(n); ++d) offsets.push_back(d);
    info.params.emplace_back("qk", qk);
    info.params.emplace_back("seed", static_cast<std::int64_t>(seed));
    info.title = fmt::format("RoPE {} of R_i q and R_j k, q,k {}", metric_text, qk);
    const bool interleaved = view.layout == RopeLayout::kInterleaved;
    auto g = metric == Metric::kDistance ? rope_qk_distance(view.theta, c.q, c.k, interleaved, offsets)  // no cancellation
                                         : rope_qk_decay(view.theta, c.q, c.k, interleaved, offsets);
    const double qq = dot(c.q, c.q), kk = dot(c.k, c.k);
    if (metric != Metric::kDistance)
      for (double& v : g) v = metric_from_dot(metric, v, qq, kk);
    return toeplitz_table(std::move(info), std::move(g));
  }
  if (const auto known = known_sinusoids(table.info())) {
    info.title = fmt::format("{} similarity of {} (closed form)", metric_text, info.title.empty() ? info.scheme : info.title);
    return sinusoid_similarity_table(std::move(info), *known, n, metric);
  }
  info.title = fmt::format("{} similarity of {}", metric_text, info.title.empty() ? info.scheme : info.title);
  // A figure reads each row once into its reducer: stream them whatever the memory limit
  // (holding all N² values cost 7 GB for N = 30000, issue 15.10).
  return similarity_table(std::move(info), table.to_matrix(), metric, stream);
}

}  // namespace posenc::analysis
