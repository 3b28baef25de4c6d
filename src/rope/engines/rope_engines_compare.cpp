// rope engines' tables: every convention's cos/sin against transformers' in one pass over the
// positions. The reference table is computed once per block of positions (compare_rope would
// compute it again for each convention), a convention whose float32 angle has the reference's
// bits reuses its cos and sin (the same function of the same float), and the float64 noise
// table takes a vectorised kernel with libm deciding only the maximum. Every number is the one
// compare_rope gives (tests/rope/engines/rope_engines_tables_test.cpp compares them).
#include "rope_engine_internal.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>

#include "posenc/error.hpp"
#include "posenc/fast_math.hpp"
#include "posenc/parallel.hpp"

namespace posenc::rope::detail::engine {
namespace {

/// How a table's float32 values are computed.
enum class TableKind {
  kGeneric,  ///< hf/meta float32: angle = float(t)·float(θ_i), cos·a in float32 (rope_pair_values)
  kEngine,   ///< a serving engine's float32 cache (values_engines<float>)
  kOther,    ///< anything else (ggml, float64): rope_pair_values position by position
};

TableKind table_kind(const RopeConfig& c) {
  if (c.precision != RopePrecision::kF32) return TableKind::kOther;
  if (c.convention == RopeConvention::kHf || c.convention == RopeConvention::kMeta) return TableKind::kGeneric;
  if (is_engine_convention(c.convention)) return TableKind::kEngine;
  return TableKind::kOther;
}

/// Per-pair maxima of one job over a run of positions: |Δcos|, |Δsin|, and max(|Δcos|, |Δsin|)
/// with the first position where it was reached (strictly greater: the first one wins).
struct PairMax {
  std::vector<double> cos, sin, worst;
  std::vector<std::int64_t> worst_position;

