#include "posenc/analysis/non_finite.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <type_traits>
#include <vector>

#include "posenc/analysis/scheme_traits.hpp"
#include "posenc/cpu.hpp"

namespace posenc::analysis {
namespace {

void keep_first(std::atomic<std::size_t>& slot, std::size_t index) {
  std::size_t seen = slot.load();
  while (index < seen && !slot.compare_exchange_weak(seen, index)) {
  }
}

/// A vectorisable count of the values whose exponent bits are all ones (nan or inf); the
/// counter is as wide as a value, so it is summed per chunk of 65536. Compiled for AVX-512,
/// AVX2 and the baseline (POSENC_DISPATCH; an integer count, the same in every version): with
/// SSE2 alone it was a quarter of a float16 tensor's decoding to float32 (perf).
template <class T>
[[gnu::always_inline]] inline std::size_t count_all_ones_body(const T* values, std::size_t size) {
  using Bits = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;
  constexpr auto kExponent = static_cast<Bits>(sizeof(T) == 4 ? 0x7f800000u : 0x7ff0000000000000u);
  std::size_t bad = 0;
  for (std::size_t i = 0; i < size; i += 65536) {
    const std::size_t n = std::min<std::size_t>(65536, size - i);
    Bits chunk = 0;
    for (std::size_t k = 0; k < n; ++k) {
      Bits b;
      std::memcpy(&b, values + i + k, sizeof b);
      chunk += (b & kExponent) == kExponent ? 1u : 0u;
    }
    bad += chunk;
  }
  return bad;
}
[[gnu::always_inline]] inline std::size_t count_all_ones_f32_body(const float* values, std::size_t size) {
  return count_all_ones_body(values, size);
}
[[gnu::always_inline]] inline std::size_t count_all_ones_f64_body(const double* values, std::size_t size) {
  return count_all_ones_body(values, size);
}
POSENC_DISPATCH(std::size_t, count_all_ones_f32, (const float* values, std::size_t size), (values, size))
POSENC_DISPATCH(std::size_t, count_all_ones_f64, (const double* values, std::size_t size), (values, size))

template <class T>
std::size_t count_all_ones_exponent(std::span<const T> values) {
  if constexpr (sizeof(T) == 4) {
    return count_all_ones_f32(values.data(), values.size());
  } else {
    return count_all_ones_f64(values.data(), values.size());
  }
}

/// Fills 256 KiB of values at a time and counts them while they are still in the L2 cache
/// (counting a whole 512 KiB block afterwards cost 15% of a float32 .npy run; 32 KiB parts made
/// a tensor input read its bytes 16 KiB per pread).
template <class T, class Fill>
void fill_counting(const FiniteCountingTable& t, std::size_t first, std::size_t count, std::span<T> out,
                   const Fill& fill) {
  const std::size_t c = t.cols();
  const std::size_t step = std::max<std::size_t>(1, ((std::size_t{256} << 10) / sizeof(T)) / std::max<std::size_t>(1, c));
  for (std::size_t done = 0; done < count; done += step) {
    const std::size_t n = std::min(step, count - done);
    const auto part = out.subspan(done * c, n * c);
    fill(first + done, n, part);
    t.count(std::span<const T>(part), (first + done) * c);
  }
}

/// The double value at flat index `at` of `t` (one row filled).
double value_at(const Table& t, std::size_t at) {
  std::vector<double> row(t.cols());
  t.fill(at / t.cols(), 1, row);
  return row[at % t.cols()];
}

}  // namespace

void FiniteCountingTable::fill(std::size_t first, std::size_t count, std::span<double> out) const {
  fill_counting<double>(*this, first, count, out,
                        [this](std::size_t f, std::size_t n, std::span<double> o) { inner_.fill(f, n, o); });
}

void FiniteCountingTable::fill_f32(std::size_t first, std::size_t count, std::span<float> out) const {
  fill_counting<float>(*this, first, count, out,
                       [this](std::size_t f, std::size_t n, std::span<float> o) { inner_.fill_f32(f, n, o); });
}

template <class T>
void FiniteCountingTable::count_values(std::span<const T> values, std::size_t at) const {
  const std::size_t bad = count_all_ones_exponent(values);
  if (bad == 0) return;  // only then which kind they are and where the first one is
  std::size_t nan = 0;
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (std::isnan(values[i])) {
      ++nan;
      keep_first(first_nan_, at + i);
    } else if (std::isinf(values[i])) {
      keep_first(first_inf_, at + i);
    }
  }
  if (nan != 0) nan_ += nan;
  if (bad != nan) inf_ += bad - nan;
}

void FiniteCountingTable::count(std::span<const double> values, std::size_t at) const { count_values(values, at); }
void FiniteCountingTable::count(std::span<const float> values, std::size_t at) const { count_values(values, at); }

bool toeplitz_all_finite(const ToeplitzTable& t) {
  for (std::size_t s = 0; s < t.slices(); ++s)
    for (const double v : t.all_diagonals(s))
      if (!std::isfinite(to_f32(v))) return false;
  return true;
}

std::string non_finite_note(const Table& table, const FiniteCountingTable& counted, formats::DType dtype) {
  if (counted.nan_count() + counted.inf_count() == 0) return "";
  const TableInfo& info = table.info();
  std::vector<std::string> causes;
  const auto add = [&](std::string c) {
    if (std::find(causes.begin(), causes.end(), c) == causes.end()) causes.push_back(std::move(c));
  };
  // the file's values as they are (a long-form CSV keeps its value name: "bias")
  const bool input = info.scheme == "input" && (info.value_name == "value" || info.title.rfind("table from ", 0) == 0);
  const auto kind = [&](std::size_t at, const char* what) {
    if (dtype == formats::DType::kFloat32 && std::isfinite(value_at(table, at))) {
      add("values beyond the float32 range became infinite: use --dtype float64");
    } else if (input) {
      add(fmt::format("the --input file holds {} values", what));
    } else if (const std::string masked = masked_entries_reason(info); !masked.empty()) {
      add(masked);
    } else if (info.value_name == "cosine" && std::string(what) == "nan") {
      add("the cosine with a zero vector is 0/0");
    } else {
      add("the computation overflowed or lost all precision: check the parameters");
    }
  };
  if (counted.nan_count() > 0) kind(counted.first_nan(), "nan");
  if (counted.inf_count() > 0) kind(counted.first_inf(), "infinite");
  const char* what = counted.nan_count() == 0 ? "infinite" : counted.inf_count() == 0 ? "nan" : "nan and infinite";
  return fmt::format("the output holds {} values ({})", what, fmt::join(causes, "; "));
}

std::string rounded_positions_note(const Table& table, formats::DType dtype) {
  // float32 holds every integer up to 2^24 only: past it, integer positions are rounded.
  const std::size_t last = table.info().first_position + table.rows() - 1;
  if (!values_are_positions(table.info().scheme) || table.rows() == 0 || last <= (std::size_t{1} << 24) ||
      dtype != formats::DType::kFloat32)
    return "";
  return fmt::format("positions above 16777216 (2^24) are rounded in float32 (the last, {}, is written as {}): use "
                     "--dtype float64",
                     last, static_cast<double>(static_cast<float>(last)));
}

}  // namespace posenc::analysis
