#include "posenc/analysis/extrapolation.hpp"

#include <catch2/catch.hpp>
#include <algorithm>
#include <cstring>

#include <cmath>
#include <numbers>
#include <vector>

#include "posenc/schemes/registry.hpp"
#include "posenc/error.hpp"
#include "test_data.hpp"

namespace {

using posenc::analysis::AngleReach;

posenc::ParamMap extrapolation_test_rope(std::int64_t dim) {
  posenc::ParamMap p(posenc::schemes::find_scheme("rope").params);
  p.set("dim", dim, true);
  return p;
}

/// The mean entropy of softmax(scale·x) over offsets 0 … n−1 for each n, x_Δ = Σ_i Re[c_i e^{iΔθ_i}]
/// with std::cos and std::sin of each angle Δ·θ_i, max first, then −Σ p ln p: the definition,
/// computed the plain way (the logits once, then two passes over each length's prefix).
std::vector<double> extrap_plain_entropy(const std::vector<double>& theta, const std::vector<std::vector<double>>& qk,
                                         const std::vector<std::int64_t>& lengths, double scale) {
  const std::size_t samples = qk.size() / 2;
  const std::int64_t longest = lengths.empty() ? 0 : *std::max_element(lengths.begin(), lengths.end());
  std::vector<double> out(lengths.size(), 0.0);
  for (std::size_t s = 0; s < samples; ++s) {
    std::vector<double> x;  // the logits at offsets 0 … longest−1, then each length's prefix
    for (std::int64_t d = 0; d < longest; ++d) {
      double v = 0;
      for (std::size_t i = 0; i < theta.size(); ++i) {
        const double qa = qk[2 * s][2 * i], qb = qk[2 * s][2 * i + 1], ka = qk[2 * s + 1][2 * i],
                     kb = qk[2 * s + 1][2 * i + 1];
        const double a = static_cast<double>(d) * theta[i];
        v += (qa * ka + qb * kb) * std::cos(a) - (qb * ka - qa * kb) * std::sin(a);
      }
      x.push_back(v * scale);
    }
    for (std::size_t l = 0; l < lengths.size(); ++l) {
      const auto n = static_cast<std::size_t>(lengths[l]);
      const double top = *std::max_element(x.begin(), x.begin() + static_cast<std::ptrdiff_t>(n));
      double zsum = 0;
      for (std::size_t j = 0; j < n; ++j) zsum += std::exp(x[j] - top);
      double h = 0;
      for (std::size_t j = 0; j < n; ++j) {
        const double p = std::exp(x[j] - top) / zsum;
        h -= p * std::log(p);
      }
      out[l] += h / static_cast<double>(samples);
    }
  }
  return out;
}

}  // namespace

TEST_CASE("rotation distance of one pair at offset pi is the chord 2", "[extrapolation]") {
  const std::vector<double> one = {1.0};
  CHECK(posenc::analysis::rope_rotation_distance(one, std::numbers::pi) == Approx(2.0).margin(1e-15));
  // A pair with θ = 0 never moves: the RMS over two pairs is sqrt((4 + 0) / 2).
  const std::vector<double> two = {1.0, 0.0};
  CHECK(posenc::analysis::rope_rotation_distance(two, std::numbers::pi) == Approx(std::sqrt(2.0)).epsilon(1e-15));
}

TEST_CASE("resolution of a pair slowed by 4 is 4 positions", "[extrapolation]") {
  // D(Δ) = |e^{iΔθ} − 1| = 2 sin(Δθ/2): D'(Δ) with θ/4 equals D(1) with θ at Δ = 4 exactly.
  const std::vector<double> slow = {0.25};
  const double threshold = 2.0 * std::sin(0.5);  // D(1) for θ = 1
  CHECK(posenc::analysis::rope_resolution(slow, threshold, 100) == Approx(4.0).margin(1e-9));
  const std::vector<double> same = {1.0};
  CHECK(posenc::analysis::rope_resolution(same, threshold, 100) == Approx(1.0).epsilon(1e-9));
  // With the threshold computed by the same function, an unscaled pair gives exactly 1.
  CHECK(posenc::analysis::rope_resolution(same, posenc::analysis::rope_rotation_distance(same, 1.0), 100) == 1.0);
  const std::vector<double> still = {0.0};  // never reaches it
  CHECK(posenc::analysis::rope_resolution(still, threshold, 100) == 0.0);
}

