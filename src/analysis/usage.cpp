// Frequency usage from q/k weights (usage.hpp): per layer, head and pair.
#include "posenc/analysis/usage.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

#include "posenc/memory.hpp"
#include "posenc/models/qk_kernels.hpp"
#include "posenc/parallel.hpp"
#include "posenc/rope/rope_bounds.hpp"

namespace posenc::analysis {
namespace {

/// One head's numbers: 6 per pair (q_norm, k_norm, pair_cos, k_pair_cos, rho, phi); scratch
/// rows for tensors that are not stored as float32 or BF16 (decoded a row at a time).
struct UsageHeadWork {
  std::vector<float> scratch;
  std::vector<double> out;
};

constexpr std::size_t kUsagePerPair = 6;

double usage_cosine(double ab, double aa, double bb) { return aa > 0 && bb > 0 ? ab / std::sqrt(aa * bb) : 0.0; }

}  // namespace

UsageReport frequency_usage(const models::QkModel& m, const UsageOptions& o) {
  UsageReport r;
  r.model = m;
  r.model.files.reset();
  r.pairs = m.rotary_dim / 2;
  for (std::int64_t i = 0; i < r.pairs; ++i)
    r.theta.push_back(std::pow(m.base, -2.0 * static_cast<double>(i) / static_cast<double>(m.rotary_dim)));
  const auto total = static_cast<std::uint64_t>(m.layers * m.heads * r.pairs);
  check_memory(total * 6, sizeof(double), "usage arrays (6 × layers × heads × pairs)");
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (auto* v : {&r.q_norm, &r.k_norm, &r.pair_cos, &r.k_pair_cos, &r.rho, &r.phi}) v->assign(total, nan);
  r.rope_layer.assign(static_cast<std::size_t>(m.layers), false);
  const std::int64_t group = m.heads / m.kv_heads;
  for (std::int64_t l = 0; l < m.layers; ++l) {
    const models::QkLayer layer = models::read_qk_layer(m, l);
    r.rope_layer[static_cast<std::size_t>(l)] = layer.rope;
    if (!layer.rope) continue;
    const auto cols = static_cast<std::size_t>(layer.q.m->cols);
    const std::vector<float> ones(cols, 1.0f);
    const float* gq = layer.q.col_gain.empty() ? ones.data() : layer.q.col_gain.data();
    const float* gk = layer.k.col_gain.empty() ? ones.data() : layer.k.col_gain.data();
    pipeline<UsageHeadWork>(
        static_cast<std::size_t>(m.heads), 1,
        [&](std::size_t head, std::size_t, UsageHeadWork& w) {
          w.scratch.resize(4 * cols);
          w.out.assign(static_cast<std::size_t>(r.pairs) * kUsagePerPair, 0.0);
          const auto h = static_cast<std::int64_t>(head), hk = h / group;
          for (std::int64_t i = 0; i < r.pairs; ++i) {
            const models::QkRowPtr a = layer.q.pair_row(h, i, 0, w.scratch.data());
            const models::QkRowPtr b = layer.q.pair_row(h, i, 1, w.scratch.data() + cols);
            const models::QkRowPtr x = layer.k.pair_row(hk, i, 0, w.scratch.data() + 2 * cols);
            const models::QkRowPtr y = layer.k.pair_row(hk, i, 1, w.scratch.data() + 3 * cols);
            const models::QkPairSums p = models::qk_pair_sums(a, b, x, y, gq, gk, cols);
            // a q/k norm's gain scales whole rows: applied to the sums
            const double ga = layer.q.pair_row_gain(h, i, 0), gb = layer.q.pair_row_gain(h, i, 1);
            const double gx = layer.k.pair_row_gain(hk, i, 0), gy = layer.k.pair_row_gain(hk, i, 1);
            const double qaa = p.qaa * ga * ga, qbb = p.qbb * gb * gb, qab = p.qab * ga * gb;
            const double kaa = p.kaa * gx * gx, kbb = p.kbb * gy * gy, kab = p.kab * gx * gy;
            const double c00 = p.c00 * ga * gx, c01 = p.c01 * ga * gy, c10 = p.c10 * gb * gx, c11 = p.c11 * gb * gy;
            const double c = c00 + c11, s = c10 - c01;
            double* out = w.out.data() + static_cast<std::size_t>(i) * kUsagePerPair;
            out[0] = std::sqrt(qaa + qbb);
            out[1] = std::sqrt(kaa + kbb);
            out[2] = usage_cosine(qab, qaa, qbb);
            out[3] = usage_cosine(kab, kaa, kbb);
            out[4] = std::hypot(c, s);
            out[5] = std::atan2(s, c);
          }
        },
        [&](std::size_t h, std::size_t, UsageHeadWork& w) {
          for (std::int64_t i = 0; i < r.pairs; ++i) {
            const std::size_t at = r.at(l, static_cast<std::int64_t>(h), i);
            const double* v = w.out.data() + static_cast<std::size_t>(i) * kUsagePerPair;
            r.q_norm[at] = v[0];
            r.k_norm[at] = v[1];
            r.pair_cos[at] = v[2];
            r.k_pair_cos[at] = v[3];
            r.rho[at] = v[4];
            r.phi[at] = v[5];
          }
        });
  }
  r.summary = summarize_usage(r, o);
  return r;
}

UsageSummary summarize_usage(const UsageReport& r, const UsageOptions& o) {
  UsageSummary s;
  const auto& m = r.model;
  const auto P = static_cast<std::size_t>(r.pairs);
  s.mean_rho.assign(P, 0.0);
  s.mean_q_norm.assign(P, 0.0);
  s.mean_k_norm.assign(P, 0.0);
  s.high_band = o.high_band > 0 ? std::min(o.high_band, r.pairs) : std::max<std::int64_t>(1, r.pairs / 4);
  s.positional_share = o.positional_share;
  const double two_pi = 2 * std::numbers::pi;
  const auto T = static_cast<double>(m.train_len);
  double n = 0, long_rho = 0, all_rho = 0;
  for (std::int64_t l = 0; l < m.layers; ++l) {
    if (!r.rope_layer[static_cast<std::size_t>(l)]) continue;
    const double base = m.layer_base[static_cast<std::size_t>(l)];
    for (std::int64_t h = 0; h < m.heads; ++h) {
      n += 1;
      double high = 0, head = 0, best = -1;
      std::int64_t top = 0;
      for (std::int64_t i = 0; i < r.pairs; ++i) {
        const std::size_t at = r.at(l, h, i);
        const double theta = std::pow(base, -2.0 * static_cast<double>(i) / static_cast<double>(m.rotary_dim));
        s.mean_rho[static_cast<std::size_t>(i)] += r.rho[at];
        s.mean_q_norm[static_cast<std::size_t>(i)] += r.q_norm[at];
        s.mean_k_norm[static_cast<std::size_t>(i)] += r.k_norm[at];
        all_rho += r.rho[at];
        if (T > 0 && two_pi / theta > T) long_rho += r.rho[at];
        head += r.rho[at];
        if (i < s.high_band) {
          high += r.rho[at];
          if (r.rho[at] > best) best = r.rho[at], top = i;
        }
      }
      if (head > 0 && high / head >= o.positional_share) {
        const double theta = std::pow(base, -2.0 * static_cast<double>(top) / static_cast<double>(m.rotary_dim));
        s.positional.push_back({l, h, high / head, top, r.phi[r.at(l, h, top)] / theta});
      }
    }
  }
  if (n > 0)
    for (std::size_t i = 0; i < P; ++i) {
      s.mean_rho[i] /= n;
      s.mean_q_norm[i] /= n;
      s.mean_k_norm[i] /= n;
    }
  s.long_share = all_rho > 0 ? long_rho / all_rho : 0.0;
  for (const double t : r.theta)
    if (T > 0 && two_pi / t > T) ++s.long_pairs;
  s.critical_dimension = m.train_len > 0 ? rope::critical_dimension(m.rotary_dim, m.base, m.train_len) : 0;
  std::stable_sort(s.positional.begin(), s.positional.end(),
                   [](const PositionalHead& a, const PositionalHead& b) { return a.high_share > b.high_share; });
  return s;
}

}  // namespace posenc::analysis
