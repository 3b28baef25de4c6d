// RoPE beyond its training length: per-pair angles, resolution, the entropy's driver (posenc
// extrapolate; the entropy sums are in extrapolation_entropy.cpp, the bias schemes and the driver
// in extrapolation_schemes.cpp).
#include "posenc/analysis/extrapolation.hpp"
#include "posenc/models/rope_settings.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numbers>

#include "posenc/encodings/learned.hpp"
#include "posenc/rope/rope_config.hpp"
#include "posenc/error.hpp"

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
