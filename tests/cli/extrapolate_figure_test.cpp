// `posenc extrapolate -o x.png|x.svg`: the plotted values against hand-worked numbers (θ_i =
// 10000^(−i/4) for d = 8, ALiBi slope 1/2 for head 0 of 8, T5's bucket 15 from |offset| 91 on).
#include <catch2/catch.hpp>

#include <cmath>

#include "../../src/cli/extrapolate_figure.hpp"
#include "cli_helpers.hpp"
#include "posenc/schemes/registry.hpp"

using Catch::Contains;

namespace {

posenc::analysis::Extrapolation extrapolate_fig_case() {
  posenc::analysis::ExtrapolationRequest r;
  r.train_len = 16;
  r.target_len = 128;
  r.methods = {"none", "linear"};
  r.schemes = {"alibi", "t5", "learned"};
  r.rope = posenc::ParamMap(posenc::schemes::find_scheme("rope").params);
  r.rope.set("dim", std::int64_t{8}, true);
  r.samples = 2;
  return posenc::analysis::extrapolate(r);
}

}  // namespace

TEST_CASE("extrapolate figure: angle ranges, bias and buckets by hand", "[extrapolation][figure]") {
  const auto f = posenc::cli::extrapolation_figure(extrapolate_fig_case());
  REQUIRE(f.panels.size() == 3);  // angles (the figure itself), entropy, bias, t5
  CHECK_THAT(f.title, Contains("L = 16 to L' = 128 (×8)"));
  CHECK_THAT(f.subtitle, Contains("learned: rows 16 … 127 missing (112 of 128)"));
  REQUIRE(f.series.size() == 3);  // trained, none, linear
  CHECK(f.series[0].y[1] == Approx(1.6).epsilon(1e-6));      // L·θ_1 = 16·0.1
  CHECK(f.series[1].y[1] == Approx(12.8).epsilon(1e-6));     // L'·θ_1 = 128·0.1
  CHECK(f.series[2].y[1] == Approx(1.6).epsilon(1e-6));      // L'·θ_1/8
  CHECK_THAT(f.series[1].name, Contains("3 beyond"));        // 16·θ < 2π for pairs 1, 2, 3
  const auto& entropy = f.panels[0];
  CHECK(entropy.x.front() == 16);
  CHECK(entropy.x.back() == 128);
  const auto& bias = f.panels[1];
  CHECK(bias.series[0].y[0] == 7.5);   // alibi within L: m·(L − 1) = 15/2
  CHECK(bias.series[1].y[0] == 63.5);  // at L': 127/2
  const auto& t5 = f.panels[2];
  REQUIRE(t5.series.size() == 2);
  for (std::size_t k = 0; k < t5.x.size(); ++k) {
    if (t5.x[k] == 1) CHECK(t5.series[0].y[k] == 1);  // past: exact bucket 1
    if (t5.x[k] >= 91) CHECK(t5.series[0].y[k] == 15);  // saturated (8·16^(7/8) = 90.51)
    if (t5.x[k] == 90) CHECK(t5.series[0].y[k] == 14);
  }
}

TEST_CASE("extrapolate: bad options are one line and exit 2", "[extrapolation][cli]") {
  auto r = run_cli({"extrapolate", "--train-len", "64", "--target-len", "64"});
  CHECK(r.code == 2);
  CHECK(one_line(r.err));
  CHECK_THAT(r.err, Contains("--target-len must exceed --train-len 64"));
  r = run_cli({"extrapolate", "--train-len", "64", "--target-len", "128", "--schemes", "kerple", "--methods", "",
               "--p", "1,2,3", "--a", "1,2"});
  CHECK(r.code == 2);
  CHECK(one_line(r.err));
  CHECK(r.out.empty());
}
