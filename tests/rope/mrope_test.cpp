#include "posenc/rope/mrope.hpp"

#include <catch2/catch.hpp>

#include <cmath>

#include "posenc/analysis/mrope_case.hpp"
#include "posenc/encodings/scheme.hpp"
#include "posenc/error.hpp"
#include "posenc/schemes/registry.hpp"

using namespace posenc::encodings;
using namespace posenc::rope;
using namespace posenc::schemes;
using Ids = std::array<std::int64_t, 3>;

namespace {

MropeOptions small(MropeRule rule, std::array<std::int64_t, 3> grid, std::int64_t before, std::int64_t after) {
  MropeOptions o;
  o.rule = rule;
  o.grid = grid;
  o.text_before = before;
  o.text_after = after;
  return o;
}

}  // namespace

// Hand-worked from transformers' Qwen2VLModel.get_rope_index: text 0,1,2; the image's merged
// 2x3 grid starts at st_idx + text_len = 3; the next text starts at max + 1 = 3 + max(0, 1, 2) + 1.
TEST_CASE("mrope qwen2-vl: text, a 1x4x6 image merged 2x2, text", "[mrope]") {
  const MropeSequence s(small(MropeRule::kQwen2Vl, {1, 4, 6}, 3, 2));
  REQUIRE(s.tokens() == 11);
  CHECK(s.vision_tokens() == 6);
  const std::vector<Ids> expected = {{0, 0, 0}, {1, 1, 1}, {2, 2, 2}, {3, 3, 3}, {3, 3, 4}, {3, 3, 5},
                                     {3, 4, 3}, {3, 4, 4}, {3, 4, 5}, {6, 6, 6}, {7, 7, 7}};
  for (std::size_t n = 0; n < expected.size(); ++n) CHECK(s.ids(static_cast<std::int64_t>(n)) == expected[n]);
  CHECK(s.rope_delta() == 8 - 11);  // max id 7, + 1, minus 11 tokens
  CHECK(!s.is_vision(2));
  CHECK(s.is_vision(3));
  CHECK(!s.is_vision(9));
}

TEST_CASE("mrope video: qwen2-vl t = frame, qwen2.5-vl t = trunc(frame*spg*tps), qwen3-vl frames apart", "[mrope]") {
  // Video grid 3x4x4, merged 2x2 per frame, one text token before and after.
  const MropeSequence q2(small(MropeRule::kQwen2Vl, {3, 4, 4}, 1, 1));
  REQUIRE(q2.tokens() == 14);
  CHECK(q2.ids(1) == Ids{1, 1, 1});
  CHECK(q2.ids(4) == Ids{1, 2, 2});
  CHECK(q2.ids(5) == Ids{2, 1, 1});   // frame 1
  CHECK(q2.ids(12) == Ids{3, 2, 2});  // frame 2, last cell
  CHECK(q2.ids(13) == Ids{4, 4, 4});  // 1 + max(2, 1, 1) + 1
  CHECK(q2.rope_delta() == 5 - 14);

  auto o25 = small(MropeRule::kQwen25Vl, {3, 4, 4}, 1, 1);  // tokens_per_second 2, second_per_grid 1
  const MropeSequence q25(o25);
  CHECK(q25.ids(5) == Ids{3, 1, 1});   // 1 + 1*1*2
  CHECK(q25.ids(9) == Ids{5, 1, 1});   // 1 + 2*1*2
  CHECK(q25.ids(13) == Ids{6, 6, 6});
  CHECK(q25.rope_delta() == 7 - 14);
  // float32(0.3) = 0.30000001192..., times 2 = 0.6000000238 -> 0; frame 2: 1.2000000477 -> 1.
  o25.seconds_per_grid = 0.3;
  const MropeSequence q25b(o25);
  CHECK(q25b.ids(5)[0] == 1);
  CHECK(q25b.ids(9)[0] == 2);

  // Qwen3VLModel.get_rope_index splits the video into 3 grids of one frame; 2 text tokens
  // between frames: frame blocks start at 1, 5, 9 (each 2x2: max + 1 = start + 2).
  const MropeSequence q3(small(MropeRule::kQwen3Vl, {3, 4, 4}, 1, 1));
  REQUIRE(q3.tokens() == 18);
  CHECK(q3.ids(1) == Ids{1, 1, 1});
  CHECK(q3.ids(4) == Ids{1, 2, 2});
  CHECK(q3.ids(5) == Ids{3, 3, 3});  // text between frames
  CHECK(q3.ids(6) == Ids{4, 4, 4});
  CHECK(q3.ids(7) == Ids{5, 5, 5});  // frame 1: t = 0 + start
  CHECK(q3.ids(10) == Ids{5, 6, 6});
  CHECK(q3.ids(13) == Ids{9, 9, 9});
  CHECK(q3.ids(17) == Ids{11, 11, 11});
  CHECK(q3.rope_delta() == 12 - 18);
}

TEST_CASE("mrope pair axes: sectioned blocks and qwen3-vl's every third pair", "[mrope]") {
  MropeOptions o;  // d = 128, 16,24,24 sectioned
  auto a = mrope_pair_axes(o);
  REQUIRE(a.size() == 64);
  CHECK(a[0] == 0);
  CHECK(a[15] == 0);
  CHECK(a[16] == 1);
  CHECK(a[39] == 1);
  CHECK(a[40] == 2);
  CHECK(a[63] == 2);
  o.sections = {24, 20, 20};
  o.mrope_layout = MropeLayout::kInterleaved;
  a = mrope_pair_axes(o);
  CHECK(a[0] == 0);
  CHECK(a[1] == 1);
  CHECK(a[2] == 2);
  CHECK(a[3] == 0);
  CHECK(a[58] == 1);
  CHECK(a[59] == 2);
  for (std::size_t j = 60; j < 64; ++j) CHECK(a[j] == 0);  // 61 and 62 are past 3*20
  CHECK(std::count(a.begin(), a.end(), 0) == 24);
  CHECK(std::count(a.begin(), a.end(), 1) == 20);
  CHECK(std::count(a.begin(), a.end(), 2) == 20);
}

