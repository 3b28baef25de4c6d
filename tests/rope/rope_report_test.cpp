// The per-pair report and the comparison of two configurations.
#include <catch2/catch.hpp>
#include <cmath>
#include <numbers>

#include "posenc/rope/rope_report.hpp"
#include "posenc/schemes/registry.hpp"
#include "rope_test_util.hpp"

using namespace posenc::encodings;
using namespace posenc::rope;
using namespace posenc::schemes;

TEST_CASE("report: Llama-2 pairs >= 46 never complete a turn in 4096 tokens", "[rope][report]") {
  auto c = rope_test::config(128, 10000.0);
  c.max_position_embeddings = 4096;
  const auto r = make_rope_report(c);
  REQUIRE(r.rows.size() == 64);
  // REFERENCES §2.10: corr_dim(1) = 45.03, so pairs 46..63 have wavelength > 4096.
  CHECK(r.never_full_turn == 18);
  CHECK(r.rows[45].turns_original > 1.0);
  CHECK(r.rows[46].turns_original < 1.0);
  CHECK(r.rows[1].wavelength == Approx(2 * std::numbers::pi * std::pow(1e4, 2.0 / 128)).epsilon(1e-12));
  CHECK(r.rows[0].turns_original == Approx(4096 / (2 * std::numbers::pi)).epsilon(1e-12));
  CHECK(r.rows[3].dim_a == 3);
  CHECK(r.rows[3].dim_b == 67);  // half layout
  CHECK(r.unchanged == 64);
  CHECK(r.logit_scale == 1.0);
}

TEST_CASE("report: yarn target length, logit scale and regime counts", "[rope][report]") {
  auto c = rope_test::config(128, 10000.0);
  c.scaling = RopeScaling::kYarn;
  c.factor = 4.0;
  c.original_max_position_embeddings = 4096;
  const auto r = make_rope_report(c);
  CHECK(r.target_length == 16384);  // factor × L_orig
  CHECK(r.logit_scale == Approx(1.138629436112 * 1.138629436112).epsilon(1e-11));
  CHECK(r.unchanged == 21);         // pairs 0..20 (ramp 0 at j ≤ low = 20)
  CHECK(r.interpolated == 18);      // pairs 46..63
  CHECK(r.blended == 25);
  // Interpolated pairs turn in the target length as often as in training.
  CHECK(r.rows[60].turns_target == Approx(r.rows[60].turns_original).epsilon(1e-12));
}

TEST_CASE("diff: linear x2 against none, values by hand", "[rope][report]") {
  auto a = rope_test::config(8, 10000.0);  // f64: θ = 1, 0.1, 0.01, 0.001
  a.scaling = RopeScaling::kLinear;
  a.factor = 2.0;
  const auto b = rope_test::config(8, 10000.0);
  const auto d = compare_rope(a, b, 3);  // positions 0, 1, 2
  CHECK(d.pairs == 4);
  CHECK(d.inv_freq_max_rel == Approx(0.5).epsilon(1e-15));  // |θ/2 − θ| / θ for every pair
  CHECK(d.inv_freq_max_abs == Approx(0.5).epsilon(1e-15));  // pair 0
  // Pair 0 at position 2: |cos 1 − cos 2| = 0.9564491424 is the largest cos difference;
  // |sin 1 − sin 2| = 0.0678264420, but position 1 gives |sin 0.5 − sin 1| = 0.3620924145.
  CHECK(d.cos_max_abs == Approx(std::abs(std::cos(1.0) - std::cos(2.0))).epsilon(1e-14));
  CHECK(d.sin_max_abs == Approx(std::abs(std::sin(0.5) - std::sin(1.0))).epsilon(1e-14));
  CHECK(d.table_worst_position == 2);
  CHECK(d.table_worst_pair == 0);
  CHECK_FALSE(d.within(0.9));
  CHECK(d.within(0.96));
}

TEST_CASE("diff: yarn truncate true vs false differs beyond 1e-3", "[rope][report]") {
  auto a = rope_test::config(64, 150000.0);
  a.scaling = RopeScaling::kYarn;
  a.factor = 32.0;
  a.original_max_position_embeddings = 4096;
  auto b = a;
  b.truncate = false;
  const auto d = compare_rope(a, b, 4096);
  CHECK(d.inv_freq_max_rel > 1e-3);
  CHECK(d.cos_max_abs > 1e-3);
  CHECK_FALSE(d.within(1e-3));
  CHECK(compare_rope(a, a, 100).within(0.0));
}

TEST_CASE("diff: different pair counts cannot be compared", "[rope][report]") {
  CHECK_THROWS_WITH(compare_rope(rope_test::config(64, 1e4), rope_test::config(128, 1e4), 4),
                    Catch::Contains("cannot compare"));
}

TEST_CASE("report: dynamic's target length is where its frequencies are evaluated", "[rope][report]") {
  auto c = rope_test::config(128, 10000.0);
  c.scaling = RopeScaling::kDynamic;
  c.factor = 4.0;
  c.max_position_embeddings = 4096;
  // Without --seq-len transformers keeps the original frequencies: the target is 4096 too, and
  // turns in the target equal turns in training (before: target 16384 with unscaled θ).
  auto r = make_rope_report(c);
  CHECK(r.target_length == 4096);
  CHECK(r.target_source.starts_with("max_position_embeddings"));
  const double two_pi = 2 * std::numbers::pi;
  for (std::size_t i : {0u, 20u, 63u})
    CHECK(r.rows[i].turns_target == Approx(4096 * std::pow(10.0, -static_cast<double>(i) / 16) / two_pi).epsilon(1e-12));
  // At --seq-len 16384: b' = 1e4·(4·16384/4096 − 3)^(128/126) = 1e4·13^(64/63), θ'_63 = 10^(-63/16)·13^(-1).
  c.seq_len = 16384;
  r = make_rope_report(c);
  CHECK(r.target_length == 16384);
  CHECK(r.rows[63].turns_target == Approx(16384 * std::pow(10.0, -63.0 / 16) / 13 / two_pi).epsilon(1e-12));
}

TEST_CASE("report: lengths say where they come from, or that they are not set", "[rope][report]") {
  auto r = make_rope_report(rope_test::config(16, 10000.0));
  CHECK(r.original_length == 0);
  CHECK(r.target_length == 0);
  CHECK(r.original_source.empty());
  auto c = rope_test::config(16, 10000.0);
  c.max_position_embeddings = 4096;
  r = make_rope_report(c);
  CHECK(r.original_length == 4096);
  CHECK(r.original_source == "max_position_embeddings; no original_max_position_embeddings");
  CHECK(r.target_source == "no extension: the original length");
  bool listed = false;  // the fallback is listed with the settings
  for (const auto& s : r.config.sources)
    listed = listed || (s.name == "original-max-position-embeddings" && s.value == "4096" &&
                        s.source == "derived: max_position_embeddings; no original_max_position_embeddings");
  CHECK(listed);
}
