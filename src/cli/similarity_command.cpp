// posenc similarity SCHEME [scheme options] [--metric dot|cosine|distance] [--qk ...] [-o PATH] [--format ...]
#include <fmt/format.h>

#include "analysis_support.hpp"
#include "app.hpp"
#include "output_options.hpp"
#include "posenc/analysis/decay.hpp"
#include "posenc/analysis/rope_identity.hpp"
#include "posenc/analysis/similarity.hpp"
#include "posenc/error.hpp"
#include "posenc/memory.hpp"
#include "scheme_options.hpp"
#include "validators.hpp"

namespace posenc::cli {
namespace {

struct SimilarityOptions {
  SchemeOptions scheme;
  OutputOptions output;
  std::string metric = "cosine";
  std::string qk = "ones";
  std::uint64_t seed = 0;
};

int run_similarity(Context& ctx, const SimilarityOptions& o) {
  o.output.resolve();
  o.output.check_path();
  const std::string scheme = o.scheme.scheme();
  const analysis::Metric metric = analysis::parse_metric(o.metric);
  if (scheme_kind(scheme) == SchemeKind::kBias)
    throw Error(fmt::format("similarity needs position vectors; {} is a bias between positions "
                            "(see 'posenc generate {}' or 'posenc decay {}')",
                            scheme, scheme, scheme));
  const auto table = analysis_table(o.scheme);  // rope in float64 unless --precision
  if (table->info().shape.size() != 2) throw Error("similarity needs a 2-D table (rows = positions)");
  const std::size_t n = table->rows();
  TableInfo info = table->info();
  info.shape = {n, n};
  info.axis_names = {"i", "j"};
  info.column_names.clear();
  for (std::size_t j = 0; j < n && n <= 100000; ++j) info.column_names.push_back(fmt::format("j{}", j));
  info.value_name = o.metric;
  info.params.emplace_back("metric", o.metric);

  std::unique_ptr<Table> result;
  if (scheme_kind(scheme) == SchemeKind::kRope) {
    // <R_i q, R_j k> for fixed q, k depends only on j − i: Toeplitz from the O(N·d) closed form.
    // Rotations keep norms, so cosine and distance follow from the score and |q|, |k|.
    const auto view = rope_view(table->info());
    const auto c = analysis::make_rope_case(view.theta, view.layout, 1, analysis::parse_qk(o.qk), o.seed);
    // The offsets, the scores and the Toeplitz row: three vectors of 2N - 1 values.
    check_memory(2 * static_cast<std::uint64_t>(n), 3 * sizeof(double), fmt::format("the similarity of {} positions", n),
                 ", or a smaller --len");
    std::vector<std::int64_t> offsets;
    for (std::int64_t d = -static_cast<std::int64_t>(n) + 1; d < static_cast<std::int64_t>(n); ++d) offsets.push_back(d);
    info.params.emplace_back("qk", o.qk);
    info.params.emplace_back("seed", static_cast<std::int64_t>(o.seed));
    info.title = fmt::format("RoPE {} of R_i q and R_j k, q,k {}", o.metric, o.qk);
    const bool interleaved = view.layout == analysis::RopeLayout::kInterleaved;
    auto g = metric == analysis::Metric::kDistance
                 ? analysis::rope_qk_distance(view.theta, c.q, c.k, interleaved, offsets)  // no cancellation
                 : analysis::rope_qk_decay(view.theta, c.q, c.k, interleaved, offsets);
    const double qq = analysis::dot(c.q, c.q), kk = analysis::dot(c.k, c.k);
    if (metric != analysis::Metric::kDistance)
      for (double& v : g) v = analysis::metric_from_dot(metric, v, qq, kk);
    result = analysis::toeplitz_table(std::move(info), std::move(g));
  } else if (const auto known = analysis::known_sinusoids(table->info())) {
    info.title = fmt::format("{} similarity of {} (closed form)", o.metric, info.title.empty() ? info.scheme : info.title);
    result = analysis::sinusoid_similarity_table(std::move(info), *known, n, metric);
  } else {
    info.title = fmt::format("{} similarity of {}", o.metric, info.title.empty() ? info.scheme : info.title);
    // A figure reads each row once into its reducer: stream them whatever the memory limit
    // (holding all N² values cost 7 GB for N = 30000, issue 15.10).
    result = analysis::similarity_table(std::move(info), table->to_matrix(), metric, draws(o.output.resolve()));
  }
  emit_table(ctx, o.output, *result);
  return 0;
}

}  // namespace

void add_similarity_command(CLI::App& app, Context& ctx, int& exit_code) {
  auto opts = std::make_shared<SimilarityOptions>();
  CLI::App* cmd = app.add_subcommand("similarity", "N x N similarity between all positions");
  cmd->footer(
      "sinusoidal uses the closed form S[i][j] = g(j - i), O(N*D); other tables one symmetric product\n"
      "(each pair once, on --threads workers).\n"
      "rope: the score <R_i q, R_j k> for fixed q, k (--qk, --seed), in float64 unless --precision f32.\n"
      "examples:\n"
      "  posenc similarity sinusoidal --len 100 --dim 128 -o sim.png\n"
      "  posenc similarity --input wpe.npy --metric cosine -o wpe_sim.npy");
  opts->scheme.bind(*cmd, &ctx.err);
  opts->output.bind(*cmd, {io::Format::kCsv, io::Format::kJson, io::Format::kNpy, io::Format::kPng});
  opts->output.figure.bind_reduce(*cmd);
  cmd->add_option("--metric", opts->metric, "dot, cosine or distance")
      ->capture_default_str()
      ->check(CLI::IsMember({"dot", "cosine", "distance"}));
  cmd->add_option("--qk", opts->qk, "rope: q and k are all ones, random (independent) or same (random, k = q)")
      ->capture_default_str()
      ->check(CLI::IsMember({"ones", "random", "same"}));
  cmd->add_option("--seed", opts->seed, "rope: seed of the random q, k")
      ->capture_default_str()
      ->transform(non_negative_integer());
  cmd->callback([opts, &ctx, &exit_code] { exit_code = run_similarity(ctx, *opts); });
}

}  // namespace posenc::cli
