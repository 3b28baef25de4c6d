#include "output_options.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "posenc/analysis/non_finite.hpp"
#include "posenc/error.hpp"
#include "posenc/formats/output.hpp"
#include "posenc/formats/writers.hpp"
#include "posenc/parallel.hpp"
#include "posenc/render/heatmap.hpp"
#include "posenc/render/text.hpp"
#include "posenc/toeplitz.hpp"
#include "validators.hpp"

namespace posenc::cli {
namespace {

// Every text a person gave or a table named that a figure draws (titles, labels, legend
// entries, panel titles); ticks are digits and signs, which the font has.
void figure_texts(const render::LineFigure& l, std::vector<std::string>& out) {
  out.insert(out.end(), {l.title, l.subtitle, l.x_label, l.y_label});
  for (const auto& s : l.series) out.push_back(s.name);
  for (const auto& r : l.references) out.push_back(r.label);
  for (const auto& p : l.panels) figure_texts(p, out);
}

/// PNG figures draw text with the embedded DejaVu Sans: a character it lacks comes out as a
/// box. Say so once, naming them (SVG leaves text to the viewer's fonts; ansi to the terminal).
void warn_missing_glyphs(Context& ctx, const render::Figure& fig) {
  std::vector<std::string> texts;
  if (const auto* h = std::get_if<render::HeatmapFigure>(&fig)) {
    texts = {h->title, h->subtitle, h->x_label, h->y_label, h->value_label};
    for (const auto& p : h->panels) texts.insert(texts.end(), {p.title, p.short_title});
  } else if (const auto* l = std::get_if<render::LineFigure>(&fig)) {
    figure_texts(*l, texts);
  } else {
    const auto& s = std::get<render::ScatterFigure>(fig);
    texts = {s.title, s.subtitle, s.colour_label};
    texts.insert(texts.end(), s.axis_labels.begin(), s.axis_labels.end());
  }
  std::string all;
  for (const auto& t : texts) all += t + "\n";
  const auto missing = render::missing_glyphs(all);
  if (missing.empty()) return;
  std::vector<std::string> named;
  for (const char32_t c : missing) named.push_back(fmt::format("'{}' (U+{:04X})", render::encode_utf8({c}), static_cast<std::uint32_t>(c)));
  ctx.err << fmt::format("posenc: warning: the figure's font (DejaVu Sans, built in) has no glyph for {}: drawn as "
                         "boxes; an SVG (-o NAME.svg) leaves them to the viewer's fonts\n",
                         fmt::join(named, ", "));
}

}  // namespace

void OutputOptions::bind(CLI::App& app, const std::vector<formats::Format>& formats) {
  allowed = formats;
  const bool draws_figures = std::find(formats.begin(), formats.end(), formats::Format::kPng) != formats.end();
  if (draws_figures) allowed.insert(allowed.end(), {formats::Format::kSvg, formats::Format::kAnsi});
  app.add_option("-o,--output", path, "output file, or - for stdout")->capture_default_str()->type_name("PATH")->check(non_empty_path());
  app.add_option("--format", format, "output format (default: from the extension of -o; csv on stdout)")
      ->check(CLI::IsMember(formats::format_names(allowed)));
  const bool writes_npy = std::find(formats.begin(), formats.end(), formats::Format::kNpy) != formats.end();
  app.add_option("--dtype", dtype,
                 writes_npy ? "float32 or float64: element type of .npy, and precision of the csv/json values"
                            : "float32 or float64: precision of the csv/json values (float32: each value as the nearest "
                              "float, in its shortest text)")
      ->capture_default_str()
      ->check(CLI::IsMember({"float32", "float64"}));
  integer_option(app.add_option("--threads", threads, "threads computing blocks of rows; output is the same for any value"), 1, 1024)
      ->default_str("all cores")
      ->each([](const std::string& v) { set_threads(static_cast<unsigned>(std::stoul(v))); });
  if (draws_figures) figure.bind(app);
}

formats::Format OutputOptions::resolve() const { return formats::resolve_format(format, path, allowed); }

void OutputOptions::check_path() const {
  if (path != "-") formats::check_writable(path);
}

void emit(Context& ctx, const OutputOptions& o, bool binary, const std::function<void(std::ostream&)>& write,
          std::uint64_t min_bytes) {
  if (o.path == "-") {
    if (binary && ctx.out_is_terminal)
      throw Error("refusing to write binary output to a terminal: give -o FILE or redirect stdout");
    formats::write_to_stdout(ctx.out, write);
    return;
  }
  formats::write_atomically(o.path, binary, write, min_bytes);
}

void emit_table(Context& ctx, const OutputOptions& o, const Table& table) {
  // A drawn Toeplitz table is read from its diagonals, not its rows: passed as it is when
  // every value is finite (nothing to warn about), else counted row by row as any table.
  if (const ToeplitzTable* tt = as_toeplitz(table); tt && draws(o.resolve()) && analysis::toeplitz_all_finite(*tt))
    return emit_table_unchecked(ctx, o, table);
  const analysis::FiniteCountingTable t(table);
  emit_table_unchecked(ctx, o, t);
  const formats::DType dtype = formats::parse_dtype(o.dtype);
  if (!draws(o.resolve()))
    if (const std::string note = analysis::rounded_positions_note(table, dtype); !note.empty())
      ctx.err << "posenc: warning: " << note << "\n";
  if (const std::string note = analysis::non_finite_note(table, t, dtype); !note.empty())
    ctx.err << "posenc: warning: " << note << "\n";
}

void emit_table_unchecked(Context& ctx, const OutputOptions& o, const Table& t) {
  const formats::Format f = o.resolve();
  const formats::DType dtype = formats::parse_dtype(o.dtype);
  switch (f) {
    case formats::Format::kCsv:
      return emit(ctx, o, false, [&](std::ostream& s) { formats::write_csv(t, s, dtype); }, formats::min_output_bytes(t, f, dtype));
    case formats::Format::kJson:
      return emit(ctx, o, false, [&](std::ostream& s) { formats::write_json(t, s, dtype); }, formats::min_output_bytes(t, f, dtype));
    case formats::Format::kNpy:
      return emit(ctx, o, true, [&](std::ostream& s) { formats::write_npy(t, s, dtype); }, formats::min_output_bytes(t, f, dtype));
    case formats::Format::kPng:
    case formats::Format::kSvg:
    case formats::Format::kAnsi:
      return emit_figure(ctx, o, table_heatmap(t, o.figure), figure_metadata(t.info().title, t.info().params));
    case formats::Format::kText:
      break;
  }
  throw Error(fmt::format("--format {} is not available here", formats::info(f).name));
}

void emit_figure(Context& ctx, const OutputOptions& o, render::Figure fig, const render::Metadata& metadata) {
  const formats::Format f = o.resolve();
  o.figure.apply(fig);
  if (f == formats::Format::kPng) warn_missing_glyphs(ctx, fig);
  const std::string bytes = figure_bytes(fig, f, metadata);
  emit(ctx, o, formats::info(f).binary, [&](std::ostream& s) { s << bytes; });
}

}  // namespace posenc::cli
