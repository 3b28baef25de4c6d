#include "posenc/encodings/shaw.hpp"

#include <catch2/catch.hpp>

#include "error_of.hpp"

using namespace posenc::encodings;
using posenc_test::error_of;
using posenc_test::make;

// tensor2tensor: clip(j - i, -k, k) + k. len 4, k 1: row 0 = clip(0, 1, 2, 3) + 1 = 1, 2, 2, 2;
// row 3 = clip(-3, -2, -1, 0) + 1 = 0, 0, 0, 1.
TEST_CASE("shaw t2t index, len 4, k 1, by hand", "[shaw]") {
  const auto m = make("shaw", {{"len", std::int64_t{4}}, {"k", std::int64_t{1}}})->to_matrix();
  const double row0[] = {1, 2, 2, 2}, row3[] = {0, 0, 0, 1};
  for (std::size_t j = 0; j < 4; ++j) CHECK(m(0, j) == row0[j]);
  for (std::size_t j = 0; j < 4; ++j) CHECK(m(3, j) == row3[j]);
  const auto d = make("shaw", {{"len", std::int64_t{4}}, {"k", std::int64_t{1}}, {"table", std::string("distance")}})->to_matrix();
  CHECK(d(0, 3) == 1);  // clipped key - query
  CHECK(d(3, 0) == -1);
}

// transformers relative_key: i - j + max - 1, no clipping. len 4, max 4: row 0 = 3, 2, 1, 0; row 3 = 6, 5, 4, 3.
// The same (i, j) reads opposite ends of the table in the two conventions.
TEST_CASE("shaw hf index is query minus key plus max - 1, unclipped", "[shaw]") {
  const auto m = make("shaw", {{"len", std::int64_t{4}}, {"convention", std::string("hf")}, {"max-position", std::int64_t{4}}})
                     ->to_matrix();
  const double row0[] = {3, 2, 1, 0}, row3[] = {6, 5, 4, 3};
  for (std::size_t j = 0; j < 4; ++j) CHECK(m(0, j) == row0[j]);
  for (std::size_t j = 0; j < 4; ++j) CHECK(m(3, j) == row3[j]);
  ShawOptions t2t{ShawConvention::kT2t, 100, 512, 0}, hf{ShawConvention::kHf, 16, 512, 0};
  for (std::int64_t i = 0; i < 20; ++i)
    for (std::int64_t j = 0; j < 20; ++j) CHECK(shaw_distance(i, j, t2t) == -shaw_distance(i, j, hf));
}

// t2t with length_k > length_q: the queries are the last length_q keys (range_vec_k[-length_q:]).
// len 2, key-len 4, k 3: query 0 sits at key position 2, row 0 = clip(0-2, 1-2, 2-2, 3-2) + 3 = 1, 2, 3, 4.
TEST_CASE("shaw t2t puts the queries at the last key positions", "[shaw]") {
  const auto m = make("shaw", {{"len", std::int64_t{2}}, {"key-len", std::int64_t{4}}, {"k", std::int64_t{3}}})->to_matrix();
  const double row0[] = {1, 2, 3, 4};
  for (std::size_t j = 0; j < 4; ++j) CHECK(m(0, j) == row0[j]);
  CHECK(m(1, 0) == 0);
  CHECK(error_of([] { make("shaw", {{"len", std::int64_t{4}}, {"key-len", std::int64_t{2}}}); }) ==
        "--key-len 2 is shorter than --len 4: tensor2tensor takes the queries as the last --len key positions "
        "(range_vec_k[-length_q:]), so --key-len must be at least --len");
}

TEST_CASE("shaw hf refuses --k and lengths past max-position", "[shaw]") {
  CHECK(error_of([] { make("shaw", {{"convention", std::string("hf")}, {"k", std::int64_t{8}}}); }) ==
        "--k 8 clips tensor2tensor's distances; transformers' relative_key does not clip (its range is "
        "--max-position): drop --k or use --convention t2t");
  CHECK(error_of([] {
          make("shaw", {{"convention", std::string("hf")}, {"len", std::int64_t{10}}, {"max-position", std::int64_t{8}}});
        }).starts_with("--len/--key-len 10 exceeds --max-position 8"));
}
