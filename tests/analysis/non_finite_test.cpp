// analysis::FiniteCountingTable and the notes a run prints about nan, infinite and rounded
// values; the expected counts and indices are those of tables built here by hand.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstddef>
#include <limits>
#include <vector>

#include "posenc/analysis/non_finite.hpp"
#include "posenc/table.hpp"

using posenc::Matrix;
using posenc::MatrixTable;
using posenc::TableInfo;
using posenc::analysis::FiniteCountingTable;

namespace {

/// 3 rows × 4 columns of 1.0 with `values` placed at the given flat indices.
MatrixTable nonfinite_table(std::vector<std::pair<std::size_t, double>> values, std::string scheme = "sinusoidal",
                            std::string value_name = "value") {
  Matrix m(3, 4, 1.0);
  for (const auto& [at, v] : values) m.data()[at] = v;
  TableInfo info;
  info.scheme = std::move(scheme);
  info.shape = {3, 4};
  info.value_name = std::move(value_name);
  return MatrixTable(info, std::move(m));
}

/// Reads every row through `t` as a writer would, in blocks of `block` rows.
template <class T>
void nonfinite_read_all(const FiniteCountingTable& t, std::size_t block) {
  std::vector<T> out(block * t.cols());
  for (std::size_t r = 0; r < t.rows(); r += block) {
    const std::size_t n = std::min(block, t.rows() - r);
    if constexpr (sizeof(T) == 4)
      t.fill_f32(r, n, std::span<float>(out.data(), n * t.cols()));
    else
      t.fill(r, n, std::span<double>(out.data(), n * t.cols()));
  }
}

}  // namespace

TEST_CASE("counting table: nan and inf counted with the flat index of the first of each", "[non_finite]") {
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  const auto table = nonfinite_table({{9, nan}, {5, -inf}, {11, nan}, {7, inf}});
  for (const std::size_t block : {std::size_t{1}, std::size_t{2}, std::size_t{3}}) {
    const FiniteCountingTable counted(table);
    nonfinite_read_all<double>(counted, block);
    CHECK(counted.nan_count() == 2);
    CHECK(counted.inf_count() == 2);
    CHECK(counted.first_nan() == 9);
    CHECK(counted.first_inf() == 5);
    CHECK(posenc::analysis::non_finite_note(table, counted, posenc::formats::DType::kFloat64) ==
          "the output holds nan and infinite values (the computation overflowed or lost all precision: check the "
          "parameters)");
  }
}

TEST_CASE("counting table: a finite table leaves no note and its values pass unchanged", "[non_finite]") {
  const auto table = nonfinite_table({{3, -2.5}, {6, 1e300}});
  const FiniteCountingTable counted(table);
  std::vector<double> out(12);
  counted.fill(0, 3, out);
  CHECK(out[3] == -2.5);
  CHECK(out[6] == 1e300);
  CHECK(out[0] == 1.0);
  CHECK(counted.nan_count() == 0);
  CHECK(counted.inf_count() == 0);
  CHECK(counted.first_nan() == SIZE_MAX);
  CHECK(posenc::analysis::non_finite_note(table, counted, posenc::formats::DType::kFloat64).empty());
}

TEST_CASE("counting table: 1e300 read as float32 becomes inf, and the note says why", "[non_finite]") {
  const auto table = nonfinite_table({{6, 1e300}, {2, -1e39}});  // float32's largest is 3.4028235e38
  const FiniteCountingTable counted(table);
  nonfinite_read_all<float>(counted, 3);
  CHECK(counted.inf_count() == 2);
  CHECK(counted.nan_count() == 0);
  CHECK(counted.first_inf() == 2);
  CHECK(posenc::analysis::non_finite_note(table, counted, posenc::formats::DType::kFloat32) ==
        "the output holds infinite values (values beyond the float32 range became infinite: use --dtype float64)");
}

TEST_CASE("counting table: the causes of an input file and of a zero-vector cosine", "[non_finite]") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const auto input = nonfinite_table({{4, nan}}, "input");
  const FiniteCountingTable counted_input(input);
  nonfinite_read_all<double>(counted_input, 3);
  CHECK(posenc::analysis::non_finite_note(input, counted_input, posenc::formats::DType::kFloat32) ==
        "the output holds nan values (the --input file holds nan values)");
  const auto cosine = nonfinite_table({{0, nan}}, "learned", "cosine");
  const FiniteCountingTable counted_cosine(cosine);
  nonfinite_read_all<double>(counted_cosine, 3);
  CHECK(posenc::analysis::non_finite_note(cosine, counted_cosine, posenc::formats::DType::kFloat64) ==
        "the output holds nan values (the cosine with a zero vector is 0/0)");
}

TEST_CASE("rounded positions: integer positions past 2^24 in float32 only", "[non_finite]") {
  TableInfo info;
  info.scheme = "integer";
  info.shape = {2, 1};
  info.first_position = 16777216;  // rows 16777216 and 16777217: the last is rounded to 16777216
  const MatrixTable past(info, Matrix(2, 1, 0.0));
  CHECK(posenc::analysis::rounded_positions_note(past, posenc::formats::DType::kFloat32) ==
        "positions above 16777216 (2^24) are rounded in float32 (the last, 16777217, is written as 16777216): use "
        "--dtype float64");
  CHECK(posenc::analysis::rounded_positions_note(past, posenc::formats::DType::kFloat64).empty());
  info.first_position = 16777215;  // the last row is 2^24 itself, which float32 holds
  CHECK(posenc::analysis::rounded_positions_note(MatrixTable(info, Matrix(2, 1, 0.0)), posenc::formats::DType::kFloat32).empty());
  info.scheme = "sinusoidal";
  info.first_position = 16777216;
  CHECK(posenc::analysis::rounded_positions_note(MatrixTable(info, Matrix(2, 1, 0.0)), posenc::formats::DType::kFloat32).empty());
}
