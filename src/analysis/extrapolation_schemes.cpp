// The bias schemes and learned tables beyond their training length, and the driver of
// `posenc extrapolate` (RoPE is in extrapolation.cpp).
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "posenc/analysis/extrapolation.hpp"
#include "posenc/encodings/alibi.hpp"
#include "posenc/encodings/bias_kernels.hpp"
#include "posenc/schemes/registry.hpp"
#include "posenc/error.hpp"
#include "posenc/text.hpp"
#include "posenc/formats/gguf.hpp"
#include "posenc/models/layers.hpp"
#include "posenc/rope/rope_bounds.hpp"

namespace posenc::analysis {
namespace {

/// The bucket of |offset| n in one direction.
std::int64_t t5_direction_bucket(const encodings::T5Options& o, bool future, std::int64_t n) {
  return encodings::t5_bucket(future ? n : -n, o);
}

T5Direction t5_direction(const encodings::T5Options& o, bool future, std::int64_t train_len, std::int64_t target_len) {
  T5Direction d;
  d.name = future ? "future" : "past";
  d.last_bucket = o.bidirectional ? (future ? o.num_buckets - 1 : o.num_buckets / 2 - 1) : o.num_buckets - 1;
  d.saturation = t5_saturation(o, future);
  d.bucket_train = t5_direction_bucket(o, future, train_len - 1);
  d.bucket_target = t5_direction_bucket(o, future, target_len - 1);
  // Buckets are non-decreasing in |offset| but may skip values (a small max_distance), so count
  // them; past the saturation offset there is only the last one.
  const auto distinct = [&](std::int64_t up_to) {
    std::int64_t count = 0, previous = -1;
    for (std::int64_t n = future ? 1 : 0; n <= std::min(up_to, d.saturation); ++n) {
      const std::int64_t b = t5_direction_bucket(o, future, n);
      count += b != previous ? 1 : 0;
      previous = b;
    }
    return count;
  };
  d.buckets_train = distinct(train_len - 1);
  d.buckets_target = distinct(target_len - 1);
  return d;
}

/// The range of `bias(n)` over n in [0, L−1] and [0, L'−1].
template <class F>
void add_bias_range(BiasRange& out, std::int64_t train_len, std::int64_t target_len, F bias) {
  double lo = 0, hi = 0;
  for (std::int64_t n = 0; n < target_len; ++n) {
    const double b = bias(n);
    lo = n == 0 ? b : std::min(lo, b);
    hi = n == 0 ? b : std::max(hi, b);
    if (n == train_len - 1) out.min_train.push_back(lo), out.max_train.push_back(hi);
  }
  out.min_target.push_back(lo);
  out.max_target.push_back(hi);
}

BiasRange kerple_range(const ExtrapolationRequest& r) {
  BiasRange out{"kerple", {}, {}, {}, {}, {}};
  const auto heads = encodings::kerple_heads(r.kerple_kind, r.kerple_p, r.kerple_a);
  for (std::size_t h = 0; h < heads.p.size(); ++h) {
    out.labels.push_back(fmt::format("p={} a={}", heads.p[h], heads.a[h]));
    add_bias_range(out, r.train_len, r.target_len,
                   [&](std::int64_t n) { return encodings::kerple_bias(r.kerple_kind, heads.p[h], heads.a[h], n); });
  }
  return out;
}

BiasRange sandwich_range(const ExtrapolationRequest& r) {
  if (r.sandwich_dim < 2 || r.sandwich_dim % 2 != 0)
    throw Error(fmt::format("--dim must be even for sandwich (got {})", r.sandwich_dim));
  // Every head divides the same numerator by 8h/H > 0: its extremes sit at the numerator's.
  BiasRange num{"sandwich", {}, {}, {}, {}, {}};
  add_bias_range(num, r.train_len, r.target_len,
                 [&](std::int64_t n) { return encodings::sandwich_numerator(n, r.sandwich_dim); });
  BiasRange out{"sandwich", {}, {}, {}, {}, {}};
  for (std::int64_t h = 1; h <= r.heads; ++h) {
    const double divisor = 8.0 * static_cast<double>(h) / static_cast<double>(r.heads);
    out.labels.push_back(fmt::format("8h/H={}", divisor));
    out.min_train.push_back(num.min_train[0] / divisor);
    out.max_train.push_back(num.max_train[0] / divisor);
    out.min_target.push_back(num.min_target[0] / divisor);
    out.max_target.push_back(num.max_target[0] / divisor);
  }
  return out;
}

}  // namespace

const std::vector<std::string>& extrapolation_scheme_names() {
  static const std::vector<std::string> names = {"alibi", "t5", "learned", "kerple", "sandwich"};
  return names;
}

std::int64_t t5_saturation(const encodings::T5Options& o, bool future) {
  encodings::check_t5(o);
  const std::int64_t last = o.bidirectional ? (future ? o.num_buckets - 1 : o.num_buckets / 2 - 1) : o.num_buckets - 1;
  // At n ≥ 2·max_distance the log ratio exceeds 1 even in float32, so the bucket is clamped to the last.
  std::int64_t lo = 0, hi = 2 * o.max_distance;
  while (lo < hi) {
    const std::int64_t mid = lo + (hi - lo) / 2;
    if (t5_direction_bucket(o, future, mid) >= last) {
      hi = mid;
    } else {
      lo = mid + 1;
    }
  }
  return lo;
}

void set_bias_settings(ExtrapolationRequest& r, const ParamMap& alibi, const ParamMap& t5, const ParamMap& kerple) {
  r.heads = alibi.integer("heads");
  r.t5 = {t5.integer("buckets"), t5.integer("max-distance"), t5.text("mode") == "bidirectional"};
  r.kerple_kind = encodings::parse_kerple_kind(kerple.text("kind"));
  r.kerple_p = kerple.list("p");
  r.kerple_a = kerple.list("a");
  r.sandwich_dim = r.rope.integer("dim");
}

std::vector<std::string> extrapolation_layer_types(const ParamMap& rope) {
  if (rope.has("layer-type") && !rope.text("layer-type").empty()) return {rope.text("layer-type")};
  const std::string path = rope.has("hf-config") ? rope.text("hf-config") : std::string();
  if (path.empty() || formats::is_gguf_path(path)) return {""};
  // An unknown model_type is refused (or read as --assume-family's) by the rope reader itself.
  models::LayerPlan plan;
  try {
    plan = models::read_layer_plan(path);
  } catch (const Error&) {
    return {""};
  }
  if (plan.rope_types.size() < 2) return {""};
  return plan.rope_types;
}

Extrapolation extrapolate(const ExtrapolationRequest& r) {
  if (r.train_len < 2 || r.train_len > kMaxExtrapolationLen)
    throw Error(fmt::format("--train-len must be within [2, {}] (got {})", kMaxExtrapolationLen, r.train_len));
  if (r.target_len <= r.train_len || r.target_len > kMaxExtrapolationLen)
    throw Error(fmt::format("--target-len must exceed --train-len {} and be at most {} (got {})", r.train_len,
                            kMaxExtrapolationLen, r.target_len));
  if (r.methods.empty() && r.schemes.empty())
    throw Error(fmt::format("give at least one of --methods (rope methods) or --schemes ({})",
                            join_choices(extrapolation_scheme_names())));
  std::set<std::string> seen;
  for (const auto& name : r.schemes) {
    const auto& names = extrapolation_scheme_names();
    if (std::find(names.begin(), names.end(), name) == names.end())
      throw Error(fmt::format("--schemes must name {} (got '{}'{})", join_choices(names), name, did_you_mean(name, names)));
    if (!seen.insert(name).second) throw Error(fmt::format("--schemes names '{}' twice", name));
  }
  seen.clear();
  for (const auto& m : r.methods)
    if (!seen.insert(m).second) throw Error(fmt::format("--methods names '{}' twice", m));
  Extrapolation e;
  e.request = r;
  e.lengths = extrapolation_lengths(r.train_len, r.target_len);
  const std::vector<std::string> types = r.methods.empty() ? std::vector<std::string>{""} : extrapolation_layer_types(r.rope);
  const auto plan = types.front().empty() ? models::LayerPlan{} : models::read_layer_plan(r.rope.text("hf-config"));
  // rope::min_base scans every offset up to L' (about 0.3 CPU-s at 2^20 for d = 256): once per
  // rotary width, which the methods of a layer type share and layer types often do (Gemma 3).
  std::map<std::int64_t, std::optional<double>> min_bases;
  for (const auto& type : types) {
    ParamMap p = r.rope;
    if (!type.empty()) p.set("layer-type", type, true);
    const std::size_t first = e.rope.size();
    for (const auto& m : r.methods) {
      RopeExtrapolation x =
          extrapolate_rope_settings(extrapolation_rope_config(p, m, r.train_len, r.target_len), r.train_len, r.target_len);
      x.critical_dimension = rope::critical_dimension(x.config.rotary_dim, x.config.base, r.train_len);
      const auto known = min_bases.find(x.config.rotary_dim);
      x.min_base = known != min_bases.end()
                       ? known->second
                       : min_bases.emplace(x.config.rotary_dim, rope::min_base(x.config.rotary_dim, r.target_len))
                             .first->second;
      x.layer_type = type;
      if (!type.empty()) x.layers = models::layers_of_type(plan, type);
      e.rope.push_back(std::move(x));
    }
    // Every method's entropy in one pass over the offsets (shared frequencies rotated once).
    std::vector<RopeExtrapolation*> methods;
    for (std::size_t k = first; k < e.rope.size(); ++k) methods.push_back(&e.rope[k]);
    add_rope_entropies(methods, e.lengths, r.samples, r.seed);
  }
  const auto has = [&](const char* s) { return std::find(r.schemes.begin(), r.schemes.end(), s) != r.schemes.end(); };
  if (has("alibi")) {
    AlibiExtrapolation a;
    a.slopes = encodings::alibi_slopes(r.heads);
    for (double m : a.slopes) {
      a.min_train.push_back(-m * static_cast<double>(r.train_len - 1));
      a.min_target.push_back(-m * static_cast<double>(r.target_len - 1));
    }
    e.alibi = std::move(a);
  }
  if (has("t5")) {
    T5Extrapolation t;
    t.options = r.t5;
    encodings::check_t5(r.t5);
    t.directions.push_back(t5_direction(r.t5, false, r.train_len, r.target_len));
    if (r.t5.bidirectional) t.directions.push_back(t5_direction(r.t5, true, r.train_len, r.target_len));
    e.t5 = std::move(t);
  }
  for (const auto& name : r.schemes) {
    if (name == "kerple") e.biases.push_back(kerple_range(r));
    if (name == "sandwich") e.biases.push_back(sandwich_range(r));
  }
  if (has("learned"))
    e.learned = LearnedExtrapolation{r.train_len, r.train_len, r.target_len - 1, r.target_len - r.train_len};
  return e;
}

}  // namespace posenc::analysis
