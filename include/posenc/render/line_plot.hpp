#pragma once
/// Line plots of curves against a shared x axis (decay curves). Plot area, frame, zero
/// line and one polyline per series; axes, ticks, labels and legend come later.
#include <string>
#include <vector>

#include "posenc/render/image.hpp"

namespace posenc::render {

struct PlotOptions {
  int width = 800;
  int height = 500;
  int margin = 40;                ///< pixels around the plot area (room for future axes)
  std::string cmap = "viridis";   ///< series i gets colormap(cmap, 0.85·i/(n−1))
  int line_width = 2;
};

/// Pixel rectangle of the plot area and the data range it shows.
struct PlotFrame {
  int left = 0, top = 0, width = 0, height = 0;
  double x_min = 0, x_max = 1, y_min = 0, y_max = 1;
  /// Pixel column / row of a data point (y grows upwards).
  double px(double x) const;
  double py(double y) const;
};

/// The frame for data ranges (min/max of the finite values, padded by 5%; a flat range is
/// widened by ±1).
PlotFrame make_frame(const PlotOptions& opt, double x_min, double x_max, double y_min, double y_max);

/// One polyline per series over `x`; non-finite values break the line (masked entries).
Image line_plot(const std::vector<double>& x, const std::vector<std::vector<double>>& series,
                const PlotOptions& opt = {});

/// Colour of series i of n under `cmap`.
Rgb series_colour(const std::string& cmap, std::size_t i, std::size_t n);

/// Draws a line of the given width between two pixel positions.
void draw_line(Image& img, double x0, double y0, double x1, double y1, Rgb c, int width = 1);

/// A filled disc.
void draw_disc(Image& img, double cx, double cy, double radius, Rgb c);

}  // namespace posenc::render
