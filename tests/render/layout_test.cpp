// Each part of a figure is where figure_layout says, and is really drawn there: ink in the
// title band and in every tick label's box, the colorbar's gradient from the colormap's last
// colour (top row) to its first (bottom row), the legend with each series' colour, parts
// apart from each other.
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "posenc/render/colormap.hpp"
#include "posenc/render/figure.hpp"
#include "render_samples.hpp"

using namespace posenc::render;
using posenc::test::sample_heatmap;
using posenc::test::sample_lines;
using posenc::test::sample_panels;
using posenc::test::sample_scatter;

namespace {

// Pixels of text in the box: text is drawn grey (#222222 blended over white, r = g = b), so
// colour (points, cells) and the light grey of grid lines and the 3-D box do not count.
int text_ink(const Image& img, const Rect& box) {
  int n = 0;
  for (int y = std::max(0, static_cast<int>(std::floor(box.y))); y < std::min(img.height(), static_cast<int>(std::ceil(box.bottom()))); ++y)
    for (int x = std::max(0, static_cast<int>(std::floor(box.x))); x < std::min(img.width(), static_cast<int>(std::ceil(box.right()))); ++x) {
      const Rgb c = img.at(x, y);
      n += c.r == c.g && c.g == c.b && c.r < 160;
    }
  return n;
}

bool has_colour(const Image& img, const Rect& box, Rgb want) {
  for (int y = std::max(0, static_cast<int>(box.y)); y < std::min(img.height(), static_cast<int>(box.bottom())); ++y)
    for (int x = std::max(0, static_cast<int>(box.x)); x < std::min(img.width(), static_cast<int>(box.right())); ++x)
      if (img.at(x, y) == want) return true;
  return false;
}

// Index of `c` in the colormap's 256 colours (matplotlib's table), -1 if it is not one of them.
int lut_index(const std::string& cmap, Rgb c) {
  for (int k = 0; k < 256; ++k)
    if (colormap(cmap, (k + 0.5) / 256) == c) return k;
  return -1;
}

std::size_t count_part(const FigureLayout& l, char part) {
  return static_cast<std::size_t>(std::count_if(l.texts.begin(), l.texts.end(), [&](const auto& t) { return t.part == part; }));
}

// What every figure owes: a title band with ink, ink in every tick label (at least two per
// axis in `parts`), labels apart from each other.
void check_texts(const Figure& f, const std::string& parts) {
  const Image img = to_image(f);
  const FigureLayout l = figure_layout(f);
  CHECK(l.title.h > 0);
  CHECK(text_ink(img, l.title) > 100);
  for (char part : parts) {
    INFO("axis " << part);
    CHECK(count_part(l, part) >= 2);
  }
  for (const auto& t : l.texts) {
    INFO("'" << t.text << "' (" << t.part << ") at " << t.box.x << "," << t.box.y << " " << t.box.w << "×" << t.box.h);
    CHECK(t.box.x >= 0);
    CHECK(t.box.y >= 0);
    CHECK(t.box.right() <= img.width());
    CHECK(t.box.bottom() <= img.height());
    CHECK(text_ink(img, t.box) >= 5);
  }
  for (std::size_t i = 0; i < l.texts.size(); ++i)
    for (std::size_t j = i + 1; j < l.texts.size(); ++j) {
      INFO("'" << l.texts[i].text << "' and '" << l.texts[j].text << "'");
      CHECK_FALSE(l.texts[i].box.overlaps(l.texts[j].box));
    }
}

// The colorbar: right of every plot, its top row the colormap's last colour and its bottom row
// the first, each row one colour of the map, the index never rising downwards.
void check_colorbar(const Figure& f) {
  const Image img = to_image(f);
  const FigureLayout l = figure_layout(f);
  REQUIRE(l.colorbar.w > 0);
  REQUIRE(l.colorbar.h > 50);
  for (const Rect& p : l.plots) {
    CHECK_FALSE(l.colorbar.overlaps(p));
    CHECK(l.colorbar.x >= p.right());
  }
  for (const auto& t : l.texts)
    if (t.part == 'c') CHECK(t.box.x >= l.colorbar.right());
  const int x0 = static_cast<int>(l.colorbar.x), x1 = static_cast<int>(l.colorbar.right());
  const int y0 = static_cast<int>(l.colorbar.y), y1 = static_cast<int>(l.colorbar.bottom());
  CHECK(img.at(x0, y0) == colormap(l.cmap, 1.0));
  CHECK(img.at(x1 - 1, y1 - 1) == colormap(l.cmap, 0.0));
  int previous = 256, bad_rows = 0;
  for (int y = y0; y < y1; ++y) {
    const int k = lut_index(l.cmap, img.at(x0, y));
    bool row_ok = k >= 0 && k <= previous;
    for (int x = x0; x < x1; ++x) row_ok = row_ok && img.at(x, y) == img.at(x0, y);
    bad_rows += row_ok ? 0 : 1;
    previous = k;
  }
  CHECK(bad_rows == 0);
}

}  // namespace

