// posenc rope diff: two conventions, precisions or configs on the same other settings; exit 1
// when a difference exceeds --tol. posenc rope permutation --dim D: interleaved <-> half rows.
#include "rope_command.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <memory>

#include "posenc/schemes/registry.hpp"
#include "posenc/models/rope_settings.hpp"
#include "posenc/models/rope_sides.hpp"
#include "posenc/rope/rope_apply.hpp"
#include "posenc/rope/rope_config.hpp"
#include "posenc/rope/rope_report.hpp"
#include "posenc/error.hpp"
#include "figure_options.hpp"
#include "posenc/reports/rope_writers.hpp"
#include "rope_figure.hpp"
#include "rope_gguf_diff.hpp"
#include "qk_order_check.hpp"
#include "validators.hpp"

namespace posenc::cli {
namespace {

/// What differs on one side of the comparison; unset = the shared setting.
struct Side {
  std::optional<std::string> config;  ///< --config-a
  RopeSettings settings;              ///< --convention-a, --factor-a, ... (every setting)
};

struct RopeDiffOptions {
  Side a, b;
  std::int64_t len = 4096;
  double tol = 1e-6;
  CLI::Option* tol_option = nullptr;
  std::int64_t max_model_len = 0;  ///< .gguf side: the context above the original length (llama.cpp -c)
  ReportOutput output;
  FigureOptions figure;
  bool weights = false;  ///< --weights: the q/k row order (qk_order_check.cpp)
};

/// The shared settings with one side's file and overrides on top; `chosen` gets the overrides.
ParamMap side_params(ParamMap p, const Side& s, std::vector<std::pair<std::string, std::string>>& chosen) {
  if (s.config) p.set("hf-config", *s.config, true);
  chosen = s.settings.apply_given(p);
  return p;
}

/// "ggml", "b.json", "b.json (ggml)", "hf f64", "hf factor=8": what the user chose for that side.
std::string side_label(const Side& s, const ParamMap& shared, const std::vector<std::pair<std::string, std::string>>& chosen) {
  std::optional<std::string> convention, precision;
  std::string rest;
  for (const auto& [name, value] : chosen) {
    if (name == "convention") convention = value;
    else if (name == "precision") precision = value;
    else rest += fmt::format(" {}={}", name, value.size() > 24 ? value.substr(0, 21) + "..." : value);
  }
  std::string label = s.config ? std::filesystem::path(*s.config).filename().string()
                               : convention.value_or(shared.text("convention"));
  if (s.config && convention) label += fmt::format(" ({})", *convention);
  if (precision) label += " " + *precision;
  return label + rest;
}

int run_rope_diff(Context& ctx, const RopeDiffOptions& o, const ParamMap& shared) {
  const formats::Format f = o.output.prepare();
  if (o.weights) return run_qk_order_check(ctx, o.output, f, o.a.config, o.b.config);
  std::vector<std::pair<std::string, std::string>> chosen_a, chosen_b;
  const ParamMap pa = side_params(shared, o.a, chosen_a), pb = side_params(shared, o.b, chosen_b);
  // Nothing named per side: both sides are the shared settings, so there is nothing to compare.
  if (!o.a.config && !o.b.config && chosen_a.empty() && chosen_b.empty())
    throw Error("rope diff compares two sides, and nothing differs between them: give --config-a/-b, "
                "--convention-a/-b, --precision-a/-b or any setting per side (--scaling-b yarn, --factor-b 8, ...)");
  // A side's own config file is named by its own flag in messages (--config-a, not --hf-config).
  const auto a = models::resolve_rope_config(pa, o.a.config ? "--config-a" : "--hf-config");
  const auto b = models::resolve_rope_config(pb, o.b.config ? "--config-b" : "--hf-config");
  if (b.gguf && !a.gguf)  // config.json against the GGUF converted from it
    return run_gguf_diff(ctx, o.output, f, a, b, pa, side_label(o.a, shared, chosen_a), side_label(o.b, shared, chosen_b),
                         o.max_model_len > 0 ? o.max_model_len : b.max_model_len, o.tol_option->count() > 0 ? o.tol : kGgufDiffTol);
  if (const std::string warning = models::rope_diff_warning(a, b); !warning.empty())
    ctx.err << "posenc: warning: " << warning << "\n";
  const auto d = rope::compare_rope(a, b, o.len);
  reports::RopeDiffLabels labels{side_label(o.a, shared, chosen_a), side_label(o.b, shared, chosen_b)};
  if (labels.a == labels.b) labels.a += " (a)", labels.b += " (b)";
  if (draws(f)) {
    render::Figure fig = rope_diff_figure(d, labels, o.tol, o.len);
    o.figure.apply(fig);
    render::Metadata metadata = figure_metadata(std::get<render::LineFigure>(fig).title, {});
    metadata.emplace_back("a", labels.a);
    metadata.emplace_back("b", labels.b);
    metadata.emplace_back("len", fmt::format("{}", o.len));
    metadata.emplace_back("tol", fmt::format("{}", o.tol));
    const std::string bytes = figure_bytes(fig, f, metadata);
    o.output.emit(ctx, f, [&](std::ostream& s) { s << bytes; });
    return d.within(o.tol) ? kOk : kCheckFailed;
  }
  o.output.emit(ctx, f, [&](std::ostream& s) {
    if (f == formats::Format::kJson) {
      reports::write_rope_diff_json(d, labels, o.tol, o.len, s);
    } else {
      reports::write_rope_diff_text(d, labels, o.tol, o.len, s);
    }
  });
  return d.within(o.tol) ? kOk : kCheckFailed;
}

void add_side_options(CLI::App& cmd, Side& s, const std::string& x) {
  const std::string group = "side " + x + " (each overrides the shared setting, --hf-config's value included)";
  cmd.add_option("--config-" + x, s.config, "config.json of side " + x + " (default: --hf-config)")
      ->type_name("FILE")
      ->group(group);
  s.settings.bind_side(cmd, x, group);
}

}  // namespace

void add_rope_diff_command(CLI::App& rope, Context& ctx, const RopeSettings& shared, int& exit_code) {
  auto opts = std::make_shared<RopeDiffOptions>();
  CLI::App* cmd = rope.add_subcommand(
      "diff", "compare two conventions, precisions, configs or settings; exit 1 above --tol");
  cmd->fallthrough();  // the shared settings (--hf-config, --dim, --scaling, ...) belong to `rope`
  cmd->footer(
      "the options of 'posenc rope' apply to both sides; --NAME-a / --NAME-b override one for one side.\n"
      "nothing named per side is refused (exit 2); sides that resolve to the same settings get a warning.\n"
      "examples:\n"
      "  posenc rope diff --hf-config config.json --convention-a hf --convention-b ggml\n"
      "  posenc rope diff --hf-config config.json --scaling-b yarn --factor-b 4    # before and after YaRN\n"
      "  posenc rope diff --dim 128 --precision-a f32 --precision-b f64 --len 100000 --tol 1e-3\n"
      "  posenc rope diff --config-a a.json --config-b b.json --format json\n"
      "  posenc rope diff --hf-config config.json --convention-b ggml --len 32768 -o diff.png   # per pair\n"
      "exit status: 0 within --tol, 1 above it, 2 bad usage");
  add_side_options(*cmd, opts->a, "a");
  add_side_options(*cmd, opts->b, "b");
  cmd->add_option("--len", opts->len, "positions 0..len-1 whose cos/sin are compared")
      ->capture_default_str()
      ->transform(integer_in(1, encodings::kMaxLen))->type_name(integer_type(1, encodings::kMaxLen));
  cmd->add_option("--max-model-len", opts->max_model_len,
                  "with a .gguf side: the serving context (llama.cpp -c) at which the effect is also compared")
      ->transform(integer_in(1, encodings::kMaxLen))
      ->type_name(integer_type(1, encodings::kMaxLen))
      ->default_str("max(max_position_embeddings, 2 × original)");
  opts->tol_option = cmd->add_option("--tol", opts->tol,
                  "largest accepted difference: relative for inv_freq, absolute for attention factor and cos/sin (with a .gguf side: default 1e-4, ggml's float32 iteration)")
      ->capture_default_str()
      ->check(finite_at_least(0.0));
  opts->output.bind(*cmd, {formats::Format::kText, formats::Format::kJson, formats::Format::kPng, formats::Format::kSvg, formats::Format::kAnsi});
  opts->figure.bind(*cmd);
  cmd->add_flag("--weights", opts->weights, "compare the q/k weight row order of --config-a HF_FOLDER and --config-b FILE.gguf (docs/usage.md)");
  cmd->callback([opts, &shared, &ctx, &exit_code] { exit_code = run_rope_diff(ctx, *opts, shared.values()); });
}

void add_rope_permutation_command(CLI::App& rope, Context& ctx, int& exit_code) {
  struct PermutationOptions {
    std::int64_t dim = 0;
    std::int64_t rotary_dim = 0;
    ReportOutput output;
  };
  auto opts = std::make_shared<PermutationOptions>();
  CLI::App* cmd = rope.add_subcommand(
      "permutation", "q/k weight-row permutation from the interleaved to the half layout, and its inverse");
  cmd->footer(
      "half row j*R/2+i takes interleaved row 2i+j for the R rotary rows; rows R..D-1 pass through\n"
      "(transformers convert_llama_weights_to_hf.py permute)\n"
      "examples:\n"
      "  posenc rope permutation --dim 128 --format json\n"
      "  posenc rope permutation --dim 80 --rotary-dim 32          (partial rotary, Phi-2)");
  cmd->add_option("--dim", opts->dim, "head dimension D (even unless --rotary-dim is given)")
      ->required()
      ->transform(integer_in(2, encodings::kMaxDim))->type_name(integer_type(2, encodings::kMaxDim));
  cmd->add_option("--rotary-dim", opts->rotary_dim, "rotated width R (even, <= --dim): only rows 0..R-1 are permuted")
      ->transform(integer_in(2, encodings::kMaxDim))
      ->type_name(integer_type(2, encodings::kMaxDim))
      ->default_str("--dim (the whole head)");
  opts->output.bind(*cmd, {formats::Format::kText, formats::Format::kJson});
  cmd->callback([opts, &ctx, &exit_code] {
    const formats::Format f = opts->output.prepare();
    const auto p = rope::rope_permutation(opts->dim, opts->rotary_dim);
    opts->output.emit(ctx, f, [&](std::ostream& s) {
      if (f == formats::Format::kJson) {
        reports::write_rope_permutation_json(p, s);
      } else {
        reports::write_rope_permutation_text(p, s);
      }
    });
    exit_code = kOk;
  });
}

}  // namespace posenc::cli
