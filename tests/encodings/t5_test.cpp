#include "posenc/encodings/t5.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <map>

#include "posenc/encodings/scheme.hpp"
#include "posenc/error.hpp"
#include "posenc/schemes/registry.hpp"

using posenc::encodings::T5Options;
using posenc::encodings::t5_bucket;

namespace {

// The same algorithm in double precision, written from the mesh-tensorflow description
// (for the float32 agreement check).
std::int64_t bucket_f64(std::int64_t rp, std::int64_t nb, std::int64_t maxd, bool bidi) {
  std::int64_t b = 0;
  std::int64_t n = 0;
  if (bidi) {
    nb /= 2;
    b = rp > 0 ? nb : 0;
    n = std::abs(rp);
  } else {
    n = std::max<std::int64_t>(-rp, 0);
  }
  const std::int64_t e = nb / 2;
  if (n < e) return b + n;
  const auto ed = static_cast<double>(e);
  const double v = std::log(static_cast<double>(n) / ed) / std::log(static_cast<double>(maxd) / ed) *
                   static_cast<double>(nb - e);
  return b + std::min<std::int64_t>(e + static_cast<std::int64_t>(v), nb - 1);
}

// First distance n at which each bucket appears, scanning n = 0..limit.
std::map<std::int64_t, std::int64_t> first_distance(const T5Options& o, int sign, int limit) {
  std::map<std::int64_t, std::int64_t> first;
  for (std::int64_t n = 0; n <= limit; ++n) first.emplace(t5_bucket(sign * n, o), n);
  return first;
}

}  // namespace

TEST_CASE("t5 bidirectional buckets: the hand-worked table of REFERENCES §2.6", "[t5]") {
  const T5Options o;  // 32 buckets, max distance 128, bidirectional
  const std::map<std::int64_t, std::int64_t> expected = {
      {-200, 15}, {-128, 15}, {-127, 15}, {-100, 15}, {-64, 14}, {-32, 12}, {-16, 10}, {-12, 9},
      {-11, 8},   {-8, 8},    {-7, 7},    {-1, 1},    {0, 0},    {1, 17},   {7, 23},   {8, 24},
      {11, 24},   {12, 25},   {16, 26},   {32, 28},   {64, 30},  {127, 31}, {1000, 31}};
  for (const auto& [rp, bucket] : expected) {
    INFO("rp = " << rp);
    CHECK(t5_bucket(rp, o) == bucket);
  }
}

TEST_CASE("t5 bucket edges: first distance of each bucket", "[t5]") {
  // Bidirectional, past side (rp < 0): 0..7 exact, then 8, 12, 16, 23, 32, 46, 64, 91.
  const auto bi = first_distance(T5Options{}, -1, 300);
  const std::map<std::int64_t, std::int64_t> bi_expected = {{8, 8},   {9, 12},  {10, 16}, {11, 23},
                                                            {12, 32}, {13, 46}, {14, 64}, {15, 91}};
  for (std::int64_t b = 0; b < 8; ++b) CHECK(bi.at(b) == b);
  for (const auto& [b, n] : bi_expected) {
    INFO("bucket " << b);
    CHECK(bi.at(b) == n);
    CHECK(t5_bucket(-(n - 1), T5Options{}) == b - 1);  // one step closer is still the previous bucket
  }
  CHECK(t5_bucket(-128, T5Options{}) == 15);
  CHECK(t5_bucket(128, T5Options{}) == 31);
  CHECK(t5_bucket(91, T5Options{}) == 31);
  CHECK(t5_bucket(90, T5Options{}) == 30);

  // Causal (decoder): 0..15 exact, then 16, 19, 21, 24, 27, 31, 35, 40, 46, 52, 59, 67, 77, 87, 99, 113.
  const T5Options causal{32, 128, false};
  const auto ca = first_distance(causal, -1, 300);
  const std::vector<std::int64_t> firsts = {16, 19, 21, 24, 27, 31, 35, 40, 46, 52, 59, 67, 77, 87, 99, 113};
  for (std::int64_t b = 0; b < 16; ++b) CHECK(ca.at(b) == b);
  for (std::size_t i = 0; i < firsts.size(); ++i) {
    INFO("causal bucket " << 16 + i);
    CHECK(ca.at(static_cast<std::int64_t>(16 + i)) == firsts[i]);
  }
  // Future keys all land in bucket 0.
  CHECK(t5_bucket(1, causal) == 0);
  CHECK(t5_bucket(500, causal) == 0);
}

TEST_CASE("t5 float32 emulation agrees with float64 on distances 0..2000", "[t5]") {
  for (bool bidi : {true, false})
    for (std::int64_t rp = -2000; rp <= 2000; ++rp) {
      INFO("rp = " << rp << " bidirectional " << bidi);
      REQUIRE(t5_bucket(rp, T5Options{32, 128, bidi}) == bucket_f64(rp, 32, 128, bidi));
    }
}

TEST_CASE("t5 table is N x M of bucket(j - i); bad settings name the option", "[t5]") {
  posenc::ParamMap p;
  p.set("len", std::int64_t{3});
  p.set("key-len", std::int64_t{5});
  auto t = posenc::schemes::make_table("t5", p);
  CHECK(t->info().shape == std::vector<std::size_t>{3, 5});
  const auto m = t->to_matrix();
  CHECK(m(0, 1) == 17);  // rp = 1
  CHECK(m(2, 0) == 2);   // rp = -2
  CHECK(m(2, 4) == 18);  // rp = 2
  p.set("buckets", std::int64_t{2});
  CHECK_THROWS_WITH(posenc::schemes::make_table("t5", p), Catch::Contains("--buckets"));
  p.set("buckets", std::int64_t{32});
  p.set("max-distance", std::int64_t{8});
  CHECK_THROWS_WITH(posenc::schemes::make_table("t5", p), Catch::Contains("--max-distance"));
}
