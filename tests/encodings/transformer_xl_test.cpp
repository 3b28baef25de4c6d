#include "posenc/encodings/transformer_xl.hpp"

#include <catch2/catch.hpp>

#include <cmath>

#include "error_of.hpp"

using namespace posenc::encodings;
using posenc_test::error_of;
using posenc_test::make;

// d = 4: inv_freq = 1/10000^(0/4), 1/10000^(2/4) = 1, 0.01; R_t = [sin t, sin 0.01t, cos t, cos 0.01t].
TEST_CASE("transformer-xl R rows are sines then cosines", "[transformer-xl]") {
  const auto r = make("transformer-xl", {{"dim", std::int64_t{4}}, {"len", std::int64_t{5}}})->to_matrix();
  CHECK(r(1, 0) == Approx(0.8414709848078965).epsilon(1e-15));     // sin 1
  CHECK(r(1, 1) == Approx(0.0099998333341666645).epsilon(1e-14));  // sin 0.01
  CHECK(r(1, 2) == Approx(0.54030230586813965).epsilon(1e-15));    // cos 1
  CHECK(r(1, 3) == Approx(0.99995000041666537).epsilon(1e-15));    // cos 0.01
  CHECK(r(0, 2) == 1.0);
  // pos-emb: the rows the model feeds, distances 4, 3, ..., 0; with clamp_len 2 every distance above 2 reads R_2.
  const auto fed = make("transformer-xl", {{"dim", std::int64_t{4}}, {"len", std::int64_t{5}}, {"table", std::string("pos-emb")},
                                           {"clamp-len", std::int64_t{2}}})
                       ->to_matrix();
  for (std::size_t row = 0; row < 3; ++row) CHECK(fed(row, 0) == Approx(0.9092974268256816).epsilon(1e-15));  // sin 2
  CHECK(fed(3, 0) == Approx(0.8414709848078965).epsilon(1e-15));
  CHECK(fed(4, 0) == 0.0);
}

// _rel_shift of a 3 x 3 block by hand: padded rows [0 b0 b1 b2] read as 4 x 3, first row dropped.
// Column m of BD holds distance 2 - m; -1 marks the zero pad.
TEST_CASE("transformer-xl relative shift by hand", "[transformer-xl]") {
  const auto s = make("transformer-xl", {{"len", std::int64_t{3}}, {"table", std::string("shift")}})->to_matrix();
  const double want[3][3] = {{0, -1, 2}, {1, 0, -1}, {2, 1, 0}};
  for (std::size_t i = 0; i < 3; ++i)
    for (std::size_t j = 0; j < 3; ++j) CHECK(s(i, j) == want[i][j]);
  // With memory: entry (i, j) holds (i + mlen) - j for every j <= i + mlen.
  for (std::int64_t q = 1; q < 6; ++q)
    for (std::int64_t mlen = 0; mlen < 5; ++mlen)
      for (std::int64_t i = 0; i < q; ++i)
        for (std::int64_t j = 0; j <= i + mlen; ++j) CHECK(transformer_xl_shift_label(i, j, q, q + mlen, 0) == i + mlen - j);
}

TEST_CASE("transformer-xl refuses an odd width", "[transformer-xl]") {
  CHECK(error_of([] { make("transformer-xl", {{"dim", std::int64_t{5}}}); }) == "--dim must be even for transformer-xl (got 5)");
}
