#include "posenc/render/scatter.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "posenc/render/colormap.hpp"

namespace posenc::render {
namespace {

// Each column scaled to [−1, 1] (a constant column sits at 0).
Matrix normalised(const Matrix& m) {
  Matrix out = m;
  for (std::size_t c = 0; c < m.cols(); ++c) {
    double lo = INFINITY, hi = -INFINITY;
    for (std::size_t r = 0; r < m.rows(); ++r)
      if (std::isfinite(m(r, c))) {
        lo = std::min(lo, m(r, c));
        hi = std::max(hi, m(r, c));
      }
    for (std::size_t r = 0; r < m.rows(); ++r)
      out(r, c) = hi > lo ? 2.0 * (m(r, c) - lo) / (hi - lo) - 1.0 : 0.0;
  }
  return out;
}

}  // namespace

Image scatter_plot(const Matrix& coords, const PlotOptions& opt) {
  const std::size_t n = coords.rows();
  std::vector<double> sx(n), sy(n);
  if (coords.cols() >= 3) {
    const Matrix u = normalised(coords);
    const double az = -60.0 * std::numbers::pi / 180.0, el = 30.0 * std::numbers::pi / 180.0;
    for (std::size_t r = 0; r < n; ++r) {
      const double x = u(r, 0), y = u(r, 1), z = u(r, 2);
      // Rotate about z by the azimuth, then view from the elevation: depth axis drops out.
      const double xr = x * std::cos(az) - y * std::sin(az);
      const double yr = x * std::sin(az) + y * std::cos(az);
      sx[r] = xr;
      sy[r] = z * std::cos(el) + yr * std::sin(el);
    }
  } else {
    for (std::size_t r = 0; r < n; ++r) {
      sx[r] = coords(r, 0);
      sy[r] = coords.cols() > 1 ? coords(r, 1) : 0.0;
    }
  }
  auto finite_range = [](const std::vector<double>& v, double& lo, double& hi) {
    lo = INFINITY;
    hi = -INFINITY;
    for (double x : v)
      if (std::isfinite(x)) {
        lo = std::min(lo, x);
        hi = std::max(hi, x);
      }
    if (!std::isfinite(lo)) lo = hi = 0.0;
  };
  double x0, x1, y0, y1;
  finite_range(sx, x0, x1);
  finite_range(sy, y0, y1);
  const double xpad = 0.05 * std::max(x1 - x0, 1e-300);
  PlotFrame f = make_frame(opt, x0 - xpad, x1 + xpad, y0, y1);
  Image img(opt.width, opt.height);
  const Rgb faint{215, 215, 215};
  // Joining consecutive positions shows the order; past a few hundred points it only greys the picture.
  for (std::size_t r = 1; r < n && n <= 500; ++r)
    if (std::isfinite(sx[r]) && std::isfinite(sy[r]) && std::isfinite(sx[r - 1]) && std::isfinite(sy[r - 1]))
      draw_line(img, f.px(sx[r - 1]), f.py(sy[r - 1]), f.px(sx[r]), f.py(sy[r]), faint, 1);
  const double radius = n > 2000 ? 1.5 : 3.0;
  for (std::size_t r = 0; r < n; ++r) {
    if (!std::isfinite(sx[r]) || !std::isfinite(sy[r])) continue;
    const double t = n > 1 ? static_cast<double>(r) / static_cast<double>(n - 1) : 0.0;
    draw_disc(img, f.px(sx[r]), f.py(sy[r]), radius, colormap(opt.cmap, t));
  }
  return img;
}

}  // namespace posenc::render
