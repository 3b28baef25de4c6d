// One figure description, three outputs: PNG (rasterised), SVG (vector) and a terminal preview.
#include "posenc/render/figure.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "posenc/render/ansi.hpp"
#include "posenc/render/axes.hpp"
#include "posenc/render/colormap.hpp"
#include "posenc/render/text.hpp"
#include "layouts.hpp"

namespace posenc::render {
namespace {

template <class... F>
struct Overloaded : F... {
  using F::operator()...;
};
template <class... F>
Overloaded(F...) -> Overloaded<F...>;

std::string title_of(const Figure& f) {
  return std::visit([](const auto& x) { return x.title; }, f);
}

// The title in bold, cut to the terminal's width.
std::string ansi_title(const Figure& f, int columns) {
  auto cps = decode_utf8(title_of(f));
  if (cps.empty()) return {};
  if (cps.size() > static_cast<std::size_t>(columns)) {
    cps.resize(static_cast<std::size_t>(columns - 1));
    cps.push_back(U'\u2026');
  }
  return fmt::format("\x1b[1m{}\x1b[0m\n", encode_utf8(cps));
}

// A colormap strip between its end values: "lo ▀▀▀▀ hi  label".
std::string ansi_colour_scale(const std::string& cmap, double lo, double hi, const std::string& label) {
  std::string out = fmt::format("{} ", tick_label(lo, std::max(std::abs(hi - lo), 1e-300) / 100));
  constexpr int kSteps = 24;
  for (int i = 0; i < kSteps; ++i) {
    const Rgb c = colormap(cmap, (i + 0.5) / kSteps);
    out += fmt::format("\x1b[38;2;{};{};{}m\u2588", c.r, c.g, c.b);
  }
  return out + fmt::format("\x1b[0m {}  {}\n", tick_label(hi, std::max(std::abs(hi - lo), 1e-300) / 100), label);
}

// The panels' cell images in the figure's grid, separated by white lines 1/16 of a panel wide.
Image tile_panels(const HeatmapFigure& h) {
  if (h.panels.empty()) return Image(1, 1);
  const Image& first = h.panels.front().cells;
  const int n = static_cast<int>(h.panels.size());
  const int ncols = static_cast<int>(heatmap_grid_columns(h.panels.size())), nrows = (n + ncols - 1) / ncols;
  const int gap = n > 1 ? std::max(1, first.width() / 16) : 0;
  const int pw = first.width(), ph = first.height();
  Image out(ncols * pw + (ncols - 1) * gap, nrows * ph + (nrows - 1) * gap, theme().background);
  for (int i = 0; i < n; ++i) {
    const Image& p = h.panels[static_cast<std::size_t>(i)].cells;
    const int ox = (i % ncols) * (pw + gap), oy = (i / ncols) * (ph + gap);
    for (int y = 0; y < std::min(p.height(), ph); ++y)
      for (int x = 0; x < std::min(p.width(), pw); ++x) out.set(ox + x, oy + y, p.at(x, y));
  }
  return out;
}

}  // namespace

std::pair<int, int> figure_size(const Figure& f) {
  return std::visit(Overloaded{[](const HeatmapFigure& h) { return heatmap_size(h); },
                               [](const auto& x) { return std::pair{x.width, x.height}; }},
                    f);
}

FigureLayout figure_layout(const Figure& f) {
  return std::visit(Overloaded{[](const HeatmapFigure& h) { return heatmap_layout(h); },
                               [](const LineFigure& l) { return line_plot_layout(l); },
                               [](const ScatterFigure& s) { return scatter_layout(s); }},
                    f);
}

void add_texts(FigureLayout& out, char part, const std::vector<Label>& labels) {
  for (const Label& l : labels) out.texts.push_back({part, l.text, text_box(l)});
}

void draw(Canvas& c, const Figure& f) {
  std::visit(Overloaded{[&](const HeatmapFigure& h) { draw_heatmap(c, h); },
                        [&](const LineFigure& l) { draw_line_plot(c, l); },
                        [&](const ScatterFigure& s) { draw_scatter(c, s); }},
             f);
}

Image to_image(const Figure& f) {
  const auto [w, h] = figure_size(f);
  PngCanvas canvas(w, h, theme().background);
  draw(canvas, f);
  return canvas.image();
}

// The metadata with "Title" holding the title drawn (the default or --title), first after
// "Software" when the caller gave none.
Metadata with_title(const Figure& f, Metadata m) {
  const std::string title = title_of(f);
  const auto it = std::find_if(m.begin(), m.end(), [](const auto& kv) { return kv.first == "Title"; });
  if (it != m.end()) {
    it->second = title;
  } else if (!title.empty()) {
    const auto software = std::find_if(m.begin(), m.end(), [](const auto& kv) { return kv.first == "Software"; });
    m.insert(software == m.end() ? m.begin() : software + 1, {"Title", title});
  }
  return m;
}

std::vector<std::uint8_t> to_png(const Figure& f, const Metadata& metadata) {
  return encode_png(to_image(f), with_title(f, metadata));
}

std::string to_svg(const Figure& f, const Metadata& metadata) {
  const auto [w, h] = figure_size(f);
  SvgCanvas canvas(w, h, theme().background);
  draw(canvas, f);
  return canvas.finish(title_of(f), with_title(f, metadata));
}

std::string to_ansi(const Figure& f, int columns) {
  columns = std::clamp(columns, 8, 1000);
  std::string out = ansi_title(f, columns);
  if (const auto* h = std::get_if<HeatmapFigure>(&f)) {
    // The cells alone (panels side by side), at the terminal's width; two pixel rows per line.
    const Image cells = tile_panels(*h);
    const double aspect = cells.width() > 0 ? static_cast<double>(cells.height()) / cells.width() : 1.0;
    const int px_h = std::clamp(static_cast<int>(std::lround(columns * aspect)), 2, 96);
    out += ansi_half_blocks(resize_area(cells, columns, px_h));
    return out + ansi_colour_scale(h->cmap, h->lo, h->hi, h->value_label);
  }
  if (const auto* l = std::get_if<LineFigure>(&f)) {
    const int px_h = 2 * std::clamp(columns / 4, 6, 24);
    PngCanvas canvas(columns, px_h, theme().background);
    draw_line_plot(canvas, *l, true);
    out += ansi_half_blocks(canvas.image());
    for (std::size_t i = 0; i < l->series.size(); ++i) {
      const Rgb c = line_colour(l->cmap, i, l->series.size());
      out += fmt::format("\x1b[38;2;{};{};{}m\u2501\u2501\x1b[0m {}\n", c.r, c.g, c.b, l->series[i].name);
    }
    return out;
  }
  const auto& s = std::get<ScatterFigure>(f);
  const int px_h = 2 * std::clamp(columns * 3 / 10, 6, 32);
  PngCanvas canvas(columns, px_h, theme().background);
  draw_scatter(canvas, s, true);
  out += ansi_half_blocks(canvas.image());
  const double last = s.first_position + static_cast<double>(std::max<std::size_t>(s.points.rows(), 1) - 1);
  return out + ansi_colour_scale(s.cmap, s.first_position, last, s.colour_label);
}

}  // namespace posenc::render
