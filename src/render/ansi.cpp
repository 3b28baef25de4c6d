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

namespace {

// One axis of a resampling from n source units to m: the units output index x covers, with
// their weights (area fractions; the nearest unit when enlarging).
struct Span {
  int first = 0, last = 0;  // [first, last)
  double x0 = 0, x1 = 0;    // the covered interval, in source units
};

Span span_of(int x, int n, int m) {
  const double s = static_cast<double>(n) / m;
  Span sp;
  sp.x0 = x * s, sp.x1 = s <= 1 ? sp.x0 : (x + 1) * s;
  sp.first = static_cast<int>(sp.x0);
  sp.last = s <= 1 ? sp.first + 1 : std::min(n, static_cast<int>(std::ceil(sp.x1)));
  return sp;
}

double weight_of(const Span& sp, int i, bool enlarging) {
  return enlarging ? 1.0 : std::min<double>(i + 1, sp.x1) - std::max<double>(i, sp.x0);
}

}  // namespace

bool columns_alternate(const std::vector<double>& v, int rows, int cols) {
  if (cols < 3) return false;
  double lag1 = 0, lag2 = 0;
  for (int y = 0; y < rows; ++y) {
    const double* r = v.data() + static_cast<std::size_t>(y) * static_cast<std::size_t>(cols);
    for (int c = 0; c + 2 < cols; ++c) {
      if (std::isnan(r[c]) || std::isnan(r[c + 1]) || std::isnan(r[c + 2])) continue;
      lag1 += (r[c + 1] - r[c]) * (r[c + 1] - r[c]);
      lag2 += (r[c + 2] - r[c]) * (r[c + 2] - r[c]);
    }
  }
  return lag1 > kAlternationRatio * lag2 && lag1 > 0;
}

Image resample_cells(const Image& cells, const std::string& cmap, int w, int h, bool by_max, std::size_t table_cols,
                     bool* sampled) {
  const Colormap map(cmap);
  Image out(std::max(w, 1), std::max(h, 1));
  if (sampled) *sampled = false;
  const int iw = cells.width(), ih = cells.height();
  if (iw == 0 || ih == 0) return out;
  // Values in [0, 1]: the centre of the colour's slot in the map, NaN for anything else.
  std::unordered_map<std::uint32_t, double> value_of;
  for (int k = 0; k < 256; ++k) {
    const Rgb c = map((k + 0.5) / 256);
    value_of.emplace((std::uint32_t{c.r} << 16) | (std::uint32_t{c.g} << 8) | c.b, (k + 0.5) / 256);
  }
  value_of[(128u << 16) | (128u << 8) | 128u] = NAN;  // the NaN colour (masked cells) stays NaN
  // The table's columns: k pixels each when the image holds `table_cols` cells k pixels wide,
  // else (a reduced image) one pixel each.
  const int k = table_cols > 0 && static_cast<std::size_t>(iw) % table_cols == 0 ? iw / static_cast<int>(table_cols) : 1;
  const int nc = iw / k;
  const auto value = [&](int x, int y) {
    const Rgb c = cells.at(x, y);
    const auto it = value_of.find((std::uint32_t{c.r} << 16) | (std::uint32_t{c.g} << 8) | c.b);
    return it == value_of.end() ? NAN : it->second;
  };
  // Rows first: per output row and table column, the weighted sum of the rows it covers and
  // their weight (by_max: the largest value and a count).
  const int oh = out.height(), ow = out.width();
  const std::size_t cells_n = static_cast<std::size_t>(oh) * static_cast<std::size_t>(nc);
  std::vector<double> sum(cells_n, 0.0), weight(cells_n, 0.0);
  for (int y = 0; y < oh; ++y) {
    const Span sp = span_of(y, ih, oh);
    for (int j = sp.first; j < sp.last; ++j) {
      const double wy = weight_of(sp, j, ih <= oh);
      for (int c = 0; c < nc; ++c) {
        const double v = value(c * k + k / 2, j);
        if (std::isnan(v) || wy <= 0) continue;
        const std::size_t i = static_cast<std::size_t>(y) * static_cast<std::size_t>(nc) + static_cast<std::size_t>(c);
        if (by_max) sum[i] = weight[i] == 0 ? v : std::max(sum[i], v), weight[i] += 1;
        else sum[i] += wy * v, weight[i] += wy;
      }
    }
  }
  // Then the columns: sampled when reducing columns that alternate (averaging 1.6 interleaved
  // sin/cos columns per character would draw beats that are not in the data), else averaged.
  std::vector<double> rows_v(cells_n);
  for (std::size_t i = 0; i < cells_n; ++i) rows_v[i] = weight[i] == 0 ? NAN : by_max ? sum[i] : sum[i] / weight[i];
  const bool sample = !by_max && nc > ow && columns_alternate(rows_v, oh, nc);
  if (sampled) *sampled = sample;
  for (int y = 0; y < oh; ++y) {
    const double* r = rows_v.data() + static_cast<std::size_t>(y) * static_cast<std::size_t>(nc);
    const double* s = sum.data() + static_cast<std::size_t>(y) * static_cast<std::size_t>(nc);
    const double* wt = weight.data() + static_cast<std::size_t>(y) * static_cast<std::size_t>(nc);
    for (int x = 0; x < ow; ++x) {
      if (sample) {
        out.set(x, y, map(r[alternating_sample(x, nc, ow)]));
        continue;
      }
      const Span sp = span_of(x, nc, ow);
      double acc = 0, total = 0, best = -INFINITY;
      for (int c = sp.first; c < sp.last; ++c) {
        if (wt[c] == 0) continue;
        const double wx = weight_of(sp, c, nc <= ow);
        if (wx <= 0) continue;
        acc += wx * s[c], total += wx * wt[c], best = std::max(best, s[c]);
      }
      out.set(x, y, map(total == 0 ? NAN : by_max ? best : acc / total));
    }
  }
  return out;
}

int alternating_sample(int x, int n, int m) {
  // The centre of character x, in columns: (x + ½)·n/m − ½; the nearest column of x's parity.
  const double centre = (x + 0.5) * n / m - 0.5;
  int c = 2 * static_cast<int>(std::lround((centre - (x % 2)) / 2)) + x % 2;
  if (c >= n) c -= 2;
  if (c < 0) c += 2;
  return std::clamp(c, 0, n - 1);
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
