#include "posenc/encodings/bias_kernels.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>

#include "posenc/error.hpp"

namespace posenc::encodings {

KerpleKind parse_kerple_kind(const std::string& name) {
  if (name == "log") return KerpleKind::kLog;
  if (name == "power") return KerpleKind::kPower;
  throw Error(fmt::format("--kind must be log or power (got '{}')", name));
}

double kerple_bias(KerpleKind kind, double p, double a, std::int64_t n) {
  const auto d = static_cast<double>(n);
  if (kind == KerpleKind::kLog) return 0.0 - p * std::log1p(a * d);  // 0 - x: no "-0" at n = 0
  return 0.0 - a * std::pow(d, p);
}

KerpleHeads kerple_heads(KerpleKind kind, const std::vector<double>& p, const std::vector<double>& a) {
  if (p.empty() || a.empty()) throw Error(fmt::format("--{} needs at least one value", p.empty() ? "p" : "a"));
  if (p.size() != a.size() && p.size() != 1 && a.size() != 1)
    throw Error(fmt::format("--p and --a give one value per head: {} and {} values (give equal lists, or one value "
                            "for every head)",
                            p.size(), a.size()));
  // chijames/KERPLE clamps both to eps = 0.01 (and power's p to 2) before every use; NeMo clamps
  // nothing and starts p at the ALiBi slopes (1/256 for 8 heads): p below eps is warned, not refused.
  constexpr double kEps = 0.01;
  KerpleHeads h;
  std::vector<double> below;
  for (double v : p) {
    if (!(v > 0) || !std::isfinite(v) || (kind == KerpleKind::kPower && v > 2))
      throw Error(fmt::format("--p must be in (0, {}] for kerple {} (got {}{})", kind == KerpleKind::kPower ? "2" : "inf",
                              kind == KerpleKind::kPower ? "power" : "log", v,
                              kind == KerpleKind::kPower && v > 2 ? "; KERPLE clamps p to [0.01, 2]" : ""));
    if (v < kEps) below.push_back(v);
  }
  if (!below.empty())
    h.warnings.push_back(fmt::format("--p {} below 0.01, where chijames/KERPLE clamps p (its eps): kept as given, as "
                                     "NVIDIA/NeMo does (it starts p at the ALiBi slopes, down to 1/256)",
                                     fmt::join(below, ",")));
  for (double v : a)
    if (!(v >= kEps) || !std::isfinite(v))
      throw Error(fmt::format("--a must be at least 0.01 (got {}; KERPLE clamps a to 0.01 and above)", v));
  const std::size_t heads = std::max(p.size(), a.size());
  for (std::size_t k = 0; k < heads; ++k) {
    h.p.push_back(p.size() == 1 ? p[0] : p[k]);
    h.a.push_back(a.size() == 1 ? a[0] : a[k]);
  }
  return h;
}

double sandwich_numerator(std::int64_t n, std::int64_t dim) {
  // Σ (cos(nω_k) − 1) = −2 Σ sin²(nω_k/2): the same sum without cancelling against d/2 at small n.
  double s = 0.0;
  for (std::int64_t k = 1; k <= dim / 2; ++k) {
    const double w = 1.0 / std::pow(10000.0, 2.0 * static_cast<double>(k) / static_cast<double>(dim));
    const double h = std::sin(static_cast<double>(n) * w / 2);
    s -= 2 * h * h;
  }
  return s;
}

double sandwich_bias(std::int64_t n, std::int64_t dim, std::int64_t head, std::int64_t heads) {
  return sandwich_numerator(n, dim) / (8.0 * static_cast<double>(head) / static_cast<double>(heads));
}

double fire_input(std::int64_t i, std::int64_t j, double c, double threshold, double eps) {
  const double num = std::log1p(std::abs(c * static_cast<double>(i - j)));
  const double den = std::log1p(std::abs(c * std::max(static_cast<double>(i), threshold)));
  return num / (den + eps);
}

}  // namespace posenc::encodings
