// RoPE beyond its training length: per-pair angles, attention entropy, resolution
// (posenc extrapolate; the bias schemes and the driver are in extrapolation_schemes.cpp).
#include "posenc/analysis/extrapolation.hpp"
#include "posenc/models/rope_settings.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numbers>

#include "posenc/encodings/learned.hpp"
#include "posenc/rope/rope_config.hpp"
#include "posenc/error.hpp"
#include "posenc/parallel.hpp"

namespace posenc::analysis {

std::string_view to_string(AngleReach r) {
  switch (r) {
    case AngleReach::kCovered: return "covered";
    case AngleReach::kWithin: return "within";
    case AngleReach::kBeyond: return "beyond";
  }
  return "?";
}

rope::RopeConfig extrapolation_rope_config(const ParamMap& rope, std::string_view method, std::int64_t train_len,
                                                std::int64_t target_len) {
  ParamMap p = rope;
  const rope::RopeScaling s = rope::parse_rope_scaling(method, "--methods");
  p.set("scaling", std::string(rope::to_string(s)), true);
  using rope::RopeScaling;
  const bool reads_factor = s != RopeScaling::kNone && s != RopeScaling::kLongrope && s != RopeScaling::kProportional;
  if (reads_factor && !(p.has("factor") && p.given("factor")))
    p.set("factor", static_cast<double>(target_len) / static_cast<double>(train_len), true);
  if (s == RopeScaling::kNone || s == RopeScaling::kProportional) p.set("factor", 0.0, false);
  if (s != RopeScaling::kNone && s != RopeScaling::kProportional) {
    p.set("original-max-position-embeddings", train_len, true);
    // The lengths compared, also over a --hf-config's (YaRN checks its factor against the ratio).
    p.set("max-position-embeddings", target_len, true);
  }
  if (s == RopeScaling::kDynamic) {
    // transformers' dynamic NTK takes max_position_embeddings as the trained length and
    // rescales the base at the current length.
    p.set("original-max-position-embeddings", std::int64_t{0}, false);
    p.set("max-position-embeddings", train_len, true);
    p.set("seq-len", target_len, true);
  }
  if (s == RopeScaling::kLongrope) {
    p.set("max-position-embeddings", target_len, true);
    p.set("seq-len", target_len, true);
  }
  // The model's own method settings (llama3's frequency factors, ...) go unread by the other
  // methods compared here by design: only a flag the user typed is worth a warning.
  rope::RopeConfig c = models::resolve_rope_config(p);
  c.warn_unread_config_settings = false;
  return c;
}

std::vector<std::int64_t> extrapolation_lengths(std::int64_t train_len, std::int64_t target_len) {
  std::vector<std::int64_t> out;
  for (std::int64_t n = 16; n < target_len; n *= 2) out.push_back(n);
  out.push_back(train_len);
  out.push_back(target_len);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::vector<std::vector<double>> extrapolation_qk(std::int64_t samples, std::uint64_t seed, std::size_t pairs) {
  std::vector<std::vector<double>> out;
  for (std::int64_t s = 0; s < samples; ++s)
    for (std::uint64_t row : {2 * static_cast<std::uint64_t>(s), 2 * static_cast<std::uint64_t>(s) + 1}) {
      std::vector<double> v(2 * pairs);
      encodings::learned_row(seed, row, 1.0, v);
      out.push_back(std::move(v));
    }
  return out;
}

namespace {

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define POSENC_ENTROPY_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define POSENC_ENTROPY_CLONES
#endif

// x[s] = Σ_i (cre[i][s]·c[i] − cim[i][s]·sn[i]) for every sample s, each sum taken over i in
// order (the same additions as one sample at a time): the samples are the vector lanes. The
// build does not contract into FMA (-ffp-contract=off), so every clone gives the same bits.
POSENC_ENTROPY_CLONES void entropy_logits(const double* __restrict cre, const double* __restrict cim,
                                          const double* __restrict c, const double* __restrict sn, std::size_t pairs,
                                          std::size_t samples, double* __restrict x) {
  for (std::size_t s = 0; s < samples; ++s) x[s] = 0;
  for (std::size_t i = 0; i < pairs; ++i) {
    const double ci = c[i], si = sn[i];
    const double* re = cre + i * samples;
    const double* im = cim + i * samples;
    for (std::size_t s = 0; s < samples; ++s) x[s] += re[s] * ci - im[s] * si;
  }
}

}  // namespace

std::vector<std::vector<std::vector<double>>> rope_attention_entropies_batch(
    const std::vector<std::span<const double>>& thetas, const std::vector<std::vector<double>>& qk,
    std::span<const std::int64_t> lengths, const std::vector<std::vector<double>>& scales) {
  const std::size_t methods = thetas.size();
  const std::size_t samples = qk.size() / 2;
  const std::size_t pairs = thetas.empty() ? 0 : thetas.front().size();
  for (const auto& t : thetas)
    if (t.size() != pairs) throw Error("rope_attention_entropies_batch: every theta needs the same number of pairs");
  // The distinct frequencies over every method (the same bits give the same angle Δ·θ, so the
  // same cos and sin): each is taken once per offset and read by every method that has it.
  std::vector<double> distinct;
  std::vector<std::size_t> column(methods * pairs);
  for (std::size_t k = 0; k < methods; ++k)
    for (std::size_t i = 0; i < pairs; ++i) {
      const double v = thetas[k][i];
      std::size_t u = 0;
      while (u < distinct.size() && std::memcmp(&distinct[u], &v, sizeof v) != 0) ++u;
      if (u == distinct.size()) distinct.push_back(v);
      column[k * pairs + i] = u;
    }
  // c_i = q̃_i · conj(k̃_i) per sample; the logit at offset Δ is scale·Σ Re[c_i e^{iΔθ_i}]. Stored
  // pair-major (pair i's samples side by side) for entropy_logits.
  std::vector<double> cre(samples * pairs), cim(samples * pairs);
  for (std::size_t s = 0; s < samples; ++s)
    for (std::size_t i = 0; i < pairs; ++i) {
      const double qa = qk[2 * s][2 * i], qb = qk[2 * s][2 * i + 1];
      const double ka = qk[2 * s + 1][2 * i], kb = qk[2 * s + 1][2 * i + 1];
      cre[i * samples + s] = qa * ka + qb * kb;
      cim[i * samples + s] = qb * ka - qa * kb;
    }
  // Streaming softmax per method, scale and sample: running max m, Z = Σ e^{x−m}, W = Σ x·e^{x−m};
  // H = m + ln Z − W/Z.
  std::vector<std::size_t> first_stream(methods + 1, 0);
  for (std::size_t k = 0; k < methods; ++k) first_stream[k + 1] = first_stream[k] + scales[k].size();
  const std::size_t streams = first_stream[methods];
  std::vector<double> m(streams * samples, -INFINITY), z(streams * samples, 0.0), w(streams * samples, 0.0);
  std::vector<std::vector<std::vector<double>>> out(methods);
  for (std::size_t k = 0; k < methods; ++k) out[k].resize(scales[k].size());
  const std::int64_t last = lengths.empty() ? 0 : lengths.back();
  std::size_t next = 0;
  // cos, sin and the unscaled logits of blocks of offsets on the worker threads (one sum serves
  // every scale: x·scale after the sum); the softmax sums on this thread, in offset order (per
  // method, scale and sample the same operations in the same order as one loop).
  constexpr std::size_t kBlock = 1024;
  struct Buffer {
    std::vector<double> cs, sn, mc, ms, x;
  };
  pipeline<Buffer>(
      static_cast<std::size_t>(std::max<std::int64_t>(last, 0)), kBlock,
      [&](std::size_t first, std::size_t count, Buffer& buf) {
        buf.cs.resize(distinct.size());
        buf.sn.resize(distinct.size());
        buf.mc.resize(pairs);
        buf.ms.resize(pairs);
        buf.x.resize(count * methods * samples);
        for (std::size_t j = 0; j < count; ++j) {
          for (std::size_t u = 0; u < distinct.size(); ++u) {
            const double a = static_cast<double>(first + j) * distinct[u];
            buf.cs[u] = std::cos(a);
            buf.sn[u] = std::sin(a);
          }
          for (std::size_t k = 0; k < methods; ++k) {
            for (std::size_t i = 0; i < pairs; ++i) {
              buf.mc[i] = buf.cs[column[k * pairs + i]];
              buf.ms[i] = buf.sn[column[k * pairs + i]];
            }
            entropy_logits(cre.data(), cim.data(), buf.mc.data(), buf.ms.data(), pairs, samples,
                           buf.x.data() + (j * methods + k) * samples);
          }
        }
      },
      [&](std::size_t first, std::size_t count, Buffer& buf) {
        for (std::size_t j = 0; j < count; ++j) {
          const auto d = static_cast<std::int64_t>(first + j);
          for (std::size_t k = 0; k < methods; ++k) {
            const double* xu = buf.x.data() + (j * methods + k) * samples;
            for (std::size_t q = 0; q < scales[k].size(); ++q) {
              const std::size_t st = (first_stream[k] + q) * samples;
              double* mq = m.data() + st;
              double* zq = z.data() + st;
              double* wq = w.data() + st;
              const double scale = scales[k][q];
              for (std::size_t s = 0; s < samples; ++s) {
                const double x = xu[s] * scale;
                if (x > mq[s]) {
                  const double r = std::exp(mq[s] - x);
                  zq[s] *= r;
                  wq[s] *= r;
                  mq[s] = x;
                }
                const double e = std::exp(x - mq[s]);
                zq[s] += e;
                wq[s] += x * e;
              }
            }
          }
          while (next < lengths.size() && lengths[next] == d + 1) {
            for (std::size_t k = 0; k < methods; ++k)
              for (std::size_t q = 0; q < scales[k].size(); ++q) {
                const std::size_t st = (first_stream[k] + q) * samples;
                double h = 0;
                for (std::size_t s = 0; s < samples; ++s)
                  h += m[st + s] + std::log(z[st + s]) - w[st + s] / z[st + s];
                out[k][q].push_back(samples == 0 ? 0.0 : h / static_cast<double>(samples));
              }
            ++next;
          }
        }
      });
  return out;
}

std::vector<std::vector<double>> rope_attention_entropies(std::span<const double> theta,
                                                          const std::vector<std::vector<double>>& qk,
                                                          std::span<const std::int64_t> lengths,
                                                          std::span<const double> scales) {
  std::vector<std::vector<double>> s = {std::vector<double>(scales.begin(), scales.end())};
  return std::move(rope_attention_entropies_batch({theta}, qk, lengths, s).front());
}

std::vector<double> rope_attention_entropy(std::span<const double> theta, const std::vector<std::vector<double>>& qk,
                                           std::span<const std::int64_t> lengths, double scale) {
  const double one[] = {scale};
  return std::move(rope_attention_entropies(theta, qk, lengths, one).front());
}

double rope_rotation_distance(std::span<const double> theta, double delta) {
  if (theta.empty()) return 0;
  double sum = 0;
  for (double t : theta) sum += 2.0 * (1.0 - std::cos(delta * t));
  return std::sqrt(sum / static_cast<double>(theta.size()));
}

double rope_resolution(std::span<const double> theta, double threshold, std::int64_t max_delta) {
  // The first integer offset that reaches the threshold, then the first crossing within the
  // unit before it: sixteenths, then bisection (D is smooth and rises from 0 at Δ = 0).
  std::int64_t k = 1;
  while (k <= max_delta && rope_rotation_distance(theta, static_cast<double>(k)) < threshold) ++k;
  if (k > max_delta) return 0;
  double lo = static_cast<double>(k - 1), hi = static_cast<double>(k);
  for (int j = 1; j < 16; ++j) {
    const double x = static_cast<double>(k - 1) + j / 16.0;
    if (rope_rotation_distance(theta, x) >= threshold) {
      hi = x;
      break;
    }
    lo = x;
  }
  // To 1e-9 of a position: finer, rounding in D would decide (an unscaled RoPE would give 1 − 1e-16).
  while (hi - lo > 1e-9) {
    const double mid = 0.5 * (lo + hi);
    (rope_rotation_distance(theta, mid) >= threshold ? hi : lo) = mid;
  }
  return hi;
}

RopeExtrapolation extrapolate_rope_settings(const rope::RopeConfig& c, std::int64_t train_len, std::int64_t target_len) {
  RopeExtrapolation r;
  r.config = c;
  r.method = std::string(rope::to_string(c.scaling));
  r.freqs = rope::compute_frequencies(c);
  const auto& orig = r.freqs.inv_freq_original;
  const auto& theta = r.freqs.inv_freq;
  const double two_pi = 2.0 * std::numbers::pi;
  for (std::size_t i = 0; i < theta.size(); ++i) {
    const double seen = static_cast<double>(train_len) * orig[i];
    const double reached = static_cast<double>(target_len) * theta[i];
    r.angle_train.push_back(seen);
    r.angle_target.push_back(reached);
    const AngleReach reach = seen >= two_pi       ? AngleReach::kCovered
                             : reached <= seen * (1 + kReachTolerance) ? AngleReach::kWithin
                                                  : AngleReach::kBeyond;
    r.reach.push_back(reach);
    (reach == AngleReach::kCovered ? r.covered : reach == AngleReach::kWithin ? r.within : r.beyond) += 1;
  }
  r.logit_scale = r.freqs.attention_factor * r.freqs.attention_factor;
  r.neighbour_distance_train = rope_rotation_distance(orig, 1.0);
  r.neighbour_distance = rope_rotation_distance(theta, 1.0);
  r.resolution = rope_resolution(theta, r.neighbour_distance_train, target_len - 1);
  return r;
}

void add_rope_entropies(std::vector<RopeExtrapolation*>& methods, std::span<const std::int64_t> lengths,
                        std::int64_t samples, std::uint64_t seed) {
  // The methods in groups of one width (one set of seeded q, k); within a group one pass over
  // the offsets, each method with its one or two scales.
  std::vector<bool> done(methods.size(), false);
  for (std::size_t a = 0; a < methods.size(); ++a) {
    if (done[a]) continue;
    std::vector<RopeExtrapolation*> group;
    for (std::size_t b = a; b < methods.size(); ++b)
      if (!done[b] && methods[b]->freqs.inv_freq.size() == methods[a]->freqs.inv_freq.size() &&
          methods[b]->config.head_dim == methods[a]->config.head_dim) {
        group.push_back(methods[b]);
        done[b] = true;
      }
    const auto qk = extrapolation_qk(samples, seed, methods[a]->freqs.inv_freq.size());
    std::vector<std::span<const double>> thetas;
    std::vector<std::vector<double>> scales;
    for (RopeExtrapolation* r : group) {
      thetas.emplace_back(r->freqs.inv_freq);
      // transformers' eager attention divides the logits by sqrt(head_dim).
      const double base_scale = 1.0 / std::sqrt(static_cast<double>(r->config.head_dim));
      scales.push_back(r->logit_scale == 1.0 ? std::vector<double>{base_scale}
                                             : std::vector<double>{base_scale, base_scale * r->logit_scale});
    }
    auto h = rope_attention_entropies_batch(thetas, qk, lengths, scales);
    for (std::size_t k = 0; k < group.size(); ++k) {
      group[k]->entropy_without_factor = std::move(h[k][0]);
      group[k]->entropy = h[k].size() > 1 ? std::move(h[k][1]) : group[k]->entropy_without_factor;
    }
  }
}

RopeExtrapolation extrapolate_rope(const rope::RopeConfig& c, std::int64_t train_len, std::int64_t target_len,
                                   std::span<const std::int64_t> lengths, std::int64_t samples, std::uint64_t seed) {
  RopeExtrapolation r = extrapolate_rope_settings(c, train_len, target_len);
  std::vector<RopeExtrapolation*> one = {&r};
  add_rope_entropies(one, lengths, samples, seed);
  return r;
}

}  // namespace posenc::analysis
