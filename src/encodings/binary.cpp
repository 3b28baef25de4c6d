#include "posenc/encodings/binary.hpp"

#include <fmt/format.h>

#include <bit>

#include "posenc/encodings/schemes.hpp"
#include "posenc/error.hpp"

namespace posenc::encodings {
namespace {

BitOrder parse_bit_order(const std::string& s) {
  if (s == "msb") return BitOrder::kMsb;
  if (s == "lsb") return BitOrder::kLsb;
  throw Error(fmt::format("--bit-order must be msb or lsb (got '{}')", s));
}

// Column k's bit weight: "bit7" … "bit0" for msb, "bit0" … "bit7" for lsb.
std::vector<std::string> bit_names(std::size_t dim, BitOrder order) {
  std::vector<std::string> names(dim);
  for (std::size_t k = 0; k < dim; ++k) names[k] = fmt::format("bit{}", order == BitOrder::kMsb ? dim - 1 - k : k);
  return names;
}

}  // namespace

void check_binary_range(std::int64_t len, std::int64_t dim) {
  // 2^62 exceeds any accepted --len, so only small D can overflow.
  if (dim >= 62) return;
  const std::int64_t capacity = std::int64_t{1} << dim;
  if (len > capacity)
    throw Error(fmt::format(
        "--len {} needs positions 0..{} but --dim {} bits encode only 2^{} = {} positions; "
        "use --dim {} or more, or --len {} or less",
        len, len - 1, dim, dim, capacity, std::bit_width(static_cast<std::uint64_t>(len - 1)), capacity));
}

void binary_row(std::uint64_t position, BitOrder order, std::span<double> out) {
  const std::size_t dim = out.size();
  for (std::size_t k = 0; k < dim; ++k) {
    const std::size_t bit = order == BitOrder::kMsb ? dim - 1 - k : k;
    out[k] = bit < 64 ? static_cast<double>((position >> bit) & 1U) : 0.0;
  }
}

Matrix binary_table(std::int64_t len, std::int64_t dim, BitOrder order) {
  check_binary_range(len, dim);
  Matrix m(static_cast<std::size_t>(len), static_cast<std::size_t>(dim));
  for (std::size_t t = 0; t < m.rows(); ++t) binary_row(t, order, m.row(t));
  return m;
}

SchemeInfo binary_scheme() {
  return {"binary", "the bits of t, one per column (seed 1.3); D bits encode 2^D positions",
          "PE[t,k] = floor(t / 2^(D-1-k)) mod 2  (msb)",
          {len_param(), dim_param(8),
           {"bit-order", "msb: column 0 is the most significant bit (the seed's table); lsb: column 0 is bit 0",
            std::string("msb"), {"msb", "lsb"}}},
          [](const ParamMap& p) -> std::unique_ptr<Table> {
            const auto len = p.integer("len");
            const auto dim = p.integer("dim");
            const BitOrder order = parse_bit_order(p.text("bit-order"));
            check_binary_range(len, dim);
            auto info = make_info("binary", p, {static_cast<std::size_t>(len), static_cast<std::size_t>(dim)});
            info.column_names = bit_names(static_cast<std::size_t>(dim), order);
            info.title = fmt::format("binary ({} first), N={}, D={}", p.text("bit-order"), len, dim);
            return std::make_unique<RowFunctionTable>(
                std::move(info), [order](std::size_t t, std::span<double> out) { binary_row(t, order, out); });
          }};
}

}  // namespace posenc::encodings
