// The 3-D scatter: a fixed oblique view (matplotlib's default azimuth −60°, elevation 30°)
// of the points inside the wireframe of their bounding box, ticks on three edges.
#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>

#include "layouts.hpp"
#include "posenc/render/text.hpp"
#include "scatter_parts.hpp"

namespace posenc::render {
namespace {

using Vec3 = std::array<double, 3>;

constexpr Rgb kBox{185, 185, 185};

double dot(const Vec3& a, const Vec3& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

struct View {
  static constexpr double kAz = -60 * std::numbers::pi / 180, kEl = 30 * std::numbers::pi / 180;
  Vec3 right{-std::sin(kAz), std::cos(kAz), 0.0};
  Vec3 up{-std::sin(kEl) * std::cos(kAz), -std::sin(kEl) * std::sin(kAz), std::cos(kEl)};
  Vec3 eye{std::cos(kEl) * std::cos(kAz), std::cos(kEl) * std::sin(kAz), std::sin(kEl)};
  // Screen position of a point of the unit box [-1, 1]^3, before fitting to the page.
  Point flat(const Vec3& p) const { return {dot(p, right), -dot(p, up)}; }
};

// Maps the box's flat projection into the page area.
struct Fit {
  double scale = 1, cx = 0, cy = 0;
  Point operator()(Point p) const { return {cx + scale * p.x, cy + scale * p.y}; }
};

// Width and height of the unit box's flat projection.
std::pair<double, double> box_extent(const View& v, double& lx, double& ly) {
  double hx = -INFINITY, hy = -INFINITY;
  lx = INFINITY, ly = INFINITY;
  for (int i = 0; i < 8; ++i) {
    const Point p = v.flat({i & 1 ? 1.0 : -1.0, i & 2 ? 1.0 : -1.0, i & 4 ? 1.0 : -1.0});
    lx = std::min(lx, p.x), hx = std::max(hx, p.x), ly = std::min(ly, p.y), hy = std::max(hy, p.y);
  }
  return {hx - lx, hy - ly};
}

constexpr double kRoom = 70;  // around the box, for tick and axis labels

double fit_scale(const std::pair<double, double>& extent, const Rect& area, double room) {
  return std::max(1.0, std::min((area.w - 2 * room) / extent.first, (area.h - 2 * room + 20) / extent.second));
}

constexpr double kEdgeGap = 3;   // between a label and the box's edges
constexpr double kLabelGap = 8;  // between two labels

// True when segment pq passes through r (Liang–Barsky clipping of the segment to r).
bool crosses(Point p, Point q, const Rect& r) {
  const double dx = q.x - p.x, dy = q.y - p.y;
  double t0 = 0, t1 = 1;
  const std::array<std::pair<double, double>, 4> sides = {
      std::pair{-dx, p.x - r.x}, std::pair{dx, r.right() - p.x}, std::pair{-dy, p.y - r.y}, std::pair{dy, r.bottom() - p.y}};
  for (const auto& [a, c] : sides) {
    if (a == 0) {
      if (c < 0) return false;
      continue;
    }
    const double t = c / a;
    if (a < 0) t0 = std::max(t0, t);
    else t1 = std::min(t1, t);
  }
  return t0 < t1;
}

// A tick label waiting to be placed: its axis, how far its tick is from the edge's middle
// (0 … 1), the tick's point and the label.
struct Candidate {
  std::size_t axis;
  double from_middle;
  Point tick;
  Label label;
};

}  // namespace

double scatter_3d_width(const Rect& area) {
  const View v;
  double lx = 0, ly = 0;
  const auto extent = box_extent(v, lx, ly);
  return fit_scale(extent, area, kRoom) * extent.first + 2 * kRoom;
}

namespace {

// Everything of the 3-D view but the points: placement, box, ticks and labels.
struct Box3d {
  View v;
  Fit fit;
  std::array<std::pair<double, double>, 3> range;
  std::vector<std::pair<Point, Point>> edges, tick_marks;
  std::vector<std::pair<char, Label>> tick_labels;
  std::vector<Label> axis_labels;
  Rect bounds;  ///< of the projected box