TEST_CASE("attention entropy without rotation is ln n, and by hand for two keys", "[extrapolation]") {
  const std::vector<std::vector<double>> qk = {{1.0, 0.0}, {1.0, 0.0}};
  const std::vector<std::int64_t> lengths = {1, 2, 7};
  const std::vector<double> zero = {0.0};
  const auto flat = posenc::analysis::rope_attention_entropy(zero, qk, lengths, 3.0);
  REQUIRE(flat.size() == 3);
  CHECK(flat[0] == Approx(0.0).margin(1e-15));
  CHECK(flat[1] == Approx(std::log(2.0)).epsilon(1e-14));
  CHECK(flat[2] == Approx(std::log(7.0)).epsilon(1e-14));
  // θ = π: logits cos(0) = 1 and cos(π) = −1; p = softmax(1, −1), H = 0.36533385508720767 (by hand).
  const std::vector<double> pi = {std::numbers::pi};
  const std::vector<std::int64_t> two = {2};
  CHECK(posenc::analysis::rope_attention_entropy(pi, qk, two, 1.0)[0] == Approx(0.36533385508720767).epsilon(1e-14));
}

TEST_CASE("attention entropy at several scales: one pass, each as alone and as a two-pass softmax", "[extrapolation]") {
  // 5 seeded (q, k) of 12 pairs, θ_i = 10000^(−i/12), lengths 1 … 3000 (12 tiles of 256 offsets,
  // lengths inside and at the ends of tiles): rope_attention_entropies and rope_attention_entropy
  // agree with a plain two-pass softmax written here (std::cos/std::sin per angle, max first,
  // then Σ p ln p) to 1e-13 relative.
  const std::size_t pairs = 12;
  const auto qk = posenc::analysis::extrapolation_qk(5, 11, pairs);
  std::vector<double> theta;
  for (std::size_t i = 0; i < pairs; ++i) theta.push_back(std::pow(10000.0, -static_cast<double>(i) / pairs));
  const std::vector<std::int64_t> lengths = {1, 16, 256, 257, 1000, 2999, 3000};
  const std::vector<double> scales = {0.125, 0.125 * 1.7};
  const auto both = posenc::analysis::rope_attention_entropies(theta, qk, lengths, scales);
  REQUIRE(both.size() == 2);
  for (std::size_t q = 0; q < 2; ++q) {
    const auto alone = posenc::analysis::rope_attention_entropy(theta, qk, lengths, scales[q]);
    const auto want = extrap_plain_entropy(theta, qk, lengths, scales[q]);
    REQUIRE(both[q].size() == lengths.size());
    REQUIRE(alone.size() == lengths.size());
    for (std::size_t l = 0; l < lengths.size(); ++l) {
      CHECK(both[q][l] == Approx(want[l]).epsilon(1e-13).margin(1e-15));
      CHECK(alone[l] == Approx(want[l]).epsilon(1e-13).margin(1e-15));
    }
  }
}