  void reset(std::size_t n) {
    cos.assign(n, 0.0);
    sin.assign(n, 0.0);
    worst.assign(n, -1.0);
    worst_position.assign(n, 0);
  }
  // The pairs are independent: GCC vectorises this loop (no reduction across i).
  void add(const double* rc, const double* rs, const double* c, const double* s, std::size_t n, std::int64_t t) {
    for (std::size_t i = 0; i < n; ++i) {
      const double dc = std::abs(rc[i] - c[i]);
      const double ds = std::abs(rs[i] - s[i]);
      cos[i] = std::max(cos[i], dc);
      sin[i] = std::max(sin[i], ds);
      const double m = std::max(dc, ds);
      const bool more = m > worst[i];
      worst_position[i] = more ? t : worst_position[i];
      worst[i] = more ? m : worst[i];
    }
  }
  // A run from `first` on whose differences are all 0.
  void same(std::int64_t first) {
    for (std::size_t i = 0; i < worst.size(); ++i)
      if (0.0 > worst[i]) worst[i] = 0.0, worst_position[i] = first;
  }
  // `later` covers positions after this one's: ties keep the earlier position.
  void merge(const PairMax& later) {
    for (std::size_t i = 0; i < cos.size(); ++i) {
      cos[i] = std::max(cos[i], later.cos[i]);
      sin[i] = std::max(sin[i], later.sin[i]);
      if (later.worst[i] > worst[i]) worst[i] = later.worst[i], worst_position[i] = later.worst_position[i];
    }
  }
};

/// One block of positions: the reference's table and each job's, and the maxima of the block.
struct Block {
  std::vector<float> ref_angle, ref_raw_cos, ref_raw_sin;  // reference float32 angle, cos, sin before the factor
  std::vector<double> ref_cos, ref_sin;                   // reference values as compared
  std::vector<float> angle, raw_cos, raw_sin, gather, gather_cos, gather_sin;
  std::vector<std::uint32_t> redo;
  std::vector<double> cos, sin, near_angle, near_cos, near_sin;
  std::vector<PairMax> jobs;
  double noise = 0;
};

// The reference (or a job) of kind kGeneric or kEngine: float angles of positions
// [first, first + count), then raw cos/sin (reused from the reference where the angle has its
// bits), then the values with the attention factor as the convention applies it.
// Returns false (and fills nothing) when `same_factor` (the values are the raw cos/sin times
// the reference's float32 factor) and every angle has the reference's bits: the values are the
// reference's.
bool float_table(const RopeConfig& c, const RopeFrequencies& f, std::size_t first, std::size_t count, Block& b,
                 bool reference, bool reuse, bool same_factor) {
  const std::size_t n = f.pairs();
  const std::size_t total = count * n;
  auto& ang = reference ? b.ref_angle : b.angle;
  auto& rc = reference ? b.ref_raw_cos : b.raw_cos;
  auto& rs = reference ? b.ref_raw_sin : b.raw_sin;
  auto& vc = reference ? b.ref_cos : b.cos;
  auto& vs = reference ? b.ref_sin : b.sin;
  ang.resize(total);
  rc.resize(total);
  rs.resize(total);
  vc.resize(total);
  vs.resize(total);
  const bool engine = table_kind(c) == TableKind::kEngine;
  for (std::size_t j = 0; j < count; ++j) {
    const auto pos = static_cast<std::int64_t>(first + j);
    float* a = ang.data() + j * n;
    if (engine) {  // values_engines<float>
      const float t = position_column<float>(f, pos);
      const auto& held = held_inv_freq(f, pos);
      for (std::size_t i = 0; i < n; ++i) a[i] = t * static_cast<float>(held[i]);
    } else {  // rope_pair_values, float32
      const float t = static_cast<float>(pos);
      for (std::size_t i = 0; i < n; ++i) a[i] = t * static_cast<float>(f.inv_freq[i]);
    }
  }
  if (!reuse) {
    sincos_f32_exact(ang.data(), total, rs.data(), rc.data());
  } else {
    // Angles with the reference's bits take its cos and sin; the others go to the kernel.
    std::size_t differ = 0;
    for (std::size_t k = 0; k < total; ++k)
      differ += std::bit_cast<std::uint32_t>(ang[k]) != std::bit_cast<std::uint32_t>(b.ref_angle[k]);
    if (differ == 0 && same_factor) return false;  // the reference's values, bit for bit
    b.redo.clear();
    for (std::size_t k = 0; k < total && b.redo.size() < differ; ++k)
      if (std::bit_cast<std::uint32_t>(ang[k]) != std::bit_cast<std::uint32_t>(b.ref_angle[k]))
        b.redo.push_back(static_cast<std::uint32_t>(k));
    std::copy(b.ref_raw_cos.begin(), b.ref_raw_cos.begin() + static_cast<std::ptrdiff_t>(total), rc.begin());
    std::copy(b.ref_raw_sin.begin(), b.ref_raw_sin.begin() + static_cast<std::ptrdiff_t>(total), rs.begin());
    const std::size_t m = b.redo.size();
    b.gather.resize(m);
    b.gather_cos.resize(m);
    b.gather_sin.resize(m);
    for (std::size_t k = 0; k < m; ++k) b.gather[k] = ang[b.redo[k]];
    sincos_f32_exact(b.gather.data(), m, b.gather_sin.data(), b.gather_cos.data());
    for (std::size_t k = 0; k < m; ++k) rc[b.redo[k]] = b.gather_cos[k], rs[b.redo[k]] = b.gather_sin[k];
  }
  const double att = c.apply_attention_factor ? f.attention_factor : 1.0;
  if (engine && f.attention_in_f64) {  // numpy: float32 cos times a float64 scalar, cast back
    for (std::size_t k = 0; k < total; ++k) {
      vc[k] = static_cast<double>(static_cast<float>(static_cast<double>(rc[k]) * att));
      vs[k] = static_cast<double>(static_cast<float>(static_cast<double>(rs[k]) * att));
    }
  } else {
    const auto a = static_cast<float>(att);
    for (std::size_t k = 0; k < total; ++k) {
      vc[k] = static_cast<double>(rc[k] * a);
      vs[k] = static_cast<double>(rs[k] * a);
    }
  }
  return true;
}

// Any convention, position by position (ggml's iterated θ, float64 tables).
void other_table(const RopeConfig& c, const RopeFrequencies& f, std::size_t first, std::size_t count,
                 std::vector<double>& vc, std::vector<double>& vs) {
  const std::size_t n = f.pairs();
  vc.resize(count * n);
  vs.resize(count * n);
  for (std::size_t j = 0; j < count; ++j) {
    const auto v = rope_pair_values(c, f, static_cast<std::int64_t>(first + j));
    std::copy(v.cos.begin(), v.cos.end(), vc.begin() + static_cast<std::ptrdiff_t>(j * n));
    std::copy(v.sin.begin(), v.sin.end(), vs.begin() + static_cast<std::ptrdiff_t>(j * n));
  }
}

// The largest |Δcos|, |Δsin| between the reference's float32 values and the float64 table of
// `c64` (its generic formula: angle t·θ_i and cos·a in double) over the block. The kernel's
// values are within kSinCos64NearError of libm's, so the differences within twice that (and
// the rounding of the subtraction) of the kernel's largest are redone with std::cos/std::sin,
// and the largest of those is libm's maximum, bit for bit.
double noise_block(const RopeConfig& c64, const RopeFrequencies& f64, std::size_t first, std::size_t count, Block& b) {
  const std::size_t n = f64.pairs();
  const std::size_t total = count * n;
  b.near_angle.resize(total);
  b.near_cos.resize(total);
  b.near_sin.resize(total);
  for (std::size_t j = 0; j < count; ++j) {
    const auto t = static_cast<double>(first + j);
    for (std::size_t i = 0; i < n; ++i) b.near_angle[j * n + i] = t * f64.inv_freq[i];
  }
  sincos_f64_near(b.near_angle.data(), total, b.near_sin.data(), b.near_cos.data());
  const double att = c64.apply_attention_factor ? f64.attention_factor : 1.0;
  double top = 0;
  for (std::size_t k = 0; k < total; ++k)
    top = std::max(top, std::max(std::abs(b.ref_cos[k] - b.near_cos[k] * att), std::abs(b.ref_sin[k] - b.near_sin[k] * att)));
  const double margin = 4 * kSinCos64NearError * std::max(1.0, std::abs(att)) + 1e-15;
  double exact = 0;
  for (std::size_t k = 0; k < total; ++k) {
    if (std::abs(b.ref_cos[k] - b.near_cos[k] * att) < top - margin &&
        std::abs(b.ref_sin[k] - b.near_sin[k] * att) < top - margin)
      continue;
    const double a = b.near_angle[k];
    exact = std::max(exact, std::abs(b.ref_cos[k] - std::cos(a) * att));
    exact = std::max(exact, std::abs(b.ref_sin[k] - std::sin(a) * att));
  }
  return exact;
}

std::string config_name(const RopeConfig& c, const char* fallback) {
  return c.config_file.empty() ? std::string(fallback) : c.config_file;
}

}  // namespace

double compare_engine_tables(const RopeConfig& reference, const RopeFrequencies& ref_freqs, const RopeConfig& ref64,
                             const RopeFrequencies& ref64_freqs, std::vector<TableJob>& jobs, std::int64_t len) {
  const std::size_t n = ref_freqs.pairs();
  for (auto& job : jobs) {
    const RopeFrequencies& fb = *job.freqs;
    if (fb.pairs() != n)
      throw Error(fmt::format("cannot compare: {} has {} frequency pairs, {} has {}",
                              config_name(reference, "the first configuration"), n, config_name(*job.config, "the second"),
                              fb.pairs()));
    RopeDiff& d = job.diff;
    d = RopeDiff{};
    d.pairs = n;
    d.attention_a = ref_freqs.attention_factor;
    d.attention_b = fb.attention_factor;
    d.same_layout = reference.layout == job.config->layout;
    for (std::size_t i = 0; i < n; ++i) {  // as compare_rope
      const double abs = std::abs(ref_freqs.inv_freq[i] - fb.inv_freq[i]);
      const double scale = std::max(std::abs(ref_freqs.inv_freq[i]), std::abs(fb.inv_freq[i]));
      const double rel = scale > 0 ? abs / scale : 0.0;
      d.inv_freq_max_abs = std::max(d.inv_freq_max_abs, abs);
      if (rel > d.inv_freq_max_rel) d.inv_freq_max_rel = rel, d.inv_freq_worst_pair = i;
      d.inv_freq_rel.push_back(rel);
    }
  }
  const TableKind ref_kind = table_kind(reference);
  const bool fast_noise = ref_kind != TableKind::kOther && table_kind(ref64) == TableKind::kOther &&
                          ref64.precision == RopePrecision::kF64 &&
                          (ref64.convention == RopeConvention::kHf || ref64.convention == RopeConvention::kMeta) &&
                          ref64_freqs.pairs() == n;
  // The noise row is one more job when it cannot take the kernel.
  std::vector<TableJob> all = jobs;
  TableJob noise_job;
  if (!fast_noise) {
    noise_job.config = &ref64;
    noise_job.freqs = &ref64_freqs;
    noise_job.len = len;
    all.push_back(noise_job);
  }
  // Whether a job's values are its raw float32 cos/sin times the reference's float32 factor.
  const auto factor = [](const RopeConfig& c, const RopeFrequencies& f) {
    return static_cast<float>(c.apply_attention_factor ? f.attention_factor : 1.0);
  };
  std::vector<bool> same_factor(all.size(), false);
  for (std::size_t k = 0; k < all.size(); ++k) {
    const TableKind kind = table_kind(*all[k].config);
    same_factor[k] = ref_kind == TableKind::kGeneric && kind != TableKind::kOther &&
                     !(kind == TableKind::kEngine && all[k].freqs->attention_in_f64) &&
                     std::bit_cast<std::uint32_t>(factor(*all[k].config, *all[k].freqs)) ==
                         std::bit_cast<std::uint32_t>(factor(reference, ref_freqs));
  }
  std::vector<PairMax> total(all.size());
  for (auto& t : total) t.reset(n);
  double noise = 0;
  // About 16384 values per block: the block's tables stay in the cache.
  const std::size_t step = std::max<std::size_t>(1, 16384 / std::max<std::size_t>(n, 1));
  pipeline<Block>(
      static_cast<std::size_t>(std::max<std::int64_t>(len, 0)), step,
      [&](std::size_t first, std::size_t count, Block& b) {
        if (ref_kind == TableKind::kOther) {
          other_table(reference, ref_freqs, first, count, b.ref_cos, b.ref_sin);
        } else {
          float_table(reference, ref_freqs, first, count, b, true, false, false);
        }
        b.jobs.resize(all.size());
        for (std::size_t k = 0; k < all.size(); ++k) {
          PairMax& pm = b.jobs[k];
          pm.reset(n);
          const auto job_len = static_cast<std::size_t>(std::max<std::int64_t>(all[k].len, 0));
          if (first >= job_len) continue;
          const std::size_t rows = std::min(count, job_len - first);
          const RopeConfig& c = *all[k].config;
          const RopeFrequencies& f = *all[k].freqs;
          if (table_kind(c) == TableKind::kOther) {
            other_table(c, f, first, rows, b.cos, b.sin);
          } else if (!float_table(c, f, first, rows, b, false, ref_kind != TableKind::kOther, same_factor[k])) {
            pm.same(first);  // every difference 0
            continue;
          }
          for (std::size_t j = 0; j < rows; ++j)
            pm.add(b.ref_cos.data() + j * n, b.ref_sin.data() + j * n, b.cos.data() + j * n, b.sin.data() + j * n, n,
                   static_cast<std::int64_t>(first + j));
        }
        b.noise = fast_noise ? noise_block(ref64, ref64_freqs, first, count, b) : 0.0;
      },
      [&](std::size_t, std::size_t, Block& b) {
        for (std::size_t k = 0; k < all.size(); ++k) total[k].merge(b.jobs[k]);
        noise = std::max(noise, b.noise);
      });
  for (std::size_t k = 0; k < all.size(); ++k) {
    RopeDiff& d = all[k].diff;
    if (k >= jobs.size()) d.pairs = n;
    const PairMax& pm = total[k];
    d.table_max_abs.assign(n, 0.0);
    double worst = -1;
    for (std::size_t i = 0; i < n; ++i) {
      d.cos_max_abs = std::max(d.cos_max_abs, pm.cos[i]);
      d.sin_max_abs = std::max(d.sin_max_abs, pm.sin[i]);
      d.table_max_abs[i] = std::max(pm.cos[i], pm.sin[i]);
      // The first (position, pair) reaching the largest difference, as one pass would find it.
      if (pm.worst[i] > worst ||
          (pm.worst[i] == worst && pm.worst_position[i] < d.table_worst_position)) {
        worst = pm.worst[i];
        d.table_worst_position = pm.worst_position[i];
        d.table_worst_pair = i;
      }
    }
    if (worst < 0) d.table_worst_position = 0, d.table_worst_pair = 0;  // no position compared
  }
  for (std::size_t k = 0; k < jobs.size(); ++k) jobs[k].diff = std::move(all[k].diff);
  if (!fast_noise) noise = std::max(all.back().diff.cos_max_abs, all.back().diff.sin_max_abs);
  return noise;
}

}  // namespace posenc::rope::detail::engine