TEST_CASE("a heatmap draws its title, tick labels and colorbar where its layout says", "[figure][layout]") {
  const Figure f = sample_heatmap("sinusoidal");
  check_texts(f, "xyc");
  check_colorbar(f);
  const FigureLayout l = figure_layout(f);
  REQUIRE(l.plots.size() == 1);
  CHECK(l.legend.w == 0);
  // viridis' ends are #fde725 (top) and #440154 (bottom), matplotlib's _viridis_data[255] and [0].
  const Image img = to_image(f);
  CHECK(img.at(static_cast<int>(l.colorbar.x), static_cast<int>(l.colorbar.y)) == Rgb{0xfd, 0xe7, 0x25});
  CHECK(img.at(static_cast<int>(l.colorbar.x), static_cast<int>(l.colorbar.bottom()) - 1) == Rgb{0x44, 0x01, 0x54});
}

TEST_CASE("a grid of panels labels its outer panels and keeps one colorbar", "[figure][layout]") {
  const Figure f = sample_panels(8);
  check_texts(f, "xycp");
  check_colorbar(f);
  const FigureLayout l = figure_layout(f);
  CHECK(l.plots.size() == 8);
  CHECK(count_part(l, 'p') == 8);
}

TEST_CASE("a line plot draws its tick labels and a legend with each series' colour", "[figure][layout]") {
  const LineFigure lines = sample_lines(3);
  const Figure f = lines;
  check_texts(f, "xy");
  const Image img = to_image(f);
  const FigureLayout l = figure_layout(f);
  CHECK(l.colorbar.w == 0);
  REQUIRE(l.legend.w > 0);
  REQUIRE(l.legend_entries.size() == 3);
  CHECK(text_ink(img, l.legend) > 100);  // the names
  for (std::size_t i = 0; i < 3; ++i) {
    INFO("series " << i);
    CHECK(l.legend_entries[i].name == lines.series[i].name);
    CHECK(has_colour(img, l.legend, l.legend_entries[i].colour));
  }
  // The colours are the Tableau 10 palette's first three (matplotlib's default cycle).
  CHECK(l.legend_entries[0].colour == Rgb{31, 119, 180});
  CHECK(l.legend_entries[1].colour == Rgb{255, 127, 14});
  CHECK(l.legend_entries[2].colour == Rgb{44, 160, 44});
  // A single series needs no legend.
  CHECK(figure_layout(sample_lines(1)).legend.w == 0);
}

TEST_CASE("scatter plots draw their tick labels and position colorbar", "[figure][layout]") {
  for (std::size_t dims : {2, 3}) {
    INFO(dims << " columns");
    const Figure f = sample_scatter(dims);
    check_texts(f, dims == 2 ? "xyc" : "xyzc");
    check_colorbar(f);
  }
}

TEST_CASE("panel titles too wide for their panels take the short form", "[figure][layout]") {
  HeatmapFigure f = sample_panels(16);
  for (std::size_t h = 0; h < 16; ++h) {
    f.panels[h].title = fmt::format("head {} (m = 0.08838834764831845)", h);
    f.panels[h].short_title = fmt::format("h{}", h);
  }
  f.width = 500;
  check_texts(f, "xycp");  // also: no two texts overlap
  const FigureLayout l = figure_layout(f);
  std::size_t i = 0;
  for (const auto& t : l.texts) {
    if (t.part != 'p') continue;
    CHECK(t.text == fmt::format("h{}", i));
    CHECK(t.box.x >= l.plots[i].x);
    CHECK(t.box.right() <= l.plots[i].right());
    ++i;
  }
  CHECK(i == 16);
  // Without a short form, the title is cut to the panel.
  for (auto& p : f.panels) p.short_title.clear();
  for (const auto& t : figure_layout(f).texts)
    if (t.part == 'p') CHECK(t.text.find("…") != std::string::npos);
}

