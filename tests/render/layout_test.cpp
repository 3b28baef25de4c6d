// Each part of a figure is where figure_layout says, and is really drawn there: ink in the
// title band and in every tick label's box, the colorbar's gradient from the colormap's last
// colour (top row) to its first (bottom row), the legend with each series' colour, parts
// apart from each other.
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "layout_checks.hpp"
#include "render_samples.hpp"

using namespace posenc::render;
using namespace posenc::test;

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