TEST_CASE("attention entropy of several methods in one pass equals each method alone", "[extrapolation]") {
  // Three thetas of 8 pairs sharing some frequencies (as none, yarn and llama3 do), one with two
  // scales, lengths across several blocks of the worker threads (8192 offsets): each output
  // agrees with the plain two-pass softmax to 1e-13 relative.
  const auto qk = posenc::analysis::extrapolation_qk(3, 5, 8);
  std::vector<double> a, b, c;
  for (int i = 0; i < 8; ++i) {
    a.push_back(std::pow(500000.0, -i / 8.0));
    b.push_back(i < 4 ? a.back() : a.back() / 16);
    c.push_back(i % 2 ? a.back() : b.back() * 3);
  }
  const std::vector<std::int64_t> lengths = {16, 700, 1500, 8192, 8193, 20000};
  const std::vector<std::vector<double>> scales = {{0.25}, {0.25, 0.4}, {0.3}};
  const auto all = posenc::analysis::rope_attention_entropies_batch({a, b, c}, qk, lengths, scales);
  REQUIRE(all.size() == 3);
  const std::vector<double>* th[] = {&a, &b, &c};
  for (std::size_t k = 0; k < 3; ++k)
    for (std::size_t q = 0; q < scales[k].size(); ++q) {
      const auto want = extrap_plain_entropy(*th[k], qk, lengths, scales[k][q]);
      REQUIRE(all[k][q].size() == want.size());
      for (std::size_t l = 0; l < want.size(); ++l) CHECK(all[k][q][l] == Approx(want[l]).epsilon(1e-13).margin(1e-15));
    }
}

TEST_CASE("attention entropy over more samples than one matrix product holds, and duplicate lengths", "[extrapolation]") {
  // 19 samples (a slice of 16, then 3), 4 pairs, a length given twice: the plain softmax's
  // values to 1e-13 relative, the repeated length twice.
  const auto qk = posenc::analysis::extrapolation_qk(19, 3, 4);
  const std::vector<double> theta = {1.0, 0.1, 0.01, 0.001};
  const std::vector<std::int64_t> lengths = {5, 300, 300, 600};
  const auto got = posenc::analysis::rope_attention_entropy(theta, qk, lengths, 0.5);
  const auto want = extrap_plain_entropy(theta, qk, lengths, 0.5);
  REQUIRE(got.size() == 4);
  for (std::size_t l = 0; l < 4; ++l) CHECK(got[l] == Approx(want[l]).epsilon(1e-13));
  CHECK(got[1] == got[2]);
  const std::vector<std::int64_t> bad = {5, 3};
  CHECK_THROWS_AS(posenc::analysis::rope_attention_entropy(theta, qk, bad, 0.5), posenc::Error);
}

TEST_CASE("t5 saturation offsets from the bucket formula", "[extrapolation]") {
  // Bidirectional 32/128: nb = 16, e = 8, bucket 15 from 8·16^(7/8) = 90.51, so 91.
  CHECK(posenc::analysis::t5_saturation({32, 128, true}, false) == 91);
  CHECK(posenc::analysis::t5_saturation({32, 128, true}, true) == 91);
  // Causal 32/128: nb = 32, e = 16, bucket 31 from 16·8^(15/16) = 112.40, so 113.
  CHECK(posenc::analysis::t5_saturation({32, 128, false}, false) == 113);
}

TEST_CASE("alibi bias range, learned rows and t5 buckets beyond L", "[extrapolation]") {
  posenc::analysis::ExtrapolationRequest r;
  r.train_len = 4;
  r.target_len = 8;
  r.schemes = {"alibi", "t5", "learned"};
  r.heads = 8;
  r.t5 = {32, 128, true};
  const auto e = posenc::analysis::extrapolate(r);
  REQUIRE(e.alibi);
  CHECK(e.alibi->slopes.front() == 0.5);      // 2^(−8/8)
  CHECK(e.alibi->min_train.front() == -1.5);  // −m·(L − 1)
  CHECK(e.alibi->min_target.front() == -3.5);  // −m·(L' − 1)
  CHECK(e.alibi->min_target.back() == -7.0 / 256.0);
  REQUIRE(e.learned);
  CHECK(e.learned->first_missing == 4);
  CHECK(e.learned->last_missing == 7);
  CHECK(e.learned->missing == 4);
  REQUIRE(e.t5);
  REQUIRE(e.t5->directions.size() == 2);
  // Offsets below e = 8 are exact buckets: past 0..3 → buckets 0..3, then 0..7 at L'.
  CHECK(e.t5->directions[0].buckets_train == 4);
  CHECK(e.t5->directions[0].buckets_target == 8);
  CHECK(e.t5->directions[0].bucket_target == 7);
  // Future offsets 1..3 → 17..19 (+16).
  CHECK(e.t5->directions[1].bucket_train == 19);
  CHECK(e.t5->directions[1].buckets_train == 3);
}

