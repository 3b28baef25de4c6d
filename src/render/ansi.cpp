#include "posenc/render/ansi.hpp"

#include <fmt/format.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <vector>

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

Image resize_area(const Image& img, int w, int h) {
  Image out(std::max(w, 1), std::max(h, 1));
  if (img.width() == 0 || img.height() == 0) return out;
  const double sx = static_cast<double>(img.width()) / out.width();
  const double sy = static_cast<double>(img.height()) / out.height();
  for (int y = 0; y < out.height(); ++y)
    for (int x = 0; x < out.width(); ++x) {
      if (sx <= 1 && sy <= 1) {
        out.set(x, y, img.at(std::min(img.width() - 1, static_cast<int>(x * sx)),
                             std::min(img.height() - 1, static_cast<int>(y * sy))));
        continue;
      }
      // The input area [x·sx, (x+1)·sx) × [y·sy, (y+1)·sy), each pixel weighted by its overlap.
      const double x0 = x * sx, x1 = (x + 1) * sx, y0 = y * sy, y1 = (y + 1) * sy;
      double acc[3] = {0, 0, 0}, total = 0;
      for (int j = static_cast<int>(y0); j < std::min(img.height(), static_cast<int>(std::ceil(y1))); ++j) {
        const double wy = std::min<double>(j + 1, y1) - std::max<double>(j, y0);
        for (int i = static_cast<int>(x0); i < std::min(img.width(), static_cast<int>(std::ceil(x1))); ++i) {
          const double wgt = wy * (std::min<double>(i + 1, x1) - std::max<double>(i, x0));
          const Rgb c = img.at(i, j);
          acc[0] += wgt * c.r, acc[1] += wgt * c.g, acc[2] += wgt * c.b;
          total += wgt;
        }
      }
      auto channel = [&](int k) { return static_cast<std::uint8_t>(std::lround(acc[k] / total)); };
      out.set(x, y, {channel(0), channel(1), channel(2)});
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

}  // namespace posenc::render
