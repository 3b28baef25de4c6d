// Terminal previews of figures: the picture in 24-bit colour half blocks (or glyphs, without
// colour), sized to the terminal, with the title above and the colours named below.
#include <fmt/format.h>

#include <limits>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "layouts.hpp"
#include "posenc/render/ansi.hpp"
#include "posenc/render/colormap.hpp"
#include "posenc/render/figure.hpp"
#include "posenc/render/text.hpp"

namespace posenc::render {
namespace {

// `text` cut with "…" to at most `columns` code points (one terminal cell each).
std::string cut(const std::string& text, int columns) {
  auto cps = decode_utf8(text);
  if (cps.size() <= static_cast<std::size_t>(std::max(columns, 1))) return text;
  cps.resize(static_cast<std::size_t>(std::max(columns - 1, 0)));
  cps.push_back(U'\u2026');
  return encode_utf8(cps);
}

std::size_t cells(const std::string& text) { return decode_utf8(text).size(); }

// The title (in bold with colour), cut to the terminal's width.
std::string ansi_title(const Figure& f, int columns, bool colour) {
  const std::string title = title_of(f);
  if (title.empty()) return {};
  return colour ? fmt::format("\x1b[1m{}\x1b[0m\n", cut(title, columns)) : cut(title, columns) + "\n";
}

// A colormap strip between its end values, "lo ████ hi  label", within `columns`: the label
// goes first when room is short, then the strip shrinks (to one cell), then the numbers go.
// Without colour the strip is the glyph ramp, low to high.
std::string ansi_colour_scale(const std::string& cmap, double lo, double hi, const std::string& label, int columns,
                              bool colour) {
  // Whole numbers (positions) as such, others to a hundredth of the range.
  const bool whole = lo == std::round(lo) && hi == std::round(hi);
  const double step = whole ? 1.0 : std::max(std::abs(hi - lo), 1e-300) / 100;
  std::string a = tick_label(lo, step), b = tick_label(hi, step);
  int ends = static_cast<int>(cells(a) + cells(b)) + 2;
  if (ends + 1 > columns) a.clear(), b.clear(), ends = 0;  // too narrow for numbers: the strip alone
  int strip = columns - ends;
  std::string tail;
  if (strip - 2 - static_cast<int>(cells(label)) >= 8) {
    tail = "  " + label;
    strip -= 2 + static_cast<int>(cells(label));
  }
  strip = std::clamp(strip, 1, 32);
  std::string out = ends > 0 ? a + " " : "";
  if (!colour) {
    for (int i = 0; i < strip; ++i) out += ramp_glyph((i + 0.5) / strip);
    return out + (ends > 0 ? fmt::format(" {}{}\n", b, tail) : "\n");
  }
  const Colormap map(cmap);
  for (int i = 0; i < strip; ++i) {
    const Rgb c = map((i + 0.5) / strip);
    out += fmt::format("\x1b[38;2;{};{};{}m\u2588", c.r, c.g, c.b);
  }
  return out + (ends > 0 ? fmt::format("\x1b[0m {}{}\n", b, tail) : "\x1b[0m\n");
}

// "reduced 128→80 columns (sampled: they alternate), 50→46 rows (averaged)": each axis the
// preview shrinks, from the table's cells to the preview's (half-block) pixels.
/// The scale of a terminal line plot, which has no axes: "x 0 … 100, y -3.2 … 64: offset; dot"
/// (the first and last x, the smallest and largest finite y of the curves drawn; on a log axis
/// the positive ones), then the axis names.
std::string line_scale(const LineFigure& l, int columns) {
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  for (const auto& s : l.series)
    for (const double v : s.y)
      if (std::isfinite(v) && (!l.log_y || v > 0)) lo = std::min(lo, v), hi = std::max(hi, v);
  // The numbers first, the axis names after them: a narrow terminal cuts the names.
  std::string numbers, names;
  if (!l.x.empty()) numbers = fmt::format("x {:.4g} … {:.4g}", l.x.front(), l.x.back()), names = l.x_label;
  if (lo <= hi) {
    numbers += fmt::format("{}y {:.4g} … {:.4g}{}", numbers.empty() ? "" : ", ", lo, hi, l.log_y ? " (log)" : "");
    names += (names.empty() ? "" : "; ") + l.y_label;
  }
  if (numbers.empty()) return {};
  return cut(names.empty() ? numbers : numbers + ": " + names, columns) + "\n";
}

std::string reduction_note(const HeatmapFigure& h, int pw, int ph, bool sampled) {
  const char* how = h.reduce_by_max ? "largest" : "averaged";
  std::vector<std::string> parts;
  if (h.cols > static_cast<std::size_t>(pw))
    parts.push_back(fmt::format("{}→{} columns ({})", h.cols, pw, sampled ? "sampled: they alternate" : how));
  if (h.rows > static_cast<std::size_t>(ph)) parts.push_back(fmt::format("{}→{} rows ({})", h.rows, ph, how));
  return parts.empty() ? std::string() : fmt::format("reduced {}", fmt::join(parts, ", "));
}

// The heatmap's panels in its grid, each shrunk by value to the preview's panel size, one
// white pixel apart; as wide as `columns` unless that would be taller than `max_h` pixels.
// `note` says how the table was reduced ("" when it was not).
Image heatmap_preview(const HeatmapFigure& h, int columns, int max_h, std::string& note) {
  const int n = static_cast<int>(std::max<std::size_t>(h.panels.size(), 1));
  const int ncols = static_cast<int>(heatmap_grid_columns(static_cast<std::size_t>(n))), nrows = (n + ncols - 1) / ncols;
  const int gap = n > 1 ? 1 : 0;
  // The panels' shape on the figure (half blocks are square pixels): height / width.
  const auto [fw, fh] = heatmap_panel_size(h);
  const double aspect = fw > 0 ? fh / fw : 1.0;
  int pw = std::max(1, (columns - (ncols - 1) * gap) / ncols);
  int ph = std::max(1, static_cast<int>(std::lround(pw * aspect)));
  if (nrows * ph + (nrows - 1) * gap > max_h) {
    ph = std::max(1, (max_h - (nrows - 1) * gap) / nrows);
    pw = std::clamp(static_cast<int>(std::lround(ph / aspect)), 1, pw);
  }
  Image out(ncols * pw + (ncols - 1) * gap, nrows * ph + (nrows - 1) * gap, theme().background);
  bool sampled = false;
  for (int i = 0; i < static_cast<int>(h.panels.size()); ++i) {
    bool s = false;
    const Image p = resample_cells(h.panels[static_cast<std::size_t>(i)].cells, h.cmap, pw, ph, h.reduce_by_max, h.cols, &s);
    sampled |= s;
    const int ox = (i % ncols) * (pw + gap), oy = (i / ncols) * (ph + gap);
    for (int y = 0; y < ph; ++y)
      for (int x = 0; x < pw; ++x) out.set(ox + x, oy + y, p.at(x, y));
  }
  note = reduction_note(h, pw, ph, sampled);
  return out;
}

}  // namespace

std::string to_ansi(const Figure& f, int columns, int lines, bool colour) {
  columns = std::clamp(columns, 8, 1000);
  lines = std::clamp(lines, 4, 1000);
  std::string out = ansi_title(f, columns, colour);
  const int title_lines = out.empty() ? 0 : 1;
  if (const auto* h = std::get_if<HeatmapFigure>(&f)) {
    // Room: all lines but the title, the colour scale and the prompt's; two pixel rows each.
    // A table larger than the preview takes one more line, saying what was reduced and how;
    // one that is not gets that line back.
    const int max_h = 2 * std::max(1, lines - title_lines - 3);
    std::string note;
    Image picture = heatmap_preview(*h, columns, max_h, note);
    if (note.empty()) picture = heatmap_preview(*h, columns, max_h + 2, note);
    out += colour ? ansi_half_blocks(picture) : glyph_values(picture, h->cmap, false);
    if (!note.empty()) out += cut(note, columns) + "\n";
    return out + ansi_colour_scale(h->cmap, h->lo, h->hi, h->value_label, columns, colour);
  }
  if (const auto* l = std::get_if<LineFigure>(&f)) {
    const int room = lines - title_lines - static_cast<int>(l->series.size()) - 2;  // the scale line too
    const int px_h = 2 * std::clamp(std::min(columns / 4, room), 3, 24);
    PngCanvas canvas(columns, px_h, theme().background);
    draw_line_plot(canvas, *l, true);
    std::vector<Rgb> colours;
    for (std::size_t i = 0; i < l->series.size(); ++i) colours.push_back(line_colour(l->cmap, i, l->series.size()));
    out += colour ? ansi_half_blocks(canvas.image()) : glyph_series(canvas.image(), colours);
    out += line_scale(*l, columns);
    for (std::size_t i = 0; i < l->series.size(); ++i) {
      const Rgb c = colours[i];
      const std::string name = cut(l->series[i].name, columns - 3);
      if (colour) out += fmt::format("\x1b[38;2;{};{};{}m\u2501\u2501\x1b[0m {}\n", c.r, c.g, c.b, name);
      else out += fmt::format("{0}{0} {1}\n", series_glyph(i), name);
    }
    return out;
  }
  const auto& s = std::get<ScatterFigure>(f);
  const int room = lines - title_lines - 2;
  const int px_h = 2 * std::clamp(std::min(columns * 3 / 10, room), 3, 32);
  PngCanvas canvas(columns, px_h, theme().background);
  draw_scatter(canvas, s, true);
  out += colour ? ansi_half_blocks(canvas.image()) : glyph_values(canvas.image(), s.cmap, true);
  const double last = s.first_position + static_cast<double>(std::max<std::size_t>(s.points.rows(), 1) - 1);
  return out + ansi_colour_scale(s.cmap, s.first_position, last, s.colour_label, columns, colour);
}

}  // namespace posenc::render