  double unit(std::size_t k, double value) const {
    return 2 * (value - range[k].first) / (range[k].second - range[k].first) - 1;
  }
};

Box3d plan_3d(const ScatterFigure& f, const Rect& area, bool bare) {
  const Theme& th = theme();
  Box3d b;
  const View& v = b.v;
  for (std::size_t k = 0; k < 3; ++k) b.range[k] = column_range(f.points, k);
  // Fit the projected box, leaving room around it for tick and axis labels.
  double lx = 0, ly = 0;
  const auto extent = box_extent(v, lx, ly);
  Fit& fit = b.fit;
  fit.scale = bare ? std::max(1.0, std::min((area.w - 2) / extent.first, (area.h - 2) / extent.second))
                   : fit_scale(extent, area, kRoom);
  fit.cx = area.x + area.w / 2 - fit.scale * (lx + extent.first / 2);
  fit.cy = area.y + area.h / 2 - fit.scale * (ly + extent.second / 2);
  b.bounds = {fit.cx + fit.scale * lx, fit.cy + fit.scale * ly, fit.scale * extent.first, fit.scale * extent.second};
  const Point centre = fit(v.flat({0, 0, 0}));

  // The twelve edges of the box.
  for (int a = 0; a < 3; ++a)
    for (int s = 0; s < 4; ++s) {
      Vec3 p{}, q{};
      const int c = (a + 1) % 3, d = (a + 2) % 3;
      p[static_cast<std::size_t>(a)] = -1, q[static_cast<std::size_t>(a)] = 1;
      p[static_cast<std::size_t>(c)] = q[static_cast<std::size_t>(c)] = s & 1 ? 1 : -1;
      p[static_cast<std::size_t>(d)] = q[static_cast<std::size_t>(d)] = s & 2 ? 1 : -1;
      b.edges.push_back({fit(v.flat(p)), fit(v.flat(q))});
    }
  if (bare) return b;

  // Ticks: x and y on the front bottom edges, z on the leftmost vertical edge. Each label
  // sits beyond its tick, pushed further out until it clears the box's edges.
  const double front_y = v.eye[1] > 0 ? 1 : -1, front_x = v.eye[0] > 0 ? 1 : -1;
  double left_x = 1, left_y = 1, best = INFINITY;
  for (double sx : {-1.0, 1.0})
    for (double sy : {-1.0, 1.0})
      if (const double sx_px = v.flat({sx, sy, 0}).x; sx_px < best) best = sx_px, left_x = sx, left_y = sy;
  const std::array<Vec3, 3> edge_base = {Vec3{0, front_y, -1}, Vec3{front_x, 0, -1}, Vec3{left_x, left_y, 0}};
  const auto clears_box = [&](const Label& l) {
    const Rect r = text_box(l).inflated(kEdgeGap);
    return std::none_of(b.edges.begin(), b.edges.end(), [&](const auto& e) { return crosses(e.first, e.second, r); });
  };
  std::vector<Candidate> candidates;
  std::array<Point, 3> mids{}, outs{};
  std::array<TextStyle, 3> styles{};
  for (std::size_t k = 0; k < 3; ++k) {
    const Vec3& mid = edge_base[k];
    const Point m = fit(v.flat(mid));
    Point out{m.x - centre.x, m.y - centre.y};
    if (k == 2) out = {-1, 0};
    const double len = std::hypot(out.x, out.y);
    out = {out.x / len, out.y / len};
    const bool sideways = std::abs(out.x) > std::abs(out.y);
    styles[k] = {th.tick, th.text, sideways ? (out.x < 0 ? HAlign::kRight : HAlign::kLeft) : HAlign::kCenter,
                 sideways ? VAlign::kMiddle : (out.y > 0 ? VAlign::kTop : VAlign::kBottom)};
    mids[k] = m, outs[k] = out;
    Vec3 end = mid;
    end[k] = 1;
    const Point e = fit(v.flat(end));
    const double edge_px = 2 * std::hypot(e.x - m.x, e.y - m.y);
    for (const auto& t : fit_ticks(b.range[k].first, b.range[k].second, edge_px, k != 2)) {
      Vec3 p = mid;
      p[k] = b.unit(k, t.value);
      const Point tp = fit(v.flat(p));
      Label l{t.label, {}, styles[k]};
      for (double d = 9; d < 40; d += 1) {
        l.at = {tp.x + d * out.x, tp.y + d * out.y};
        if (clears_box(l)) break;
      }
      candidates.push_back({k, std::abs(p[k]), tp, l});
    }
  }
  // Labels near the middle of their edge first, then towards the corners, where the axes
  // meet: a label is kept only when it stays kLabelGap away from those kept ("2" of one axis
  // and "−2" of the next would read as one).
  std::stable_sort(candidates.begin(), candidates.end(), [](const Candidate& x, const Candidate& y) { return x.from_middle < y.from_middle; });
  std::vector<Rect> kept;
  std::array<double, 3> reach{};
  for (const Candidate& c : candidates) {
    const Rect r = text_box(c.label);
    if (!clears_box(c.label) ||
        std::any_of(kept.begin(), kept.end(), [&](const Rect& k) { return k.inflated(kLabelGap / 2).overlaps(r.inflated(kLabelGap / 2)); }))
      continue;
    kept.push_back(r);
    const Point out = outs[c.axis];
    b.tick_marks.push_back({c.tick, {c.tick.x + 5 * out.x, c.tick.y + 5 * out.y}});
    b.tick_labels.push_back({static_cast<char>('x' + c.axis), c.label});
    // How far the label reaches out from the edge: the axis name goes beyond.
    const double far = std::max({(r.x - c.tick.x) * out.x, (r.right() - c.tick.x) * out.x, 0.0}) +
                       std::max({(r.y - c.tick.y) * out.y, (r.bottom() - c.tick.y) * out.y, 0.0});
    reach[c.axis] = std::max(reach[c.axis], far);
  }
  std::sort(b.tick_labels.begin(), b.tick_labels.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  for (std::size_t k = 0; k < 3 && k < f.axis_labels.size(); ++k) {
    const Point m = mids[k], out = outs[k];
    const bool sideways = styles[k].v == VAlign::kMiddle;
    Label l{f.axis_labels[k], {}, {th.label, th.text, sideways ? styles[k].h : HAlign::kCenter, styles[k].v}};
    for (double d = std::max(reach[k], 9.0) + 8; d < 200; d += 2) {
      l.at = {m.x + d * out.x, m.y + d * out.y};
      const Rect r = text_box(l).inflated(kLabelGap / 2);
      if (clears_box(l) && std::none_of(kept.begin(), kept.end(), [&](const Rect& k2) { return k2.inflated(kLabelGap / 2).overlaps(r); }))
        break;
    }
    kept.push_back(text_box(l));
    b.axis_labels.push_back(l);
  }
  return b;
}

}  // namespace

void scatter_3d_layout(const ScatterFigure& f, const Rect& area, FigureLayout& out) {
  const Box3d b = plan_3d(f, area, false);
  out.plots = {b.bounds};
  out.edges = b.edges;
  for (const auto& [part, label] : b.tick_labels) add_texts(out, part, {label});
  add_texts(out, 'a', b.axis_labels);
}

void draw_scatter_3d(Canvas& c, const ScatterFigure& f, const Rect& area, bool bare) {
  const Theme& th = theme();
  const Box3d b = plan_3d(f, area, bare);
  for (const auto& [p, q] : b.edges) c.polyline({p, q}, kBox, 1.0);
  std::vector<Point> px(f.points.rows());
  std::vector<double> depth(px.size());
  for (std::size_t r = 0; r < px.size(); ++r) {
    const Vec3 p{b.unit(0, f.points(r, 0)), b.unit(1, f.points(r, 1)), b.unit(2, f.points(r, 2))};
    px[r] = b.fit(b.v.flat(p));
    depth[r] = dot(p, b.v.eye);
  }
  if (bare) return draw_points(c, f, px, depth, true);
  for (const auto& [p, q] : b.tick_marks) c.polyline({p, q}, th.axis, 1.0);
  for (const auto& [part, label] : b.tick_labels) draw_label(c, label);
  for (const Label& l : b.axis_labels) draw_label(c, l);
  draw_points(c, f, px, depth, false);
}

}  // namespace posenc::render
