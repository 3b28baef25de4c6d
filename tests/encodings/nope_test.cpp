#include "posenc/encodings/nope.hpp"

#include <catch2/catch.hpp>

#include <cmath>

#include "posenc/encodings/scheme.hpp"
#include "posenc/schemes/registry.hpp"

using namespace posenc::encodings;
using namespace posenc::schemes;

// Llama 4 (llama-models model.py; transformers Llama4TextAttention): 1 + 0.1 ln(floor((t+1)/8192) + 1).
TEST_CASE("nope temperature: 1 up to position 8190, 1 + 0.1 ln 2 from 8191, 1 + 0.1 ln 3 from 16383", "[nope]") {
  for (const bool f32 : {false, true}) {
    CHECK(nope_temperature(0, 0.1, 8192, f32) == 1.0);
    CHECK(nope_temperature(8190, 0.1, 8192, f32) == 1.0);
    CHECK(nope_temperature(8191, 0.1, 8192, f32) == Approx(1 + 0.1 * std::log(2.0)).epsilon(1e-7));
    CHECK(nope_temperature(16382, 0.1, 8192, f32) == Approx(1 + 0.1 * std::log(2.0)).epsilon(1e-7));
    CHECK(nope_temperature(16383, 0.1, 8192, f32) == Approx(1 + 0.1 * std::log(3.0)).epsilon(1e-7));
  }
  // float32 positions (maxtext#1611): t = 2^25 + 8190 rounds (tie to even) to 2^25 + 8192 in
  // float32, so floor((t+1)/8192) is 4097 there and 4096 in double.
  const std::int64_t t = (std::int64_t{1} << 25) + 8190;
  CHECK(nope_temperature(t, 0.1, 8192, false) == Approx(1 + 0.1 * std::log(4097.0)).epsilon(1e-12));
  CHECK(nope_temperature(t, 0.1, 8192, true) == Approx(1 + 0.1 * std::log(4098.0)).epsilon(1e-7));
}

TEST_CASE("nope layers: every 4th of 48 is NoPE (3, 7, ..., 47)", "[nope]") {
  int count = 0;
  for (std::int64_t l = 0; l < 48; ++l) count += is_nope_layer(l, 4) ? 1 : 0;
  CHECK(count == 12);
  CHECK(is_nope_layer(3, 4));
  CHECK(!is_nope_layer(4, 4));
  CHECK(is_nope_layer(47, 4));
}

TEST_CASE("nope query table: the same row at every position unless the temperature grows", "[nope]") {
  posenc::ParamMap p;
  p.set("len", std::int64_t{4});
  p.set("dim", std::int64_t{3});
  p.set("start", std::int64_t{8189});
  const auto plain = make_table("nope", p)->to_matrix();
  for (std::size_t t = 0; t < 4; ++t)
    for (std::size_t k = 0; k < 3; ++k) CHECK(plain(t, k) == 1.0);
  p.set("temperature", true);
  const auto tuned = make_table("nope", p)->to_matrix();
  CHECK(tuned(1, 0) == 1.0);  // position 8190
  CHECK(tuned(2, 0) == Approx(1 + 0.1 * std::log(2.0)).epsilon(1e-7));  // 8191
}
