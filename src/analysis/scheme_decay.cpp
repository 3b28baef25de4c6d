#include "posenc/analysis/scheme_decay.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "posenc/analysis/relative_decay.hpp"
#include "posenc/analysis/rope_identity.hpp"
#include "posenc/analysis/scheme_traits.hpp"
#include "posenc/encodings/alibi.hpp"
#include "posenc/encodings/bias_kernels.hpp"
#include "posenc/encodings/deberta.hpp"
#include "posenc/schemes/registry.hpp"
#include "posenc/error.hpp"

namespace posenc::analysis {
namespace {

DecayCurves alibi_curves(const ParamMap& p, const DecayRequest& r) {
  // the variant's slopes (--hf-config's model: BLOOM's float32, Falcon's bfloat16, MPT's gen_slopes)
  const auto variant = encodings::parse_alibi_variant(p.text("variant"));
  const auto slopes = encodings::alibi_slopes_for(variant, p.integer("heads"), p.number("bias-max"));
  const std::int64_t only = p.integer("head");
  DecayCurves out;
  for (std::size_t h = 0; h < slopes.size(); ++h)
    if (only < 0 || static_cast<std::size_t>(only) == h) {
      auto values = alibi_decay(slopes[h], r.offsets, is_causal("alibi", p));
      if (variant != encodings::AlibiVariant::kPaper)  // −m·|Δ| in the variant's arithmetic (float32, bfloat16)
        for (std::size_t k = 0; k < values.size(); ++k)
          if (std::isfinite(values[k]))
            values[k] = encodings::alibi_bias_in(variant, slopes[h], 0, std::abs(r.offsets[k]),
                                                 encodings::AlibiForm::kSymmetric, 1);
      out.series.push_back({fmt::format("head {} (m={})", h, slopes[h]), std::move(values)});
    }
  out.method = "formula: bias -m*|delta| (causal: later keys masked)";
  return out;
}

// A bias of the distance per head, −inf for later keys (Δ > 0) when causal.
template <class F, class N>
DecayCurves distance_curves(const ParamMap& p, const DecayRequest& r, std::size_t heads, F bias_of, N name_of,
                            std::string method, const std::string& scheme) {
  const std::int64_t only = p.integer("head");
  const bool causal = is_causal(scheme, p);
  DecayCurves out;
  for (std::size_t h = 0; h < heads; ++h) {
    if (only >= 0 && static_cast<std::size_t>(only) != h) continue;
    std::vector<double> v;
    for (std::int64_t d : r.offsets)
      v.push_back(causal && d > 0 ? -std::numeric_limits<double>::infinity() : bias_of(h, d < 0 ? -d : d));
    out.series.push_back({name_of(h), std::move(v)});
  }
  out.method = std::move(method);
  return out;
}

DecayCurves kerple_curves(const ParamMap& p, const DecayRequest& r) {
  const auto kind = encodings::parse_kerple_kind(p.text("kind"));
  const auto heads = encodings::kerple_heads(kind, p.list("p"), p.list("a"));
  if (p.integer("head") >= static_cast<std::int64_t>(heads.p.size()))
    throw Error(fmt::format("--head must be below the {} heads (got {}; heads are 0-based)", heads.p.size(), p.integer("head")));
  return distance_curves(
      p, r, heads.p.size(),
      [&](std::size_t h, std::int64_t n) { return encodings::kerple_bias(kind, heads.p[h], heads.a[h], n); },
      [&](std::size_t h) { return fmt::format("head {} (p={}, a={})", h, heads.p[h], heads.a[h]); },
      kind == encodings::KerpleKind::kLog ? "formula: bias -p*ln(1+a*|delta|)" : "formula: bias -a*|delta|^p", "kerple");
}

DecayCurves sandwich_curves(const ParamMap& p, const DecayRequest& r) {
  const std::int64_t d = p.integer("dim"), heads = p.integer("heads");
  if (d % 2 != 0) throw Error(fmt::format("--dim must be even for sandwich (got {})", d));
  if (p.integer("head") >= heads)
    throw Error(fmt::format("--head must be below the {} heads (got {}; heads are 0-based)", heads, p.integer("head")));
  return distance_curves(p, r, static_cast<std::size_t>(heads),
                         [&](std::size_t h, std::int64_t n) {
                           return encodings::sandwich_bias(n, d, static_cast<std::int64_t>(h) + 1, heads);
                         },
                         [&](std::size_t h) { return fmt::format("head {} (divisor {})", h, 8.0 * static_cast<double>(h + 1) / static_cast<double>(heads)); },
                         "formula: bias (sum_k cos(|delta| w_k) - d/2)/(8h/H)", "sandwich");
}

// FIRE's input depends on the query position T = from (its normaliser psi(max(T, L))).
DecayCurves fire_curves(const ParamMap& p, const DecayRequest& r) {
  std::vector<double> v;
  for (std::int64_t d : r.offsets)
    v.push_back(encodings::fire_input(r.from, r.from + d, p.number("c"), p.number("threshold"), p.number("eps")));
  return {{{fmt::format("input at T={}", r.from), std::move(v)}},
          "formula: ln(|c delta|+1)/(ln(|c max(T, L)|+1)+eps), the input of FIRE's MLP", false, false, false};
}

DecayCurves t5_curves(const ParamMap& p, const DecayRequest& r) {
  const encodings::T5Options t5{p.integer("buckets"), p.integer("max-distance"), !is_causal("t5", p)};
  encodings::check_t5(t5);
  return {{{"bucket", t5_decay(t5, r.offsets)}}, "formula: bucket of rp = delta", false, false, false};
}

// DeBERTa reads the bucket of query − key = −Δ (Δ = key − query, as t5).
DecayCurves deberta_curves(const ParamMap& p, const DecayRequest& r) {
  encodings::DebertaOptions o;
  o.buckets = p.integer("buckets");
  o.max_relative = p.integer("max-relative");
  o.impl = p.text("impl") == "microsoft" ? encodings::DebertaImpl::kMicrosoft : encodings::DebertaImpl::kHf;
  const std::string idx = p.text("index");
  o.index = idx == "c2p" ? encodings::DebertaIndex::kC2p : idx == "p2c" ? encodings::DebertaIndex::kP2c
                                                                         : encodings::DebertaIndex::kBucket;
  encodings::check_deberta(o);
  std::vector<double> v;
  for (std::int64_t d : r.offsets) v.push_back(static_cast<double>(encodings::deberta_value(-d, o)));
  return {{{idx, std::move(v)}}, "formula: " + idx + " of query - key = -delta", false, false, false};
}

// <R_T q, R_{T+Δ} k> for the chosen q, k (closed form, independent of T), then RoFormer's bound
// and the q = k = ones curve as extras.
DecayCurves rope_curves(const ParamMap& p, const DecayRequest& r) {
  const auto view = rope_view(scheme_table("rope", p, 1)->info());
  const auto c = make_rope_case(view.theta, view.layout, 1, parse_qk(r.qk), r.seed);
  const Metric metric = parse_metric(r.metric);
  const bool interleaved = view.layout == RopeLayout::kInterleaved;
  auto score = metric == Metric::kDistance ? rope_qk_distance(view.theta, c.q, c.k, interleaved, r.offsets)
                                           : rope_qk_decay(view.theta, c.q, c.k, interleaved, r.offsets);
  const double qq = dot(c.q, c.q), kk = dot(c.k, c.k);
  if (metric != Metric::kDistance)
    for (double& v : score) v = metric_from_dot(metric, v, qq, kk);  // rotations keep |q|, |k|
  const std::string vectors = r.qk == "ones"   ? "q=k=ones"
                              : r.qk == "same" ? fmt::format("q=k random (seed {})", r.seed)
                                               : fmt::format("q, k random (seed {})", r.seed);
  DecayCurves out;
  out.uses_metric = out.uses_qk = out.has_extras = true;
  // Extras first. RoFormer's relative bound (1/(d/2)) Σ|S_j| bounds |score| / ((d/2)·max|h_(i+1) − h_i|),
  // not the score: drawn on the score's axis it lay below the curve it bounds. It is scaled here
  // to the bound on |score| itself (on |cosine| for the cosine); a distance has no such bound.
  if (r.extras && metric != Metric::kDistance) {
    const double half = static_cast<double>(view.theta.size());
    double scale = half * roformer_step(view.theta, c.q, c.k, interleaved);
    if (metric == Metric::kCosine) scale /= std::sqrt(qq * kk);
    auto bound = roformer_bound(view.theta, r.offsets);
    for (double& v : bound) v *= scale;
    out.series.push_back({metric == Metric::kDot ? "roformer bound on |q.k|" : "roformer bound on |cosine|",
                          std::move(bound)});
  }
  if (r.extras && r.qk != "ones") {  // the ones curve in the same metric as the main one
    const auto ones = make_rope_case(view.theta, view.layout, 1, QkChoice::kOnes, 0);
    auto v = metric == Metric::kDistance ? rope_qk_distance(view.theta, ones.q, ones.k, interleaved, r.offsets)
                                         : rope_ones_dot(view.theta, r.offsets);
    const double nn = dot(ones.q, ones.q);
    if (metric != Metric::kDistance)
      for (double& x : v) x = metric_from_dot(metric, x, nn, nn);
    out.series.push_back({r.metric == "dot" ? "q=k=ones" : "q=k=ones " + r.metric, std::move(v)});
  }
  out.series.push_back({r.metric == "dot" ? vectors : vectors + " " + r.metric, std::move(score)});
  out.method = fmt::format("closed form: <R_T q, R_T+delta k> = Re sum q k* e^(-i delta theta){}, theta in {}",
                           !r.extras || metric == Metric::kDistance ? ""
                           : metric == Metric::kDot ? ", RoFormer bound on |q.k| = max|h_(i+1)-h_i| sum |S_j|"
                                                    : ", RoFormer bound on |cosine| = max|h_(i+1)-h_i| sum |S_j| / (|q||k|)",
                           p.text("precision") == "f32" ? "float32 (HF's inv_freq)" : "float64");
  return out;
}

}  // namespace

ParamMap fit_len(const std::string& scheme, ParamMap params, const DecayRequest& r) {
  const std::int64_t lo = r.from + (r.offsets.empty() ? 0 : r.offsets.front());
  const std::int64_t hi = r.from + (r.offsets.empty() ? 0 : r.offsets.back());
  if (lo < 0)
    throw Error(fmt::format("--from {} with offset {} needs position {}, before position 0; "
                            "give --from {} or more (the default with --symmetric or a causal scheme)",
                            r.from, r.offsets.front(), lo, -r.offsets.front()));
  if (scheme.empty() || !params.has("len")) return params;
  if (!params.given("len")) {
    params.set("len", hi + 1, false);
  } else if (params.integer("len") <= hi) {
    throw Error(fmt::format("--len {} is too short for --from {} and --max-offset {}: position {} needs --len {} "
                            "or more (or leave --len out)",
                            params.integer("len"), r.from, std::max(-r.offsets.front(), r.offsets.back()), hi, hi + 1));
  }
  return params;
}

DecayCurves scheme_decay_curves(const std::string& scheme, const ParamMap& params, const DecayRequest& r) {
  if (scheme == "alibi") return alibi_curves(params, r);
  if (scheme == "t5") return t5_curves(params, r);
  if (scheme == "deberta") return deberta_curves(params, r);
  if (scheme == "rope") return rope_curves(params, r);
  if (scheme == "xpos") return xpos_curves(params, r);
  if (scheme == "shaw") return shaw_curves(params, r);
  if (scheme == "kerple") return kerple_curves(params, r);
  if (scheme == "sandwich") return sandwich_curves(params, r);
  if (scheme == "fire") return fire_curves(params, r);
  return table_decay_curves(*schemes::make_table(scheme, params), r);
}

double normalise_at_zero(DecayCurves& c, const std::vector<std::int64_t>& offsets) {
  const auto zero = std::find(offsets.begin(), offsets.end(), std::int64_t{0});
  if (!c.uses_metric || c.series.empty() || zero == offsets.end()) return 1.0;
  const double at = c.series.back().values[static_cast<std::size_t>(zero - offsets.begin())];
  if (!std::isfinite(at) || at == 0.0) return 1.0;
  for (auto& s : c.series)
    for (double& v : s.values) v /= at;
  return at;
}

DecayCurves table_decay_curves(const Table& table, const DecayRequest& r) {
  const Metric metric = parse_metric(r.metric);
  if (table.info().shape.size() != 2) throw Error("decay needs a 2-D table (rows = positions)");
  DecayCurves out;
  out.uses_metric = true;
  if (const auto known = known_sinusoids(table.info())) {
    out.method = "closed form: sum_k cos(w_k delta)";
    out.series.push_back({metric_name(metric), decay_sinusoids(*known, r.offsets, metric)});
  } else {
    out.method = "direct: rows of the table";
    // Only the rows from + offset are filled: the table (an --input, or a long --len) may be
    // far larger than the curve needs.
    const auto n = static_cast<std::int64_t>(table.rows());
    const auto [lo_d, hi_d] = std::minmax_element(r.offsets.begin(), r.offsets.end());
    if (r.from >= n) throw Error(fmt::format("--from {} is outside the table's {} positions", r.from, n));
    if (r.from + *hi_d >= n)
      throw Error(fmt::format("--from {} with offset {} needs position {}, outside the table's {} positions "
                              "(lower --max-offset or give more positions)",
                              r.from, *hi_d, r.from + *hi_d, n));
    const std::int64_t lo = std::min(r.from, r.from + *lo_d), hi = std::max(r.from, r.from + *hi_d);
    Matrix rows(static_cast<std::size_t>(hi - lo + 1), table.cols());
    table.fill(static_cast<std::size_t>(lo), rows.rows(), rows.data());
    out.series.push_back({metric_name(metric), decay_direct(rows, r.from - lo, r.offsets, metric)});
  }
  return out;
}

}  // namespace posenc::analysis
