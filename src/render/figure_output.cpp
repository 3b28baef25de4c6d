// One figure description, three outputs: PNG (rasterised), SVG (vector) and a terminal preview
// (ansi_figure.cpp).
#include "posenc/render/figure.hpp"

#include <algorithm>

#include "layouts.hpp"
#include "posenc/render/axes.hpp"

namespace posenc::render {
namespace {

template <class... F>
struct Overloaded : F... {
  using F::operator()...;
};
template <class... F>
Overloaded(F...) -> Overloaded<F...>;

}  // namespace

std::string title_of(const Figure& f) {
  return std::visit([](const auto& x) { return x.title; }, f);
}

double text_scale_of(const Figure& f) {
  return std::visit([](const auto& x) { return x.text_scale; }, f);
}

std::pair<int, int> figure_size(const Figure& f) {
  const TextScale scale(text_scale_of(f));
  return std::visit(Overloaded{[](const HeatmapFigure& h) { return heatmap_size(h); },
                               [](const auto& x) { return std::pair{x.width, x.height}; }},
                    f);
}

FigureLayout figure_layout(const Figure& f) {
  const TextScale scale(text_scale_of(f));
  return std::visit(Overloaded{[](const HeatmapFigure& h) { return heatmap_layout(h); },
                               [](const LineFigure& l) { return line_plot_layout(l); },
                               [](const ScatterFigure& s) { return scatter_layout(s); }},
                    f);
}

void add_texts(FigureLayout& out, char part, const std::vector<Label>& labels) {
  for (const Label& l : labels)
    if (!l.text.empty()) out.texts.push_back({part, l.text, text_box(l)});
}

void draw(Canvas& c, const Figure& f) {
  const TextScale scale(text_scale_of(f));
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

}  // namespace posenc::render