namespace {

// True when segment pq passes through the rectangle (Liang–Barsky clipping).
bool crosses(const std::pair<Point, Point>& s, const Rect& r) {
  const double dx = s.second.x - s.first.x, dy = s.second.y - s.first.y;
  double t0 = 0, t1 = 1;
  for (const auto& [p, q] : {std::pair{-dx, s.first.x - r.x}, std::pair{dx, r.right() - s.first.x},
                             std::pair{-dy, s.first.y - r.y}, std::pair{dy, r.bottom() - s.first.y}}) {
    if (p == 0) {
      if (q < 0) return false;
      continue;
    }
    const double t = q / p;
    if (p < 0) t0 = std::max(t0, t);
    else t1 = std::min(t1, t);
  }
  return t0 < t1;
}

// The 3-D views of the gallery: sine-loop (sin t, sin t/2, sin t/4, ticks at ±0.5) and a PCA
// of the sinusoidal table (each axis about ±2).
ScatterFigure scatter_like(const std::string& kind) {
  ScatterFigure f;
  f.width = 600, f.height = 480;
  if (kind == "sine") {
    f.title = "columns 0,1,2 of sine (pow2 frequencies), N=300, D=3";
    f.axis_labels = {"sin0", "sin1", "sin2"};
    f.points = posenc::Matrix(300, 3);
    for (std::size_t t = 0; t < 300; ++t)
      for (std::size_t d = 0; d < 3; ++d) f.points(t, d) = std::sin(static_cast<double>(t) / std::pow(2.0, static_cast<double>(d)));
  } else {
    f.title = "PCA of sinusoidal (paper, interleaved), base 10000, N=200, D=64";
    f.axis_labels = {"pc1", "pc2", "pc3"};
    f.points = posenc::Matrix(200, 3);
    for (std::size_t t = 0; t < 200; ++t) {
      const double a = static_cast<double>(t) / 199 * 3.0;
      f.points(t, 0) = 2.3 * std::cos(a), f.points(t, 1) = 2.2 * std::sin(a), f.points(t, 2) = 1.5 * std::cos(2 * a);
    }
  }
  return f;
}

}  // namespace

TEST_CASE("tick labels of a 3-D view keep apart from each other and from the box", "[figure][layout]") {
  for (const std::string kind : {"sine", "pca"}) {
    INFO(kind);
    const ScatterFigure f = scatter_like(kind);
    check_texts(f, "xyzc");  // ink in each, no two overlap
    const FigureLayout l = figure_layout(f);
    REQUIRE(l.edges.size() == 12);
    for (const auto& t : l.texts) {
      if (t.part == 'c') continue;
      INFO("'" << t.text << "' (" << t.part << ") at " << t.box.x << "," << t.box.y);
      for (const auto& e : l.edges) {
        INFO("'" << t.text << "' (" << t.part << ") and the edge " << e.first.x << "," << e.first.y << " → " << e.second.x << "," << e.second.y);
        CHECK_FALSE(crosses(e, t.box.inflated(2)));
      }
      // Labels of different axes meeting at a corner must not read as one ("2 −2"): 8 px apart.
      for (const auto& u : l.texts)
        if (&u != &t && u.part != 'c') {
          INFO("'" << t.text << "' (" << t.part << ") and '" << u.text << "' (" << u.part << ")");
          CHECK_FALSE(t.box.inflated(4).overlaps(u.box.inflated(4)));
        }
    }
  }
}

TEST_CASE("the first row is labelled when the ticks would start later", "[figure][layout]") {
  // fairseq's rows are positions 2..51: nice ticks are 10, 20, …, so 2 is added at the top row.
  HeatmapFigure f = sample_heatmap("fairseq");
  f.first_row = 2;
  check_texts(f, "xyc");
  FigureLayout l = figure_layout(f);
  std::vector<std::string> ys;
  for (const auto& t : l.texts)
    if (t.part == 'y') ys.push_back(t.text);
  CHECK(ys == std::vector<std::string>{"2", "10", "20", "30", "40", "50"});
  // The label "2" is centred on the first row (cells of plot.h / 50 pixels).
  const auto first = std::find_if(l.texts.begin(), l.texts.end(), [](const auto& t) { return t.part == 'y'; });
  const double row_px = l.plots[0].h / 50;
  CHECK(first->box.y + first->box.h / 2 == Approx(l.plots[0].y + row_px / 2).epsilon(0).margin(1.5));
  // Starting at 7, the tick 10 (3 rows = 12 px away) gives way to it.
  f.first_row = 7;
  check_texts(f, "xyc");
  ys.clear();
  for (const auto& t : figure_layout(f).texts)
    if (t.part == 'y') ys.push_back(t.text);
  CHECK(ys == std::vector<std::string>{"7", "20", "30", "40", "50"});
}

