#include "posenc/render/ansi.hpp"

#include <fmt/format.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <unordered_map>
#include <vector>

#include "posenc/render/colormap.hpp"

namespace posenc::render {

std::string ansi_half_blocks(const Image& img) {
  std::string out;
  for (int y = 0; y < img.height(); y += 2) {
    std::optional<Rgb> fg, bg;
    for (int x = 0; x < img.width(); ++x) {
      const Rgb top = img.at(x, y);
      if (fg != top) out += fmt::format("\x1b[38;2;{};{};{}m", top.r, top.g, top.b), fg = top;
      if (y + 1 < img.height()) {
        const Rgb bottom = img.at(x, y + 1);
        if (bg != bottom) out += fmt::format("\x1b[48;2;{};{};{}m", bottom.r, bottom.g, bottom.b), bg = bottom;
      }
      out += "\u2580";
    }
    out += "\x1b[0m\n";
  }
  return out;
}

Image resample_cells(const Image& cells, const std::string& cmap, int w, int h, bool by_max) {
  const Colormap map(cmap);
  Image out(std::max(w, 1), std::max(h, 1));
  const int iw = cells.width(), ih = cells.height();
  if (iw == 0 || ih == 0) return out;
  // Values in [0, 1]: the centre of the colour's slot in the map, NaN for anything else.
  std::unordered_map<std::uint32_t, double> value_of;
  for (int k = 0; k < 256; ++k) {
    const Rgb c = map((k + 0.5) / 256);
    value_of.emplace((std::uint32_t{c.r} << 16) | (std::uint32_t{c.g} << 8) | c.b, (k + 0.5) / 256);
  }
  value_of[(128u << 16) | (128u << 8) | 128u] = NAN;  // the NaN colour (masked cells) stays NaN
  std::vector<double> v(static_cast<std::size_t>(iw) * static_cast<std::size_t>(ih));
  for (int y = 0; y < ih; ++y)
    for (int x = 0; x < iw; ++x) {
      const Rgb c = cells.at(x, y);
      const auto it = value_of.find((std::uint32_t{c.r} << 16) | (std::uint32_t{c.g} << 8) | c.b);
      v[static_cast<std::size_t>(y) * static_cast<std::size_t>(iw) + static_cast<std::size_t>(x)] =
          it == value_of.end() ? NAN : it->second;
    }
  const double sx = static_cast<double>(iw) / out.width(), sy = static_cast<double>(ih) / out.height();
  for (int y = 0; y < out.height(); ++y)
    for (int x = 0; x < out.width(); ++x) {
      // The input area [x·sx, (x+1)·sx) × [y·sy, (y+1)·sy), or its nearest pixel when smaller than one.
      const double x0 = x * sx, x1 = sx <= 1 ? x0 : (x + 1) * sx, y0 = y * sy, y1 = sy <= 1 ? y0 : (y + 1) * sy;
      double acc = 0, total = 0, best = -INFINITY;
      const int j1 = sy <= 1 ? static_cast<int>(y0) + 1 : std::min(ih, static_cast<int>(std::ceil(y1)));
      const int i1 = sx <= 1 ? static_cast<int>(x0) + 1 : std::min(iw, static_cast<int>(std::ceil(x1)));
      for (int j = static_cast<int>(y0); j < j1; ++j) {
        const double wy = sy <= 1 ? 1.0 : std::min<double>(j + 1, y1) - std::max<double>(j, y0);
        for (int i = static_cast<int>(x0); i < i1; ++i) {
          const double value = v[static_cast<std::size_t>(j) * static_cast<std::size_t>(iw) + static_cast<std::size_t>(i)];
          if (std::isnan(value)) continue;
          const double wgt = wy * (sx <= 1 ? 1.0 : std::min<double>(i + 1, x1) - std::max<double>(i, x0));
          acc += wgt * value, total += wgt, best = std::max(best, value);
        }
      }
      out.set(x, y, map(total == 0 ? NAN : by_max ? best : acc / total));
    }
  return out;
}

int terminal_columns() {
  if (const char* env = std::getenv("COLUMNS")) {
    char* end = nullptr;
    const long v = std::strtol(env, &end, 10);
    if (end != env && *end == '\0' && v > 0 && v < 10000) return static_cast<int>(v);
  }
  winsize ws{};
  if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) return ws.ws_col;
  return 80;
}

int terminal_lines() {
  if (const char* env = std::getenv("LINES")) {
    char* end = nullptr;
    const long v = std::strtol(env, &end, 10);
    if (end != env && *end == '\0' && v > 0 && v < 10000) return static_cast<int>(v);
  }
  winsize ws{};
  if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_row > 0) return ws.ws_row;
  return 24;
}

}  // namespace posenc::render
