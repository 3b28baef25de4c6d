// Figures keep their labels legible whatever their size: apart from each other and from the
// 3-D box, inside the image; one given side keeps the table's shape.
#include <catch2/catch.hpp>

#include <cmath>

#include "layout_checks.hpp"
#include "posenc/render/axes.hpp"
#include "render_samples.hpp"

using namespace posenc::render;
using namespace posenc::test;

namespace {

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

TEST_CASE("a small line figure keeps its plot: the subtitle shortened, texts apart", "[figure][layout]") {
  // Issue 26 item 22: at 320 × 240 a subtitle of three wrapped lines and a legend left an
  // 80 × 90 px plot (9 % of the figure) and cut the x label. One subtitle line per 160 px of
  // height (one here, cut with "…"); the plot keeps at least 30 % of the figure.
  LineFigure f = sample_lines(2);
  f.width = 320, f.height = 240;
  f.subtitle = "rope decay of q = k = ones, base 10000, dimension 128, offsets 0 to 100, "
               "normalised by d/2, the RoFormer bound drawn on the same axis, every pair counted once";
  const double room = f.width - 2 * theme().pad;
  REQUIRE(wrap_text(f.subtitle, theme().subtitle, room, kSubtitleLines).size() == 3);  // three lines before
  const FigureLayout l = figure_layout(f);
  REQUIRE(l.plots.size() == 1);
  const Rect& p = l.plots[0];
  INFO("title band " << l.title.h << " px, plot " << p.w << " × " << p.h);
  CHECK(l.title.h <= 0.25 * f.height);
  CHECK(p.w * p.h >= 0.30 * f.width * f.height);
  CHECK(l.legend.w > 0);
  CHECK_FALSE(l.legend.overlaps(l.title));
  CHECK_FALSE(p.overlaps(l.title));
  for (const auto& t : l.texts) {
    INFO("'" << t.text << "'");
    CHECK_FALSE(t.box.overlaps(l.title));
    CHECK_FALSE(t.box.overlaps(l.legend));
  }
  check_texts(f, "xy");  // every label inside the image, with ink, apart from the others
  // A figure tall enough keeps every subtitle line (the default 500 px: three).
  f.height = 500;
  CHECK(figure_layout(f).title.h == Approx(l.title.h + 2 * 1.25 * theme().subtitle));  // a line is 1.25 × the size
}
