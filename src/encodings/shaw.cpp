#include "posenc/encodings/shaw.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "posenc/encodings/schemes.hpp"
#include "posenc/error.hpp"

namespace posenc::encodings {

std::int64_t shaw_distance(std::int64_t i, std::int64_t j, const ShawOptions& o) {
  if (o.convention == ShawConvention::kHf) return i - j;
  return std::clamp(j - (i + o.query_offset), -o.k, o.k);
}

std::int64_t shaw_index(std::int64_t i, std::int64_t j, const ShawOptions& o) {
  return shaw_distance(i, j, o) + (o.convention == ShawConvention::kHf ? o.max_position - 1 : o.k);
}

SchemeInfo shaw_scheme() {
  return {"shaw",
          "Shaw et al. 2018 relative positions: the row of the learned relative table each query i, key j reads, "
          "as tensor2tensor (clip(j - i, -k, k) + k) or transformers' BERT relative_key (i - j + max - 1) look it up",
          "t2t: index = clip(j - i, -k, k) + k (2k+1 rows); hf: index = i - j + max_position - 1 (2max-1 rows, "
          "no clipping)",
          {len_param(),
           {"key-len", "number of key positions M (columns); 0 = same as --len", std::int64_t{0}, {}, 0,
            static_cast<double>(kMaxLen)},
           {"k", "t2t: max_relative_position, the clipping distance (transformer_relative: 20; e.g. --k 16)",
            std::int64_t{16}, {}, 1, static_cast<double>(kMaxLen)},
           {"convention", "t2t (key - query, clipped to +-k) or hf (transformers' relative_key: query - key, "
                          "no clipping, offset max-position - 1)",
            std::string("t2t"), {"t2t", "hf"}},
           {"max-position", "hf: max_position_embeddings (BERT: 512); positions must stay below it",
            std::int64_t{512}, {}, 1, static_cast<double>(kMaxLen)},
           {"table", "index (the table row read) or distance (the signed, clipped distance it stands for)",
            std::string("index"), {"index", "distance"}}},
          [](const ParamMap& p) -> std::unique_ptr<Table> {
            ShawOptions o;
            o.convention = p.text("convention") == "hf" ? ShawConvention::kHf : ShawConvention::kT2t;
            o.k = p.integer("k");
            o.max_position = p.integer("max-position");
            const std::int64_t n = p.integer("len"), m = p.integer("key-len") > 0 ? p.integer("key-len") : n;
            if (o.convention == ShawConvention::kHf && p.given("k"))
              throw Error(fmt::format("--k {} clips tensor2tensor's distances; transformers' relative_key does not "
                                      "clip (its range is --max-position): drop --k or use --convention t2t",
                                      o.k));
            if (o.convention == ShawConvention::kHf && std::max(n, m) > o.max_position)
              throw Error(fmt::format("--len/--key-len {} exceeds --max-position {}: transformers' distance_embedding "
                                      "has 2·{} − 1 rows and no row for |i − j| ≥ {} (it fails with an index error)",
                                      std::max(n, m), o.max_position, o.max_position, o.max_position));
            // t2t: with length_q != length_k the queries are the last length_q key positions.
            if (o.convention == ShawConvention::kT2t && m < n)
              throw Error(fmt::format("--key-len {} is shorter than --len {}: tensor2tensor takes the queries as the last "
                                      "--len key positions (range_vec_k[-length_q:]), so --key-len must be at least --len",
                                      m, n));
            if (o.convention == ShawConvention::kT2t) o.query_offset = m - n;
            const bool index = p.text("table") == "index";
            TableInfo info = make_info("shaw", p, {static_cast<std::size_t>(n), static_cast<std::size_t>(m)}, {"i", "j"});
            info.value_name = index ? "index" : "distance";
            info.title = o.convention == ShawConvention::kHf
                             ? fmt::format("Shaw {} (transformers relative_key: i - j + {})", info.value_name,
                                           index ? o.max_position - 1 : 0)
                             : fmt::format("Shaw {} (tensor2tensor: clip(j - i, -{}, {}){})", info.value_name, o.k, o.k,
                                           index ? fmt::format(" + {}", o.k) : std::string());
            for (std::int64_t j = 0; j < m && m <= 100000; ++j) info.column_names.push_back(fmt::format("j{}", j));
            return std::make_unique<RowFunctionTable>(std::move(info), [o, index](std::size_t r, std::span<double> out) {
              const auto i = static_cast<std::int64_t>(r);
              for (std::size_t j = 0; j < out.size(); ++j) {
                const auto jj = static_cast<std::int64_t>(j);
                out[j] = static_cast<double>(index ? shaw_index(i, jj, o) : shaw_distance(i, jj, o));
              }
            });
          }};
}

}  // namespace posenc::encodings
