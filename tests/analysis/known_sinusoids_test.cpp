#include <catch2/catch.hpp>
#include <cmath>

#include "posenc/analysis/decay.hpp"
#include "posenc/analysis/sinusoids.hpp"
#include "posenc/schemes/registry.hpp"

using namespace posenc::analysis;

namespace {

std::unique_ptr<posenc::Table> sinusoidal(const std::string& convention, std::int64_t dim) {
  posenc::ParamMap p;
  p.set("len", std::int64_t{300});
  p.set("dim", dim);
  p.set("convention", convention);
  return posenc::schemes::make_table("sinusoidal", p);
}

}  // namespace

TEST_CASE("known_sinusoids reproduces every sinusoidal convention's table", "[sinusoids]") {
  for (const char* conv : {"paper", "tensor2tensor", "fairseq"})
    for (std::int64_t dim : {16, 17}) {
      if (std::string(conv) == "paper" && dim % 2) continue;
      const auto t = sinusoidal(conv, dim);
      const auto s = known_sinusoids(t->info());
      REQUIRE(s.has_value());
      const auto mine = sinusoid_table(*s, t->rows());
      const auto theirs = t->to_matrix();
      double worst = 0.0;
      for (std::size_t i = 0; i < mine.data().size(); ++i) worst = std::max(worst, std::abs(mine.data()[i] - theirs.data()[i]));
      INFO(conv << " dim " << dim);
      CHECK(worst < 1e-12);
      // And the closed-form decay equals the direct one on the scheme's own table.
      const auto offsets = decay_offsets(100, true);
      const auto closed = decay_sinusoids(*s, offsets, Metric::kDot);
      const auto direct = decay_direct(theirs, 150, offsets, Metric::kDot);
      for (std::size_t i = 0; i < offsets.size(); ++i) CHECK(closed[i] == Approx(direct[i]).epsilon(0).margin(1e-9));
    }
}

TEST_CASE("known_sinusoids is empty for other tables", "[sinusoids]") {
  posenc::ParamMap p;
  CHECK_FALSE(known_sinusoids(posenc::schemes::make_table("sine", p)->info()).has_value());
  CHECK_FALSE(known_sinusoids(posenc::schemes::make_table("recurrent", p)->info()).has_value());
}
