// posenc rope engines: every convention (vLLM, SGLang, TensorRT-LLM, MLX-LM, Meta, ggml) beside
// transformers for one model; exit 1 when one differs beyond --tol.
#include <fmt/format.h>

#include <memory>

#include "figure_options.hpp"
#include "posenc/rope/rope_config.hpp"
#include "posenc/models/model_engines.hpp"
#include "posenc/models/rope_settings.hpp"
#include "posenc/rope/engines/rope_engines.hpp"
#include "posenc/error.hpp"
#include "posenc/render/rope_engines_figure.hpp"
#include "posenc/reports/rope_engines_writers.hpp"
#include "rope_command.hpp"
#include "validators.hpp"

namespace posenc::cli {
namespace {

struct RopeEnginesOptions {
  std::int64_t len = 4096;
  double tol = 1e-2;
  ReportOutput output;
  FigureOptions figure;
};

int run_rope_engines(Context& ctx, const RopeEnginesOptions& o, const ParamMap& shared) {
  const formats::Format f = o.output.prepare();
  // Every rope of the model (one section per layer type whose rope differs), or the one rope.
  const auto m = models::compare_model_engines(shared, o.len, o.tol);
  const int status = m.within() ? kOk : kCheckFailed;
  if (draws(f)) {
    render::Figure fig = render::rope_engines_figure(m);
    o.figure.apply(fig);
    render::Metadata metadata = figure_metadata(std::get<render::LineFigure>(fig).title, {});
    metadata.emplace_back("len", fmt::format("{}", o.len));
    metadata.emplace_back("tol", fmt::format("{}", o.tol));
    for (const auto& t : m.ropes)
      for (const auto& row : t.report.rows)
        metadata.emplace_back(t.layer_type.empty() ? std::string(to_string(row.convention))
                                                   : fmt::format("{} {}", t.layer_type, to_string(row.convention)),
                              row.verdict);
    const std::string bytes = figure_bytes(fig, f, metadata);
    o.output.emit(ctx, f, [&](std::ostream& s) { s << bytes; });
    return status;
  }
  o.output.emit(ctx, f, [&](std::ostream& s) {
    if (f == formats::Format::kJson) {
      reports::write_model_engines_json(m, s);
    } else {
      reports::write_model_engines_text(m, s);
    }
  });
  return status;
}

}  // namespace

void add_rope_engines_command(CLI::App& rope, Context& ctx, const RopeSettings& shared, int& exit_code) {
  auto opts = std::make_shared<RopeEnginesOptions>();
  CLI::App* cmd = rope.add_subcommand(
      "engines", "every serving engine's RoPE (vLLM, SGLang, TensorRT-LLM, MLX-LM) and Meta's and ggml's beside "
                 "transformers for one model; exit 1 when one differs beyond --tol");
  cmd->fallthrough();  // --hf-config, --max-model-len, ... belong to `rope`
  cmd->footer(
      "each engine is computed as its code does (posenc list names the release): config defaults, inverse\n"
      "frequencies, float32 steps, cos/sin cache rows, where the attention factor goes, and which LongRoPE\n"
      "list or dynamic-NTK base it uses for a sequence of --len tokens (the current length is --len; the\n"
      "context the engine was started with is --max-model-len). examples:\n"
      "  posenc rope engines --hf-config config.json\n"
      "  posenc rope engines --hf-config phi-3.5-mini.json --len 4097 --max-model-len 4096\n"
      "  posenc rope engines --hf-config config.json --format json -o engines.json\n"
      "  posenc rope engines --hf-config config.json -o engines.png     # per-pair differences\n"
      "  posenc rope engines --hf-config gemma-3-4b.json --layer-type sliding_attention\n"
      "a model whose layer types rotate differently (Gemma 3's sliding and full layers) gets one section per\n"
      "rope, each naming its layers; --layer-type keeps one.\n"
      "exit status: 0 every convention that accepts the settings within --tol, 1 one above it, 2 bad usage.\n"
      "docs: docs/engines.md");
  cmd->add_option("--len", opts->len, "sequence length: positions 0..len-1 are compared, and the current length is len")
      ->capture_default_str()
      ->transform(integer_in(1, encodings::kMaxLen))
      ->type_name(integer_type(1, encodings::kMaxLen));
  cmd->add_option("--tol", opts->tol,
                  "largest accepted difference: relative for inv_freq, absolute for the attention factor, logit "
                  "scale and cos/sin (the default sits above float32 rounding and below any difference of method)")
      ->capture_default_str()
      ->check(finite_at_least(0.0));
  opts->output.bind(*cmd, {formats::Format::kText, formats::Format::kJson, formats::Format::kPng, formats::Format::kSvg, formats::Format::kAnsi});
  opts->figure.bind(*cmd);
  cmd->callback([opts, &shared, &ctx, &exit_code] { exit_code = run_rope_engines(ctx, *opts, shared.values()); });
}

}  // namespace posenc::cli