TEST_CASE("mrope table: cos of pair 40 (w) of an image token in both halves", "[mrope]") {
  posenc::ParamMap p;
  p.set("grid", std::string("1,4,6"));
  p.set("text-before", std::int64_t{3});
  p.set("text-after", std::int64_t{2});
  p.set("precision", std::string("f64"));
  const auto t = make_table("mrope", p);
  REQUIRE(t->rows() == 11);
  REQUIRE(t->cols() == 128);
  std::vector<double> row(128);
  t->fill(4, 1, row);  // ids (3, 3, 4)
  const double theta40 = std::pow(1e6, -80.0 / 128.0), theta0 = 1.0;
  CHECK(row[40] == Approx(std::cos(4 * theta40)).margin(1e-15));
  CHECK(row[40 + 64] == Approx(std::cos(4 * theta40)).margin(1e-15));
  CHECK(row[0] == Approx(std::cos(3 * theta0)).margin(1e-15));
  p.set("table", std::string("positions"));
  const auto pos = make_table("mrope", p);
  REQUIRE(pos->cols() == 3);
  std::vector<double> ids(3);
  pos->fill(10, 1, ids);
  CHECK(ids == std::vector<double>{7, 7, 7});
  p.set("len", std::int64_t{14});  // continues with text: ids 8, 9, 10
  const auto longer = make_table("mrope", p);
  REQUIRE(longer->rows() == 14);
  longer->fill(13, 1, ids);
  CHECK(ids == std::vector<double>{10, 10, 10});
}

TEST_CASE("mrope presets: qwen3-vl is interleaved 24,20,20 with base 5e6", "[mrope]") {
  posenc::ParamMap full(find_scheme("mrope").params);
  full.set("preset", std::string("qwen3-vl"));
  const auto o = mrope_options(full);
  CHECK(o.base == 5e6);
  CHECK(o.sections == std::array<std::int64_t, 3>{24, 20, 20});
  CHECK(o.mrope_layout == MropeLayout::kInterleaved);
  CHECK(o.rule == MropeRule::kQwen3Vl);
}

TEST_CASE("mrope refuses what the models' code would mis-split", "[mrope]") {
  MropeOptions o;
  o.sections = {16, 24, 23};
  CHECK_THROWS_WITH(check_mrope(o), Catch::Contains("--sections 16,24,23 must add up to the 64 pairs"));
  o = MropeOptions{};
  o.grid = {1, 5, 8};
  CHECK_THROWS_WITH(check_mrope(o), Catch::Contains("not a multiple of --merge 2"));
  o = MropeOptions{};
  o.mrope_layout = MropeLayout::kInterleaved;
  o.sections = {0, 32, 32};
  CHECK_THROWS_WITH(check_mrope(o), Catch::Contains("at most 21"));
  o = MropeOptions{};
  o.dim = 127;
  CHECK_THROWS_WITH(check_mrope(o), Catch::Contains("--dim must be even"));
}

TEST_CASE("mrope identities hold on its table and fail on broken ones", "[mrope][identity]") {
  using namespace posenc::analysis;
  MropeOptions o = small(MropeRule::kQwen2Vl, {2, 4, 6}, 3, 3);
  o.precision = posenc::rope::RopePrecision::kF64;
  auto c = make_mrope_case(o, QkChoice::kRandom, 0);
  CHECK(check_axial_relative(c, 1e-9).holds);
  CHECK(check_text_reduces_to_rope(c, 1e-9).holds);
  CHECK(check_axial_norm(c, 1e-12).holds);
  // A t pair that follows w instead on one image token (ids 3, 3, 4): the scores of that token
  // no longer depend on the offsets alone.
  auto broken = c;
  const std::size_t token = 4, pair = 1;  // pair 1 follows t
  REQUIRE(broken.ids[token] == Ids{3, 3, 4});
  const double wrong = static_cast<double>(broken.ids[token][2]) * std::pow(1e6, -2.0 / 128.0);
  broken.cos(token, pair) = std::cos(wrong);
  broken.sin(token, pair) = std::sin(wrong);
  const auto r = check_axial_relative(broken, 1e-6);
  CHECK(!r.holds);
  CHECK(r.max_error > 1e-3);
  CHECK(check_axial_norm(broken, 1e-12).holds);  // still a rotation
  // Text token 1 rotated as position 2: not 1-D RoPE at its position.
  auto shifted = c;
  for (std::size_t j = 0; j < shifted.cos.cols(); ++j) {
    shifted.cos(1, j) = c.cos(2, j);
    shifted.sin(1, j) = c.sin(2, j);
  }
  CHECK(!check_text_reduces_to_rope(shifted, 1e-6).holds);
  // cos and sin scaled by 1.01 (an attention factor): norms grow by 1 %.
  auto scaled = c;
  for (std::size_t j = 0; j < scaled.cos.cols(); ++j) scaled.cos(0, j) *= 1.01, scaled.sin(0, j) *= 1.01;
  const auto n = check_axial_norm(scaled, 1e-6);
  CHECK(!n.holds);
  CHECK(n.max_error == Approx(0.01).epsilon(1e-9));
}
