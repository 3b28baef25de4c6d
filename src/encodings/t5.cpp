#include "posenc/encodings/t5.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "posenc/encodings/schemes.hpp"
#include "posenc/error.hpp"
#include "posenc/toeplitz.hpp"

namespace posenc::encodings {

void check_t5(const T5Options& o) {
  const std::int64_t min_buckets = o.bidirectional ? 4 : 2;
  if (o.num_buckets < min_buckets)
    throw Error(fmt::format("--buckets must be at least {} for {} t5 (got {})", min_buckets,
                            o.bidirectional ? "bidirectional" : "causal", o.num_buckets));
  const std::int64_t max_exact = (o.bidirectional ? o.num_buckets / 2 : o.num_buckets) / 2;
  if (o.max_distance <= max_exact)
    throw Error(fmt::format("--max-distance must exceed the {} exact buckets (got {})", max_exact, o.max_distance));
}

std::int64_t t5_bucket(std::int64_t rp, const T5Options& o) {
  std::int64_t bucket = 0;
  std::int64_t nb = o.num_buckets;
  std::int64_t n = 0;
  if (o.bidirectional) {
    nb /= 2;
    if (rp > 0) bucket += nb;
    n = rp < 0 ? -rp : rp;
  } else {
    n = rp < 0 ? -rp : 0;
  }
  const std::int64_t max_exact = nb / 2;
  if (n < max_exact) return bucket + n;
  // float32 throughout, as torch does: relative_position.float() / max_exact, torch.log,
  // / math.log(max_distance / max_exact), * (num_buckets - max_exact), .to(torch.long).
  const float ratio = static_cast<float>(n) / static_cast<float>(max_exact);
  const auto denom = static_cast<float>(std::log(static_cast<double>(o.max_distance) / static_cast<double>(max_exact)));
  const float scaled = std::log(ratio) / denom * static_cast<float>(nb - max_exact);
  const auto large = max_exact + static_cast<std::int64_t>(std::trunc(scaled));
  return bucket + std::min(large, nb - 1);
}

Matrix t5_buckets(std::int64_t query_len, std::int64_t key_len, const T5Options& options) {
  Matrix m(static_cast<std::size_t>(query_len), static_cast<std::size_t>(key_len));
  for (std::size_t i = 0; i < m.rows(); ++i)
    for (std::size_t j = 0; j < m.cols(); ++j)
      m(i, j) = static_cast<double>(t5_bucket(static_cast<std::int64_t>(j) - static_cast<std::int64_t>(i), options));
  return m;
}

SchemeInfo t5_scheme() {
  return {"t5",
          "T5 relative position buckets of key - query (Raffel et al. 2020; HF _relative_position_bucket)",
          "rp = j - i; n = |rp| (bidirectional, +B/2 if rp > 0) or max(-rp, 0) (causal); "
          "bucket = n if n < e else min(e + trunc(ln(n/e)/ln(max_distance/e)*(nb - e)), nb - 1), e = nb/2",
          {len_param(),
           {"key-len", "number of key positions M (columns); 0 = same as --len", std::int64_t{0}, {}, 0,
            static_cast<double>(kMaxLen)},
           {"buckets", "num_buckets (T5: 32)", std::int64_t{32}, {}, 2, 1 << 20},
           {"max-distance", "max_distance: distances beyond share the last bucket (T5: 128)", std::int64_t{128}, {}, 1,
            static_cast<double>(kMaxLen)},
           {"mode", "bidirectional (encoder) or causal (decoder: future keys go to bucket 0); "
                    "also --bidirectional or --causal",
            std::string("bidirectional"), {"bidirectional", "causal"}, -1e300, 1e300, /*choice_flags=*/true}},
          [](const ParamMap& p) -> std::unique_ptr<Table> {
            const T5Options o{p.integer("buckets"), p.integer("max-distance"), p.text("mode") == "bidirectional"};
            check_t5(o);
            const auto n = static_cast<std::size_t>(p.integer("len"));
            const auto m = static_cast<std::size_t>(p.integer("key-len") > 0 ? p.integer("key-len") : p.integer("len"));
            TableInfo info = make_info("t5", p, {n, m}, {"i", "j"});
            info.value_name = "bucket";
            info.title = fmt::format("T5 {} buckets ({} buckets, max distance {})", p.text("mode"), o.num_buckets,
                                     o.max_distance);
            for (std::size_t j = 0; j < m && m <= 100000; ++j) info.column_names.push_back(fmt::format("j{}", j));
            // Entry (i, j) is t5_bucket(j − i): a Toeplitz table, which figures reduce from its N + M − 1 diagonals.
            return toeplitz_function_table(std::move(info), [o](std::size_t, std::int64_t d0, std::span<double> out) {
              for (std::size_t k = 0; k < out.size(); ++k)
                out[k] = static_cast<double>(t5_bucket(d0 + static_cast<std::int64_t>(k), o));
            });
          }};
}

}  // namespace posenc::encodings
