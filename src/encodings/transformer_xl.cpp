#include "posenc/encodings/transformer_xl.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "posenc/encodings/schemes.hpp"
#include "posenc/error.hpp"

namespace posenc::encodings {

void transformer_xl_row(double t, std::int64_t dim, double base, double* out) {
  const auto half = static_cast<std::size_t>(dim / 2);
  for (std::size_t k = 0; k < half; ++k) {
    // inv_freq = 1 / base^(arange(0, d, 2) / d)
    const double w = 1.0 / std::pow(base, static_cast<double>(2 * k) / static_cast<double>(dim));
    out[k] = std::sin(t * w);
    out[half + k] = std::cos(t * w);
  }
}

std::int64_t transformer_xl_shift_label(std::int64_t i, std::int64_t j, std::int64_t qlen, std::int64_t klen,
                                        std::int64_t clamp_len) {
  // Flat index of (i, j) in the result is i·klen + j; after dropping the first row of the
  // (klen+1) × qlen view it is qlen further on in the padded qlen × (klen+1) block.
  const std::int64_t g = i * klen + j + qlen;
  const std::int64_t col = g % (klen + 1);
  if (col == 0) return -1;  // the zero pad
  const std::int64_t m = col - 1;  // BD column: R row m holds distance pos_seq[m] = klen − 1 − m
  const std::int64_t d = klen - 1 - m;
  return clamp_len > 0 ? std::min(d, clamp_len) : d;
}

SchemeInfo transformer_xl_scheme() {
  return {"transformer-xl",
          "Transformer-XL's relative sinusoids R_(i-j) ([sin | cos] halves, --clamp-len) and the index alignment its "
          "relative shift makes, as kimiyoung/transformer-xl computes them",
          "R_t = [sin(t w_k) | cos(t w_k)], w_k = base^(-2k/d), t = min(distance, clamp_len); shift: entry (i, j) "
          "holds distance (i + mem_len) - j for j <= i + mem_len",
          {len_param(),
           pair_dim_param(16, "d_model, the width of R (even)"),
           {"base", "sinusoid base (transformer-xl: 10000)", 10000.0, {}, 1.0, 1e300},
           {"clamp-len", "clamp_len: distances above it use R_clamp_len (0 = no clamp)", std::int64_t{0}, {}, 0,
            static_cast<double>(kMaxLen)},
           {"mem-len", "shift: memory length mlen (klen = --len + mlen keys)", std::int64_t{0}, {}, 0,
            static_cast<double>(kMaxLen)},
           {"table", "r (row t = R_t, t = 0..len-1), pos-emb (what the model feeds: rows for distances len-1..0) or "
                     "shift (qlen x klen: the distance _rel_shift puts at (i, j); -1 = the zero pad)",
            std::string("r"), {"r", "pos-emb", "shift"}}},
          [](const ParamMap& p) -> std::unique_ptr<Table> {
            const std::int64_t dim = p.integer("dim"), len = p.integer("len"), clamp = p.integer("clamp-len");
            const double base = p.number("base");
            if (dim % 2 != 0) throw Error(fmt::format("--dim must be even for transformer-xl (got {})", dim));
            const std::string table = p.text("table");
            const auto clamped = [clamp](std::int64_t t) { return clamp > 0 ? std::min(t, clamp) : t; };
            if (table == "shift") {
              const std::int64_t klen = len + p.integer("mem-len");
              if (klen > kMaxLen) throw Error(fmt::format("--len + --mem-len must be at most {} (got {})", kMaxLen, klen));
              TableInfo info = make_info("transformer-xl", p, {static_cast<std::size_t>(len), static_cast<std::size_t>(klen)},
                                         {"i", "j"});
              info.value_name = "distance";
              info.title = fmt::format("Transformer-XL rel shift, mem {}: distance at (i, j)", klen - len);
              for (std::int64_t j = 0; j < klen && klen <= 100000; ++j) info.column_names.push_back(fmt::format("j{}", j));
              return std::make_unique<RowFunctionTable>(std::move(info), [len, klen, clamp](std::size_t r, std::span<double> out) {
                for (std::size_t j = 0; j < out.size(); ++j)
                  out[j] = static_cast<double>(transformer_xl_shift_label(static_cast<std::int64_t>(r),
                                                                          static_cast<std::int64_t>(j), len, klen, clamp));
              });
            }
            const bool descending = table == "pos-emb";
            TableInfo info = make_info("transformer-xl", p, {static_cast<std::size_t>(len), static_cast<std::size_t>(dim)},
                                       {descending ? "row" : "distance", "dim"});
            info.value_name = std::string("R");  // (not = "R": g++ 12 -O3 false -Wstringop-overflow)
            info.title = fmt::format("Transformer-XL R{} (d={}{})", descending ? " as fed (distances len-1..0)" : "_t", dim,
                                     clamp > 0 ? fmt::format(", clamp_len {}", clamp) : std::string());
            for (std::int64_t k = 0; k < dim / 2 && dim <= 100000; ++k) info.column_names.push_back(fmt::format("sin{}", k));
            for (std::int64_t k = 0; k < dim / 2 && dim <= 100000; ++k) info.column_names.push_back(fmt::format("cos{}", k));
            return std::make_unique<RowFunctionTable>(
                std::move(info), [=](std::size_t r, std::span<double> out) {
                  const auto t = descending ? len - 1 - static_cast<std::int64_t>(r) : static_cast<std::int64_t>(r);
                  transformer_xl_row(static_cast<double>(clamped(t)), dim, base, out.data());
                });
          }};
}

}  // namespace posenc::encodings
