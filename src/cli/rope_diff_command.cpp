// posenc rope diff: two conventions, precisions or configs on the same other settings; exit 1
// when a difference exceeds --tol. posenc rope permutation --dim D: interleaved <-> half rows.
#include "rope_command.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <memory>

#include "posenc/encodings/registry.hpp"
#include "posenc/encodings/rope_apply.hpp"
#include "posenc/encodings/rope_config.hpp"
#include "posenc/encodings/rope_report.hpp"
#include "posenc/error.hpp"
#include "figure_options.hpp"
#include "posenc/io/rope_writers.hpp"
#include "rope_figure.hpp"
#include "validators.hpp"

namespace posenc::cli {
namespace {

/// What differs on one side of the comparison; unset = the shared setting.
struct Side {
  std::optional<std::string> config, convention, precision;
};

struct RopeDiffOptions {
  Side a, b;
  std::int64_t len = 4096;
  double tol = 1e-6;
  ReportOutput output;
  FigureOptions figure;
};

ParamMap side_params(ParamMap p, const Side& s) {
  if (s.config) p.set("hf-config", *s.config, true);
  if (s.convention) p.set("convention", *s.convention, true);
  if (s.precision) p.set("precision", *s.precision, true);
  return p;
}

/// "ggml", "b.json", "b.json (ggml)", "hf f64": what the user chose for that side.
std::string side_label(const Side& s, const ParamMap& shared) {
  const std::string convention = s.convention.value_or(shared.text("convention"));
  std::string label = s.config ? std::filesystem::path(*s.config).filename().string() : convention;
  if (s.config && s.convention) label += fmt::format(" ({})", *s.convention);
  if (s.precision) label += " " + *s.precision;
  return label;
}

int run_rope_diff(Context& ctx, const RopeDiffOptions& o, const ParamMap& shared) {
  const io::Format f = o.output.prepare();
  // A side's own config file is named by its own flag in messages (--config-a, not --hf-config).
  const auto a = encodings::resolve_rope_config(side_params(shared, o.a), o.a.config ? "--config-a" : "--hf-config");
  const auto b = encodings::resolve_rope_config(side_params(shared, o.b), o.b.config ? "--config-b" : "--hf-config");
  const auto d = encodings::compare_rope(a, b, o.len);
  io::RopeDiffLabels labels{side_label(o.a, shared), side_label(o.b, shared)};
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
    if (f == io::Format::kJson) {
      io::write_rope_diff_json(d, labels, o.tol, o.len, s);
    } else {
      io::write_rope_diff_text(d, labels, o.tol, o.len, s);
    }
  });
  return d.within(o.tol) ? kOk : kCheckFailed;
}

void add_side_options(CLI::App& cmd, Side& s, const std::string& x) {
  cmd.add_option("--config-" + x, s.config, "config.json of side " + x + " (default: --hf-config)")->type_name("FILE");
  cmd.add_option("--convention-" + x, s.convention, "convention of side " + x + " (default: --convention)")
      ->check(CLI::IsMember(encodings::rope_convention_names()));
  cmd.add_option("--precision-" + x, s.precision, "precision of side " + x + " (default: --precision)")
      ->check(CLI::IsMember(encodings::rope_precision_names()));
}

}  // namespace

void add_rope_diff_command(CLI::App& rope, Context& ctx, const RopeSettings& shared, int& exit_code) {
  auto opts = std::make_shared<RopeDiffOptions>();
  CLI::App* cmd = rope.add_subcommand(
      "diff", "compare two conventions, precisions or configs on the same settings; exit 1 above --tol");
  cmd->fallthrough();  // the shared settings (--hf-config, --dim, --scaling, ...) belong to `rope`
  cmd->footer(
      "the other options are those of 'posenc rope' and apply to both sides; examples:\n"
      "  posenc rope diff --hf-config config.json --convention-a hf --convention-b ggml\n"
      "  posenc rope diff --dim 128 --precision-a f32 --precision-b f64 --len 100000 --tol 1e-3\n"
      "  posenc rope diff --config-a a.json --config-b b.json --format json\n"
      "  posenc rope diff --hf-config config.json --convention-b ggml --len 32768 -o diff.png   # per pair\n"
      "exit status: 0 within --tol, 1 above it, 2 bad usage");
  add_side_options(*cmd, opts->a, "a");
  add_side_options(*cmd, opts->b, "b");
  cmd->add_option("--len", opts->len, "positions 0..len-1 whose cos/sin are compared")
      ->capture_default_str()
      ->transform(integer_in(1, encodings::kMaxLen))->type_name(integer_type(1, encodings::kMaxLen));
  cmd->add_option("--tol", opts->tol,
                  "largest accepted difference: relative for inv_freq, absolute for attention factor and cos/sin")
      ->capture_default_str()
      ->check(finite_at_least(0.0));
  opts->output.bind(*cmd, {io::Format::kText, io::Format::kJson, io::Format::kPng, io::Format::kSvg, io::Format::kAnsi});
  opts->figure.bind(*cmd);
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
  opts->output.bind(*cmd, {io::Format::kText, io::Format::kJson});
  cmd->callback([opts, &ctx, &exit_code] {
    const io::Format f = opts->output.prepare();
    const auto p = encodings::rope_permutation(opts->dim, opts->rotary_dim);
    opts->output.emit(ctx, f, [&](std::ostream& s) {
      if (f == io::Format::kJson) {
        io::write_rope_permutation_json(p, s);
      } else {
        io::write_rope_permutation_text(p, s);
      }
    });
    exit_code = kOk;
  });
}

}  // namespace posenc::cli
