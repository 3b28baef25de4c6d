#include "posenc/encodings/deberta.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "posenc/encodings/schemes.hpp"
#include "posenc/error.hpp"

namespace posenc::encodings {

void check_deberta(const DebertaOptions& o) {
  if (o.buckets < 4 || o.buckets % 2 != 0)
    throw Error(fmt::format("--buckets must be even and at least 4 (got {})", o.buckets));
  if (o.max_relative - 1 <= o.buckets / 2)
    throw Error(fmt::format("--max-relative must exceed --buckets / 2 + 1 = {} (got {})", o.buckets / 2 + 1,
                            o.max_relative));
}

std::int64_t deberta_bucket(std::int64_t delta, const DebertaOptions& o) {
  const std::int64_t mid = o.buckets / 2;
  if (o.impl == DebertaImpl::kMicrosoft) delta = std::clamp(delta, -(o.max_relative - 1), o.max_relative - 1);
  const std::int64_t a = delta < 0 ? -delta : delta;
  if (a <= mid) return delta;
  const std::int64_t sign = delta < 0 ? -1 : 1;
  double log_pos = 0;
  if (o.impl == DebertaImpl::kHf) {
    // torch: abs_pos / mid (float32), torch.log, / torch.log(tensor((max - 1) / mid)) (float32),
    // * (mid - 1), ceil, + mid.
    const float ratio = static_cast<float>(a) / static_cast<float>(mid);
    const auto denom = std::log(static_cast<float>(static_cast<double>(o.max_relative - 1) / static_cast<double>(mid)));
    log_pos = static_cast<double>(std::ceil(std::log(ratio) / denom * static_cast<float>(mid - 1)) + static_cast<float>(mid));
  } else {
    // numpy in float64
    log_pos = std::ceil(std::log(static_cast<double>(a) / static_cast<double>(mid)) /
                        std::log(static_cast<double>(o.max_relative - 1) / static_cast<double>(mid)) *
                        static_cast<double>(mid - 1)) +
              static_cast<double>(mid);
  }
  return sign * static_cast<std::int64_t>(log_pos);
}

std::int64_t deberta_value(std::int64_t delta, const DebertaOptions& o) {
  const std::int64_t b = deberta_bucket(delta, o);
  const std::int64_t span = o.buckets;
  switch (o.index) {
    case DebertaIndex::kBucket: return b;
    case DebertaIndex::kC2p: return std::clamp(b + span, std::int64_t{0}, 2 * span - 1);
    case DebertaIndex::kP2c: return std::clamp(-b + span, std::int64_t{0}, 2 * span - 1);
  }
  return b;
}

SchemeInfo deberta_scheme() {
  return {"deberta",
          "DeBERTa-v2/v3 log-bucketed relative positions of query - key (transformers' or Microsoft's "
          "make_log_bucket_position), and the c2p/p2c indices",
          "d = i - j, m = buckets/2: d if |d| <= m, else sign(d)(ceil(ln(|d|/m)/ln((max-1)/m)(m-1)) + m); "
          "microsoft clamps d to +-(max-1) first; c2p = clamp(b + buckets, 0, 2buckets-1), p2c uses -b",
          {len_param(),
           {"key-len", "number of key positions M (columns); 0 = same as --len", std::int64_t{0}, {}, 0,
            static_cast<double>(kMaxLen)},
           {"buckets", "position_buckets (DeBERTa-v3: 256)", std::int64_t{256}, {}, 4, 1 << 24},
           {"max-relative", "max_relative_positions (DeBERTa-v3: max_position_embeddings 512)", std::int64_t{512}, {},
            3, static_cast<double>(kMaxLen)},
           {"impl", "hf (transformers: keeps growing past --max-relative) or microsoft (clamps to +-(max-1))",
            std::string("hf"), {"hf", "microsoft"}},
           {"index", "bucket, or the index c2p (query->key positions) or p2c (key->query) reads",
            std::string("bucket"), {"bucket", "c2p", "p2c"}}},
          [](const ParamMap& p) -> std::unique_ptr<Table> {
            DebertaOptions o;
            o.buckets = p.integer("buckets");
            o.max_relative = p.integer("max-relative");
            o.impl = p.text("impl") == "microsoft" ? DebertaImpl::kMicrosoft : DebertaImpl::kHf;
            const std::string idx = p.text("index");
            o.index = idx == "c2p" ? DebertaIndex::kC2p : idx == "p2c" ? DebertaIndex::kP2c : DebertaIndex::kBucket;
            check_deberta(o);
            const auto n = static_cast<std::size_t>(p.integer("len"));
            const auto m = static_cast<std::size_t>(p.integer("key-len") > 0 ? p.integer("key-len") : p.integer("len"));
            TableInfo info = make_info("deberta", p, {n, m}, {"i", "j"});
            info.value_name = idx;
            info.title = fmt::format("DeBERTa {} of i - j ({}, {} buckets, max relative {})", idx, p.text("impl"),
                                     o.buckets, o.max_relative);
            for (std::size_t j = 0; j < m && m <= 100000; ++j) info.column_names.push_back(fmt::format("j{}", j));
            return std::make_unique<RowFunctionTable>(std::move(info), [o](std::size_t r, std::span<double> out) {
              for (std::size_t j = 0; j < out.size(); ++j)
                out[j] = static_cast<double>(deberta_value(static_cast<std::int64_t>(r) - static_cast<std::int64_t>(j), o));
            });
          }};
}

}  // namespace posenc::encodings