TEST_CASE("extrapolate refuses bad lengths and names", "[extrapolation]") {
  posenc::analysis::ExtrapolationRequest r;
  r.train_len = 8;
  r.target_len = 8;
  r.schemes = {"alibi"};
  CHECK_THROWS_WITH(posenc::analysis::extrapolate(r), Catch::Contains("--target-len must exceed --train-len 8"));
  r.target_len = 16;
  r.schemes = {"alibj"};
  CHECK_THROWS_WITH(posenc::analysis::extrapolate(r), Catch::Contains("did you mean 'alibi'"));
  r.schemes = {};
  CHECK_THROWS_WITH(posenc::analysis::extrapolate(r), Catch::Contains("--methods"));
}

TEST_CASE("linear interpolation keeps every slow pair within the trained angles, none leaves them", "[extrapolation]") {
  const std::vector<std::int64_t> lengths = {16, 64};
  const auto p = extrapolation_test_rope(8);  // θ = 1, 0.1, 0.01, 0.001
  const auto none = posenc::analysis::extrapolate_rope(
      posenc::analysis::extrapolation_rope_config(p, "none", 16, 64), 16, 64, lengths, 2, 0);
  const auto linear = posenc::analysis::extrapolate_rope(
      posenc::analysis::extrapolation_rope_config(p, "linear", 16, 64), 16, 64, lengths, 2, 0);
  // L·θ = 16, 1.6, 0.16, 0.016: only pair 0 sweeps a full turn.
  CHECK(none.reach == std::vector<AngleReach>{AngleReach::kCovered, AngleReach::kBeyond, AngleReach::kBeyond,
                                               AngleReach::kBeyond});
  CHECK(linear.reach == std::vector<AngleReach>{AngleReach::kCovered, AngleReach::kWithin, AngleReach::kWithin,
                                                 AngleReach::kWithin});
  CHECK(none.angle_train[1] == Approx(1.6).epsilon(1e-6));    // float32 θ = 0.1
  CHECK(none.angle_target[1] == Approx(6.4).epsilon(1e-6));   // 64·0.1
  CHECK(linear.angle_target[1] == Approx(1.6).epsilon(1e-6));  // 64·0.1/4
  CHECK(none.resolution == 1.0);
  CHECK(none.entropy == none.entropy_without_factor);
}

TEST_CASE("yarn's logit scale is the square of 0.1 ln s + 1", "[extrapolation]") {
  const std::vector<std::int64_t> lengths = {16};
  const auto yarn = posenc::analysis::extrapolate_rope(
      posenc::analysis::extrapolation_rope_config(extrapolation_test_rope(8), "yarn", 16, 64), 16, 64, lengths, 2, 0);
  CHECK(yarn.freqs.factor == 4.0);
  CHECK(yarn.freqs.attention_factor == Approx(1.138629436111989).epsilon(1e-12));  // 0.1 ln 4 + 1
  CHECK(yarn.logit_scale == Approx(1.2964769927807063).epsilon(1e-12));
  // Sharper logits, lower entropy.
  CHECK(yarn.entropy[0] < yarn.entropy_without_factor[0]);
}

