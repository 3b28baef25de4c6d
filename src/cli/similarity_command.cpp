// posenc similarity SCHEME [scheme options] [--metric dot|cosine|distance] [--qk ...] [-o PATH] [--format ...]
#include <fmt/format.h>

#include "analysis_support.hpp"
#include "app.hpp"
#include "output_options.hpp"
#include "posenc/analysis/scheme_similarity.hpp"
#include "posenc/analysis/sinusoids.hpp"
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
  analysis::parse_metric(o.metric);
  analysis::check_similarity_scheme(scheme);    // before the table: a bias scheme has no vectors
  const auto table = analysis_table(o.scheme);  // rope in float64 unless --precision
  const auto result = analysis::scheme_similarity(scheme, *table, o.metric, o.qk, o.seed, draws(o.output.resolve()));
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
      "  posenc similarity --input wpe.npy --metric cosine -o wpe_sim.npy\n"
      "  posenc similarity --hf-config whisper-tiny/ -o whisper_sim.png   (the model's sinusoidal table)");
  opts->scheme.bind(*cmd, &ctx.err);
  opts->output.bind(*cmd, {formats::Format::kCsv, formats::Format::kJson, formats::Format::kNpy, formats::Format::kPng});
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
