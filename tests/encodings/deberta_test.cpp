#include "posenc/encodings/deberta.hpp"

#include <catch2/catch.hpp>

#include "posenc/error.hpp"

using namespace posenc::encodings;

// Hand-worked, buckets 4 (mid 2), max_relative 8: |d| <= 2 keeps d; 3 -> ceil(ln 1.5 / ln 3.5) + 2
// = 3, 4 -> ceil(0.553) + 2 = 3; 8 -> ceil(ln 4 / ln 3.5 = 1.107) + 2 = 4 (hf), microsoft clamps
// 8 to 7 first: ceil(1) + 2 = 3.
TEST_CASE("deberta buckets, small case by hand", "[deberta]") {
  DebertaOptions o{4, 8, DebertaImpl::kHf, DebertaIndex::kBucket};
  CHECK(deberta_bucket(0, o) == 0);
  CHECK(deberta_bucket(2, o) == 2);
  CHECK(deberta_bucket(-2, o) == -2);
  CHECK(deberta_bucket(3, o) == 3);
  CHECK(deberta_bucket(4, o) == 3);
  CHECK(deberta_bucket(-4, o) == -3);
  CHECK(deberta_bucket(8, o) == 4);
  o.impl = DebertaImpl::kMicrosoft;
  CHECK(deberta_bucket(8, o) == 3);
  CHECK(deberta_bucket(-100, o) == -3);
}

// schemes.md §8 values for 256 / 512: 256 -> 192, 511 -> 255; hf keeps growing (512 -> 256,
// 600 -> 270), microsoft saturates at 255. c2p = clamp(b + 256, 0, 511): -512 -> 0 (hf), 1 (microsoft).
TEST_CASE("deberta 256/512: hf and microsoft differ from |d| = 512", "[deberta]") {
  DebertaOptions hf{256, 512, DebertaImpl::kHf, DebertaIndex::kBucket};
  DebertaOptions ms = hf;
  ms.impl = DebertaImpl::kMicrosoft;
  CHECK(deberta_bucket(128, hf) == 128);
  CHECK(deberta_bucket(256, hf) == 192);
  CHECK(deberta_bucket(511, hf) == 255);
  CHECK(deberta_bucket(512, hf) == 256);
  CHECK(deberta_bucket(600, hf) == 270);
  CHECK(deberta_bucket(600, ms) == 255);
  CHECK(deberta_bucket(-512, ms) == -255);
  for (std::int64_t d = -511; d <= 511; ++d) CHECK(deberta_bucket(d, hf) == deberta_bucket(d, ms));
  for (std::int64_t d = 1; d <= 2000; ++d) CHECK(deberta_bucket(-d, hf) == -deberta_bucket(d, hf));  // antisymmetric
  hf.index = ms.index = DebertaIndex::kC2p;
  CHECK(deberta_value(-512, hf) == 0);
  CHECK(deberta_value(-512, ms) == 1);
  CHECK(deberta_value(512, hf) == 511);
  hf.index = DebertaIndex::kP2c;
  CHECK(deberta_value(3, hf) == 253);
}

TEST_CASE("deberta refuses buckets it cannot split", "[deberta]") {
  CHECK_THROWS_WITH(check_deberta({5, 512, DebertaImpl::kHf, DebertaIndex::kBucket}), Catch::Contains("--buckets"));
  CHECK_THROWS_WITH(check_deberta({256, 129, DebertaImpl::kHf, DebertaIndex::kBucket}),
                    Catch::Contains("--max-relative must exceed"));
}
