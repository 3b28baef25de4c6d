#include "posenc/encodings/binary.hpp"

#include <catch2/catch.hpp>

#include "error_of.hpp"

using Catch::Matchers::Contains;
using posenc::encodings::binary_table;
using posenc::encodings::BitOrder;
using posenc_test::error_of;
using posenc_test::make;

TEST_CASE("binary msb: position 1 of 8 bits is 0...01, as in the seed", "[binary]") {
  const auto m = binary_table(/*len=*/6, /*dim=*/8);
  for (std::size_t k = 0; k < 7; ++k) CHECK(m(1, k) == 0.0);
  CHECK(m(1, 7) == 1.0);
  // 5 = 0b00000101
  const double five[8] = {0, 0, 0, 0, 0, 1, 0, 1};
  for (std::size_t k = 0; k < 8; ++k) CHECK(m(5, k) == five[k]);
}

TEST_CASE("binary with 3 bits is the seed's table, column for column", "[binary]") {
  // seed 003 §1.3: tokens a0..a7 are the columns, the rows are bits from most significant down.
  const double seed_rows[3][8] = {{0, 0, 0, 0, 1, 1, 1, 1}, {0, 0, 1, 1, 0, 0, 1, 1}, {0, 1, 0, 1, 0, 1, 0, 1}};
  const auto m = binary_table(8, 3);
  for (std::size_t t = 0; t < 8; ++t)
    for (std::size_t k = 0; k < 3; ++k) CHECK(m(t, k) == seed_rows[k][t]);
}

TEST_CASE("binary lsb reverses the columns", "[binary]") {
  const auto msb = binary_table(64, 6, BitOrder::kMsb);
  const auto lsb = binary_table(64, 6, BitOrder::kLsb);
  CHECK(lsb(1, 0) == 1.0);
  for (std::size_t t = 0; t < 64; ++t)
    for (std::size_t k = 0; k < 6; ++k) CHECK(lsb(t, k) == msb(t, 5 - k));
}

TEST_CASE("binary rows decode back to t", "[binary]") {
  const auto m = binary_table(1000, 12);
  for (std::size_t t = 0; t < m.rows(); ++t) {
    double value = 0;
    for (std::size_t k = 0; k < m.cols(); ++k) value = 2 * value + m(t, k);  // msb first
    CHECK(value == static_cast<double>(t));
  }
}

TEST_CASE("binary with more than 64 columns pads the high bits with 0", "[binary]") {
  const auto m = binary_table(3, 70);
  for (std::size_t k = 0; k < 68; ++k) CHECK(m(2, k) == 0.0);
  CHECK(m(2, 68) == 1.0);  // 2 = 0b10
  CHECK(m(2, 69) == 0.0);
}

TEST_CASE("binary accepts exactly 2^D positions and refuses more", "[binary][errors]") {
  CHECK(binary_table(256, 8).rows() == 256);
  const auto msg = error_of([] { binary_table(257, 8); });
  CHECK_THAT(msg, Contains("--len 257") && Contains("--dim 8") && Contains("256 positions") && Contains("--dim 9"));
  CHECK(msg.find('\n') == std::string::npos);
  CHECK_THAT(error_of([] { make("binary", {{"len", std::int64_t{50}}, {"dim", std::int64_t{4}}}); }),
             Contains("--len 50") && Contains("--dim 4"));
}

TEST_CASE("binary scheme streams rows, names bit columns, validates --bit-order", "[binary]") {
  const auto t = make("binary", {{"len", std::int64_t{4}}, {"dim", std::int64_t{3}}});
  CHECK(t->info().column_names == std::vector<std::string>{"bit2", "bit1", "bit0"});
  const auto m = t->to_matrix();
  CHECK(m(3, 0) == 0.0);
  CHECK(m(3, 1) == 1.0);
  CHECK(m(3, 2) == 1.0);
  const auto l = make("binary", {{"len", std::int64_t{4}}, {"dim", std::int64_t{3}}, {"bit-order", std::string("lsb")}});
  CHECK(l->info().column_names == std::vector<std::string>{"bit0", "bit1", "bit2"});
  CHECK(l->to_matrix()(1, 0) == 1.0);
  CHECK_THAT(error_of([] { make("binary", {{"bit-order", std::string("big")}}); }), Contains("--bit-order"));
}
