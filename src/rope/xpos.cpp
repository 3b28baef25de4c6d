#include "posenc/rope/xpos.hpp"

#include <fmt/format.h>

#include <cmath>

#include "posenc/rope/schemes.hpp"
#include "posenc/error.hpp"

namespace posenc::rope {

void check_xpos(const XposOptions& o) {
  if (o.dim < 2 || o.dim % 2 != 0) throw Error(fmt::format("--dim must be even and at least 2 for xpos (got {})", o.dim));
  if (!(o.scale_base >= 1) || !std::isfinite(o.scale_base))
    throw Error(fmt::format("--scale-base must be a finite number >= 1 (got {})", o.scale_base));
  if (!(o.base > 1) || !std::isfinite(o.base))
    throw Error(fmt::format("--base must be a finite number > 1 (got {})", o.base));
}

std::vector<double> xpos_zeta(std::int64_t dim) {
  std::vector<double> z(static_cast<std::size_t>(dim / 2));
  const double d = static_cast<double>(dim);
  for (std::size_t i = 0; i < z.size(); ++i) z[i] = (2.0 * static_cast<double>(i) + 0.4 * d) / (1.4 * d);
  return z;
}

std::vector<double> xpos_theta(const XposOptions& o) {
  std::vector<double> th(static_cast<std::size_t>(o.dim / 2));
  for (std::size_t i = 0; i < th.size(); ++i)
    th[i] = std::pow(o.base, -2.0 * static_cast<double>(i) / static_cast<double>(o.dim));
  return th;
}

std::int64_t xpos_centre(const XposOptions& o) {
  if (o.centre == XposCentre::kZero) return 0;
  // torchscale: min_pos = -(L) // 2 in Python (floor), so c = -floor(-L/2) = ceil(L/2).
  return o.convention == XposConvention::kTorchscale ? (o.len + 1) / 2 : o.len / 2;
}

double xpos_scale(const XposOptions& o, double zeta_i, std::int64_t t, XposRole role) {
  const double power = static_cast<double>(t - xpos_centre(o)) / o.scale_base;
  return std::pow(zeta_i, role == XposRole::kQuery ? power : -power);
}

void xpos_row(const XposOptions& o, const std::vector<double>& zeta, const std::vector<double>& theta, XposTable table,
              XposRole role, std::int64_t t, double* out) {
  for (std::size_t i = 0; i < zeta.size(); ++i) {
    const double s = xpos_scale(o, zeta[i], t, role);
    const double a = static_cast<double>(t) * theta[i];
    const double v = table == XposTable::kScale ? s : table == XposTable::kCos ? std::cos(a) * s : std::sin(a) * s;
    out[2 * i] = out[2 * i + 1] = v;
  }
}

double xpos_score(const XposOptions& o, const std::vector<double>& q, const std::vector<double>& k, std::int64_t m,
                  std::int64_t n, XposRole key_role) {
  const auto zeta = xpos_zeta(o.dim);
  const auto theta = xpos_theta(o);
  double sum = 0;
  for (std::size_t i = 0; i < zeta.size(); ++i) {
    // x' = x·cos·s + rotate_every_two(x)·sin·s, rotate_every_two(x)_(2i, 2i+1) = (−x_(2i+1), x_(2i)).
    const auto rotate = [&](const std::vector<double>& x, std::int64_t t, XposRole role, double& a, double& b) {
      const double s = xpos_scale(o, zeta[i], t, role);
      const double c = std::cos(static_cast<double>(t) * theta[i]), si = std::sin(static_cast<double>(t) * theta[i]);
      a = (x[2 * i] * c - x[2 * i + 1] * si) * s;
      b = (x[2 * i + 1] * c + x[2 * i] * si) * s;
    };
    double q0 = 0, q1 = 0, k0 = 0, k1 = 0;
    rotate(q, m, XposRole::kQuery, q0, q1);
    rotate(k, n, key_role, k0, k1);
    sum += q0 * k0 + q1 * k1;
  }
  return sum;
}

XposOptions xpos_options(const ParamMap& p) {
  XposOptions o;
  o.dim = p.integer("dim");
  o.base = p.number("base");
  o.scale_base = p.number("scale-base");
  o.centre = p.text("centre") == "zero" ? XposCentre::kZero : XposCentre::kMiddle;
  o.convention = p.text("convention") == "lucidrains" ? XposConvention::kLucidrains : XposConvention::kTorchscale;
  o.len = p.integer("len");
  check_xpos(o);
  return o;
}

encodings::SchemeInfo xpos_scheme() {
  return {"xpos",
          "xPos (Sun et al. 2022): RoPE on interleaved pairs times a per-pair scale zeta_i^((t-c)/gamma) on queries "
          "and its reciprocal on keys, as torchscale and lucidrains' rotary-embedding-torch / x-transformers compute it",
          "zeta_i = (2i + 0.4d)/(1.4d); scale = zeta_i^(+-(t - c)/gamma); cos/sin = cos/sin(t·base^(-2i/d))·scale; "
          "c = ceil(L/2) (torchscale), floor(L/2) (lucidrains) or 0 (--centre zero, the paper)",
          {encodings::len_param(),
           encodings::pair_dim_param(64, "head dimension d (even; pairs (2i, 2i+1))"),
           {"base", "RoPE base of theta_i = base^(-2i/d) (torchscale: 10000)", 10000.0, {}, 1.0, 1e300},
           {"scale-base", "gamma, the length over which zeta_i's power grows by 1 (xpos_scale_base: 512)", 512.0, {},
            1.0, 1e300},
           {"centre", "exponent (t - c): middle of the sequence (every implementation) or zero (the paper's t)",
            std::string("middle"), {"middle", "zero"}},
           {"convention", "the middle for odd --len: torchscale c = ceil(L/2) (-L // 2), lucidrains c = floor(L/2) "
                          "(rotary-embedding-torch, x-transformers)",
            std::string("torchscale"), {"torchscale", "lucidrains"}},
           {"role", "query (scale zeta^((t-c)/gamma)) or key (its reciprocal, torchscale's downscale=True)",
            std::string("query"), {"query", "key"}},
           {"key-scale", "reciprocal (xPos) or same: keys scaled like queries, the bug that makes the score depend on "
                         "m + n (check xpos-relative then fails)",
            std::string("reciprocal"), {"reciprocal", "same"}},
           {"table", "scale (zeta_i^(+-(t-c)/gamma)), cos or sin (cos/sin(t theta_i) times the scale: what q or k is "
                     "multiplied by)",
            std::string("scale"), {"scale", "cos", "sin"}}},
          [](const ParamMap& p) -> std::unique_ptr<Table> {
            const XposOptions o = xpos_options(p);
            const std::string table = p.text("table");
            const XposTable kind = table == "cos" ? XposTable::kCos : table == "sin" ? XposTable::kSin : XposTable::kScale;
            const bool key = p.text("role") == "key";
            const XposRole role = key && p.text("key-scale") == "reciprocal" ? XposRole::kKey : XposRole::kQuery;
            const auto len = static_cast<std::size_t>(o.len), dim = static_cast<std::size_t>(o.dim);
            TableInfo info = encodings::make_info("xpos", p, {len, dim});
            info.value_name = table;
            info.results = {{"centre", xpos_centre(o)}, {"zeta", xpos_zeta(o.dim)}};
            info.title = fmt::format("xPos {} of the {} (d={}, scale base {}, centre {})", table, key ? "key" : "query",
                                     o.dim, o.scale_base, xpos_centre(o));
            if (key && role == XposRole::kQuery)
              info.notes.push_back("--key-scale same: keys scaled like queries (not xPos: q·k depends on m + n)");
            return std::make_unique<RowFunctionTable>(
                std::move(info), [o, kind, role, zeta = xpos_zeta(o.dim), theta = xpos_theta(o)](
                                     std::size_t t, std::span<double> out) {
                  xpos_row(o, zeta, theta, kind, role, static_cast<std::int64_t>(t), out.data());
                });
          }};
}

}  // namespace posenc::rope