TEST_CASE("with only a width or a height, a heatmap keeps the table's shape", "[figure][layout]") {
  // 50×128 cells: panels 128/50 as wide as tall, whichever side is given.
  HeatmapFigure f = sample_heatmap("s");
  f.height = 300;
  Rect p = figure_layout(f).plots.at(0);
  CHECK(p.w / p.h == Approx(128.0 / 50).epsilon(0).margin(0.02));
  CHECK(figure_size(f).second == 300);
  f.height = 0, f.width = 900;
  p = figure_layout(f).plots.at(0);
  CHECK(p.w / p.h == Approx(128.0 / 50).epsilon(0).margin(0.02));
  CHECK(figure_size(f).first == 900);
  check_texts(f, "xyc");
  // A square matrix (T5's 64×64 buckets) stays square: cells 1:1, not 2:1.
  HeatmapFigure sq = sample_panels(1);
  sq.rows = sq.cols = 64, sq.panels[0].cells = Image(64, 64, Rgb{0, 0, 0});
  sq.height = 300;
  p = figure_layout(sq).plots.at(0);
  CHECK(p.w == p.h);
  sq.height = 0, sq.width = 400;
  p = figure_layout(sq).plots.at(0);
  CHECK(p.w == p.h);
  // Both given: the figure fills them.
  sq.height = 300;
  CHECK(figure_size(sq) == std::pair{400, 300});
}

TEST_CASE("at the smallest size every figure keeps its labels apart and inside", "[figure][layout]") {
  // 320 × 240 pixels, the least --width and --height accept.
  HeatmapFigure h = sample_heatmap("sinusoidal (paper, interleaved), base 10000, N=50, D=128");
  HeatmapFigure panels = sample_panels(8);
  LineFigure lines = sample_lines(3);
  ScatterFigure s2 = sample_scatter(2), s3 = sample_scatter(3);
  h.width = panels.width = lines.width = s2.width = s3.width = 320;
  h.height = panels.height = lines.height = s2.height = s3.height = 240;
  check_texts(h, "xyc");
  check_texts(panels, "xyc");
  check_texts(lines, "xy");
  check_texts(s2, "xyc");
  check_texts(s3, "c");
  // Numbers too wide for the axis: ticks give way rather than run together ("0100").
  HeatmapFigure wide = sample_heatmap("t");
  wide.cols = 100000, wide.width = 320, wide.height = 240;
  check_texts(wide, "yc");
}

TEST_CASE("thin_ticks drops labels that would touch", "[figure][ticks]") {
  Axis a;
  a.lo = 0, a.hi = 100;
  a.ticks = {{0, "0"}, {50, "50"}, {100, "100"}};
  thin_ticks(a, 30, true);  // "0" and "50" would be 15 px apart: too close for 6 px of gap
  REQUIRE(a.ticks.size() == 2);
  CHECK(a.ticks[1].label == "100");
  thin_ticks(a, 20, true);
  CHECK(a.ticks.size() == 1);
  CHECK(a.ticks[0].label == "0");
  Axis y;
  y.lo = 0, y.hi = 10;
  for (int v = 0; v <= 10; ++v) y.ticks.push_back({static_cast<double>(v), std::to_string(v)});
  thin_ticks(y, 100, false);  // 10 px apart, labels ~9 px tall: every other one
  CHECK(y.ticks.size() == 6);
}

TEST_CASE("tick labels never overlap, even on a figure too small to read", "[figure][layout]") {
  // 160 × 120 (below what the command line accepts): "0" and "100" used to run into "0100".
  HeatmapFigure h = sample_heatmap("t");
  LineFigure lines = sample_lines(2);
  ScatterFigure s2 = sample_scatter(2);
  h.width = lines.width = s2.width = 160;
  h.height = lines.height = s2.height = 120;
  for (const Figure& f : {Figure(h), Figure(lines), Figure(s2)}) {
    const FigureLayout l = figure_layout(f);
    for (std::size_t i = 0; i < l.texts.size(); ++i)
      for (std::size_t j = i + 1; j < l.texts.size(); ++j) {
        const auto &a = l.texts[i], &b = l.texts[j];
        if (a.part != b.part || a.part == 'a' || a.part == 'p') continue;
        INFO("'" << a.text << "' and '" << b.text << "' (" << a.part << ")");
        CHECK_FALSE(a.box.inflated(2).overlaps(b.box.inflated(2)));
      }
  }
}
