// Axes, ticks, grid, frame and title block (colorbar and legend: legend.cpp).
#include "posenc/render/axes.hpp"

#include <algorithm>
#include <cmath>

#include "posenc/render/text.hpp"

namespace posenc::render {
namespace {

double line_height(double px) { return 1.25 * px; }

}  // namespace

namespace {
thread_local double g_text_scale = 1.0;
}  // namespace

const Theme& theme() {
  thread_local Theme t;
  thread_local double made_for = 0;
  if (made_for != g_text_scale) {
    const double s = g_text_scale;
    t = Theme{};
    for (double* v : {&t.title, &t.subtitle, &t.label, &t.tick, &t.legend, &t.tick_length, &t.gap, &t.pad}) *v *= s;
    made_for = s;
  }
  return t;
}

TextScale::TextScale(double scale) : previous_(g_text_scale) { g_text_scale = scale > 0 ? scale : 1.0; }
TextScale::~TextScale() { g_text_scale = previous_; }

double Axis::fraction(double v) const {
  if (log) {
    if (!(v > 0) || !(lo > 0) || !(hi > lo)) return 0.0;
    return std::log(v / lo) / std::log(hi / lo);
  }
  return hi != lo ? (v - lo) / (hi - lo) : 0.5;
}

Rect text_box(const Label& l) {
  const FontMetrics fm = font_metrics(l.style.size);
  double down = 0;  // from the anchor to the baseline, as Canvas::text
  switch (l.style.v) {
    case VAlign::kBaseline: down = 0; break;
    case VAlign::kTop: down = fm.cap_height; break;
    case VAlign::kMiddle: down = fm.cap_height / 2; break;
    case VAlign::kBottom: down = -fm.descent; break;
  }
  const double w = text_width(l.text, l.style.size);
  const double shift = l.style.h == HAlign::kLeft ? 0.0 : l.style.h == HAlign::kCenter ? 0.5 : 1.0;
  if (l.style.vertical) {
    // Reads upwards: the run starts at the bottom; the capitals face the page's left.
    const double base = l.at.x + down, start = l.at.y + shift * w;
    return {base - fm.cap_height, start - w, fm.cap_height + fm.descent, w};
  }
  const double base = l.at.y + down, start = l.at.x - shift * w;
  return {start, base - fm.cap_height, w, fm.cap_height + fm.descent};
}

void draw_label(Canvas& c, const Label& l) { c.text(l.at, l.text, l.style); }

double x_pixel(const Axis& a, const Rect& plot, double v) { return plot.x + a.fraction(v) * plot.w; }

double y_pixel(const Axis& a, const Rect& plot, double v) {
  const double f = a.fraction(v);
  return a.downward ? plot.y + f * plot.h : plot.bottom() - f * plot.h;
}

std::vector<Tick> fit_ticks(double lo, double hi, double length, bool horizontal, bool log, double min_step) {
  const Theme& th = theme();
  if (log && lo > hi) std::swap(lo, hi);
  if (!horizontal) {
    // Rows of labels: about three label heights apart, at most ten of them.
    const int n = std::clamp(static_cast<int>(length / (3.2 * th.tick)), 2, 10);
    return log ? log_ticks(lo, hi, n) : linear_ticks(std::min(lo, hi), std::max(lo, hi), n, min_step);
  }
  for (int n = std::max(2, static_cast<int>(length / 40)); n >= 2; --n) {
    auto ticks = log ? log_ticks(lo, hi, n) : linear_ticks(std::min(lo, hi), std::max(lo, hi), n, min_step);
    double widest = 0;
    for (const auto& t : ticks) widest = std::max(widest, text_width(t.label, th.tick));
    if (ticks.size() <= 1 || static_cast<double>(ticks.size()) * (widest + 14) <= length) return ticks;
  }
  return log ? log_ticks(lo, hi, 2) : linear_ticks(std::min(lo, hi), std::max(lo, hi), 2, min_step);
}

void thin_ticks(Axis& a, double length, bool horizontal, double gap) {
  const Theme& th = theme();
  const double half_height = font_metrics(th.tick).cap_height / 2;
  double last_end = -INFINITY;
  std::erase_if(a.ticks, [&](const Tick& t) {
    // Ticks come in increasing value, so in increasing distance from the axis's start.
    const double at = a.fraction(t.value) * length;
    const double half = horizontal ? text_width(t.label, th.tick) / 2 : half_height;
    if (at - half < last_end + gap) return true;
    last_end = at + half;
    return false;
  });
}

double widest_tick_label(const Axis& a) {
  double w = 0;
  for (const auto& t : a.ticks) w = std::max(w, text_width(t.label, theme().tick));
  return w;
}

double x_axis_height(const Axis& a) {
  const Theme& th = theme();
  double h = th.tick_length + th.gap + line_height(th.tick);
  if (!a.label.empty()) h += th.gap + line_height(th.label);
  return h + th.gap;
}

double y_axis_width(const Axis& a) {
  const Theme& th = theme();
  double w = th.tick_length + th.gap + widest_tick_label(a);
  if (!a.label.empty()) w += 2 * th.gap + line_height(th.label);
  return w + th.gap;
}

std::vector<Label> x_tick_labels(const Rect& plot, const Axis& a) {
  const Theme& th = theme();
  std::vector<Label> out;
  for (const auto& t : a.draw_ticks ? a.ticks : std::vector<Tick>{})
    out.push_back({t.label, {x_pixel(a, plot, t.value), plot.bottom() + th.tick_length + th.gap},
                   {th.tick, th.text, HAlign::kCenter, VAlign::kTop}});
  return out;
}

std::vector<Label> y_tick_labels(const Rect& plot, const Axis& a) {
  const Theme& th = theme();
  std::vector<Label> out;
  for (const auto& t : a.draw_ticks ? a.ticks : std::vector<Tick>{})
    out.push_back({t.label, {plot.x - th.tick_length - th.gap, y_pixel(a, plot, t.value)},
                   {th.tick, th.text, HAlign::kRight, VAlign::kMiddle}});
  return out;
}

Label x_axis_label(const Rect& plot, const Axis& a) {
  const Theme& th = theme();
  const double ly = plot.bottom() + th.tick_length + th.gap + line_height(th.tick) + th.gap;
  return {fit_text(a.label, th.label, plot.w), {plot.x + plot.w / 2, ly}, {th.label, th.text, HAlign::kCenter, VAlign::kTop}};
}

Label y_axis_label(const Rect& plot, const Axis& a) {
  const Theme& th = theme();
  // The label's top (towards the page's left edge) sits a gap beyond the widest tick label.
  const double lx = plot.x - th.tick_length - 2 * th.gap - widest_tick_label(a) - line_height(th.label) * 0.2;
  return {fit_text(a.label, th.label, plot.h), {lx, plot.y + plot.h / 2},
          {th.label, th.text, HAlign::kCenter, VAlign::kBaseline, true}};
}

void draw_x_axis(Canvas& c, const Rect& plot, const Axis& a) {
  const Theme& th = theme();
  const double y = plot.bottom();
  for (const auto& t : a.draw_ticks ? a.ticks : std::vector<Tick>{})
    c.rect(x_pixel(a, plot, t.value) - 0.5, y, 1, th.tick_length, th.axis);
  for (const auto& l : x_tick_labels(plot, a)) draw_label(c, l);
  if (!a.label.empty()) draw_label(c, x_axis_label(plot, a));
}

void draw_y_axis(Canvas& c, const Rect& plot, const Axis& a) {
  const Theme& th = theme();
  const double x = plot.x;
  for (const auto& t : a.draw_ticks ? a.ticks : std::vector<Tick>{})
    c.rect(x - th.tick_length, y_pixel(a, plot, t.value) - 0.5, th.tick_length, 1, th.axis);
  for (const auto& l : y_tick_labels(plot, a)) draw_label(c, l);
  if (!a.label.empty()) draw_label(c, y_axis_label(plot, a));
}

void draw_grid(Canvas& c, const Rect& plot, const Axis& x, const Axis& y) {
  const Rgb g = theme().grid;
  for (const auto& t : x.ticks) c.rect(x_pixel(x, plot, t.value) - 0.5, plot.y, 1, plot.h, g);
  for (const auto& t : y.ticks) c.rect(plot.x, y_pixel(y, plot, t.value) - 0.5, plot.w, 1, g);
}

void draw_frame(Canvas& c, const Rect& p) {
  const Rgb a = theme().axis;
  c.rect(p.x - 1, p.y - 1, p.w + 2, 1, a);
  c.rect(p.x - 1, p.bottom(), p.w + 2, 1, a);
  c.rect(p.x - 1, p.y, 1, p.h, a);
  c.rect(p.right(), p.y, 1, p.h, a);
}

double title_height(const std::string& title, const std::string& subtitle, double width) {
  const Theme& th = theme();
  double h = th.pad;
  if (!title.empty()) h += line_height(th.title);
  if (!subtitle.empty())
    h += static_cast<double>(wrap_text(subtitle, th.subtitle, width - 2 * th.pad, kSubtitleLines).size()) *
         line_height(th.subtitle);
  return h + th.pad;
}

std::vector<std::string> wrap_text(const std::string& text, double px, double max_width, int max_lines) {
  if (max_width <= 0 || text_width(text, px) <= max_width || max_lines <= 1) return {fit_text(text, px, max_width)};
  std::vector<std::string> lines;
  std::string line, rest = text;
  // Greedy: each line takes the words that fit; a word wider than a line is cut with "…".
  while (!rest.empty() && static_cast<int>(lines.size()) < max_lines - 1) {
    if (text_width(rest, px) <= max_width) break;
    std::size_t cut = std::string::npos;
    for (std::size_t sp = rest.find(' '); sp != std::string::npos; sp = rest.find(' ', sp + 1)) {
      if (text_width(rest.substr(0, sp), px) > max_width) break;
      cut = sp;
    }
    if (cut == std::string::npos) cut = rest.find(' ');  // the first word alone is too wide
    if (cut == std::string::npos) break;
    lines.push_back(fit_text(rest.substr(0, cut), px, max_width));
    rest.erase(0, rest.find_first_not_of(' ', cut) == std::string::npos ? rest.size() : rest.find_first_not_of(' ', cut));
  }
  if (!rest.empty()) lines.push_back(fit_text(rest, px, max_width));
  return lines;
}
std::string fit_text(const std::string& text, double px, double max_width) {
  if (text_width(text, px) <= max_width) return text;
  auto cps = decode_utf8(text);
  std::string out;
  // Drop code points from the end until the rest and "…" fit.
  while (!cps.empty()) {
    cps.pop_back();
    out = encode_utf8(cps);
    while (!out.empty() && out.back() == ' ') out.pop_back();
    if (text_width(out + "…", px) <= max_width) return out + "…";
  }
  return "";
}

void draw_title(Canvas& c, const std::string& title, const std::string& subtitle, double width) {
  const Theme& th = theme();
  if (width <= 0) width = c.width();
  const double room = width - 2 * th.pad;
  double y = th.pad;
  if (!title.empty()) {
    // Shrink a long title down to the label size before cutting it.
    double px = th.title;
    while (px > th.label && text_width(title, px) > room) px -= 0.5;
    c.text({c.width() / 2.0, y + 0.2 * th.title}, fit_text(title, px, room),
           {px, th.text, HAlign::kCenter, VAlign::kTop});
    y += line_height(th.title);
  }
  if (subtitle.empty()) return;
  // A long subtitle is wrapped at spaces (kSubtitleLines lines at most), not cut.
  for (const auto& line : wrap_text(subtitle, th.subtitle, room, kSubtitleLines)) {
    c.text({c.width() / 2.0, y + 0.2 * th.subtitle}, line, {th.subtitle, th.muted, HAlign::kCenter, VAlign::kTop});
    y += line_height(th.subtitle);
  }
}

}  // namespace posenc::render