TEST_CASE("kerple and sandwich bias ranges by hand", "[extrapolation]") {
  posenc::analysis::ExtrapolationRequest r;
  r.train_len = 4;
  r.target_len = 8;
  r.schemes = {"sandwich", "kerple"};
  r.kerple_kind = posenc::encodings::KerpleKind::kLog;
  r.kerple_p = {1.0, 2.0};
  r.kerple_a = {1.0};
  r.sandwich_dim = 2;
  r.heads = 1;
  const auto e = posenc::analysis::extrapolate(r);
  REQUIRE(e.biases.size() == 2);
  const auto& s = e.biases[0];  // in the order of --schemes
  const auto& k = e.biases[1];
  CHECK(s.scheme == "sandwich");
  // d = 2: one term, ω = 10000^(−2/2) = 1e-4: (cos(n·1e-4) − 1) / (8·1/1) = −2 sin²(n·1e-4/2) / 8 (written
  // without the cancellation of cos − 1), most negative at the largest n.
  const auto sq = [](double x) { return x * x; };
  CHECK(s.min_train[0] == Approx(-2 * sq(std::sin(1.5e-4)) / 8).epsilon(1e-12));
  CHECK(s.min_target[0] == Approx(-2 * sq(std::sin(3.5e-4)) / 8).epsilon(1e-12));
  CHECK(s.max_target[0] == 0.0);
  CHECK(k.scheme == "kerple");
  REQUIRE(k.min_train.size() == 2);
  CHECK(k.min_train[0] == Approx(-std::log(4.0)).epsilon(1e-15));       // −p·ln(1 + a·3)
  CHECK(k.min_target[1] == Approx(-2.0 * std::log(8.0)).epsilon(1e-15));  // −2·ln(1 + 7)
  CHECK(k.max_train[1] == 0.0);
}

TEST_CASE("extrapolate: a model's own llama3 settings are not warned about under the other methods", "[extrapolation]") {
  // Llama 3.1's config holds rope_type llama3 with low_freq_factor 1, high_freq_factor 4 and
  // factor 8: linear, ntk and yarn read none of the first two. Only a typed flag is warned about.
  posenc::ParamMap p = extrapolation_test_rope(128);
  p.set("hf-config", posenc::test::data_path("configs/llama-3.1-8b.json"), true);
  posenc::analysis::ExtrapolationRequest r;
  r.train_len = 8192;
  r.target_len = 65536;
  r.methods = {"none", "linear", "llama3"};
  r.schemes = {};
  r.rope = p;
  const auto quiet = posenc::analysis::extrapolate(r);
  REQUIRE(quiet.rope.size() == 3);
  for (const auto& m : quiet.rope)
    for (const auto& w : m.freqs.warnings) CHECK(w.find("is ignored") == std::string::npos);
  r.rope.set("low-freq-factor", 2.0, true);  // typed: linear does not read it, and says so
  const auto typed = posenc::analysis::extrapolate(r);
  bool warned = false;
  for (const auto& w : typed.rope[1].freqs.warnings) warned = warned || w.find("is ignored") != std::string::npos;
  CHECK(typed.rope[1].method == "linear");
  CHECK(warned);
}

TEST_CASE("extrapolate: the bias schemes' settings from their options", "[extrapolation]") {
  posenc::analysis::ExtrapolationRequest r;
  r.rope = extrapolation_test_rope(96);
  posenc::ParamMap alibi(posenc::schemes::find_scheme("alibi").params);
  posenc::ParamMap t5(posenc::schemes::find_scheme("t5").params);
  posenc::ParamMap kerple(posenc::schemes::find_scheme("kerple").params);
  alibi.set("heads", std::int64_t{12}, true);
  t5.set("buckets", std::int64_t{16}, true);
  t5.set("max-distance", std::int64_t{64}, true);
  t5.set("mode", std::string("causal"), true);
  kerple.set("kind", std::string("power"), true);
  kerple.set("p", std::vector<double>{0.5, 1.5}, true);
  posenc::analysis::set_bias_settings(r, alibi, t5, kerple);
  CHECK(r.heads == 12);
  CHECK(r.t5.num_buckets == 16);
  CHECK(r.t5.max_distance == 64);
  CHECK_FALSE(r.t5.bidirectional);
  CHECK(r.kerple_kind == posenc::encodings::KerpleKind::kPower);
  CHECK(r.kerple_p == std::vector<double>{0.5, 1.5});
  CHECK(r.kerple_a == std::vector<double>{1.0});  // the default
  CHECK(r.sandwich_dim == 96);                    // rope's --dim: one head width for both
  t5.set("mode", std::string("bidirectional"), true);
  kerple.set("kind", std::string("cubic"), true);
  CHECK_THROWS_AS(posenc::analysis::set_bias_settings(r, alibi, t5, kerple), posenc::Error);
}
