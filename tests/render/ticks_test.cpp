#include "posenc/render/ticks.hpp"

#include <catch2/catch.hpp>

using namespace posenc::render;

namespace {
std::vector<double> values(const std::vector<Tick>& ts) {
  std::vector<double> v;
  for (const auto& t : ts) v.push_back(t.value);
  return v;
}
std::vector<std::string> labels(const std::vector<Tick>& ts) {
  std::vector<std::string> v;
  for (const auto& t : ts) v.push_back(t.label);
  return v;
}
}  // namespace

TEST_CASE("nice steps are 1, 2 or 5 times a power of ten", "[ticks]") {
  CHECK(nice_step(0, 49, 6) == 10);
  CHECK(nice_step(0, 127, 8) == 20);
  CHECK(nice_step(0, 1, 6) == Approx(0.2).epsilon(1e-15));
  CHECK(nice_step(-1, 1, 5) == Approx(0.5).epsilon(1e-15));
  CHECK(nice_step(0, 3, 10, 1.0) == 1);  // cell indices stay on integers
  CHECK(nice_step(0, 16383, 6) == 5000);
}

TEST_CASE("linear ticks are multiples of the step inside the range", "[ticks]") {
  CHECK(values(linear_ticks(0, 49, 6)) == std::vector<double>{0, 10, 20, 30, 40});
  CHECK(labels(linear_ticks(-1, 1, 5)) == std::vector<std::string>{"\u22121.0", "\u22120.5", "0.0", "0.5", "1.0"});
  // 0.1·3 is not 0.3 in floating point; labels come from the step, not the sum.
  CHECK(labels(linear_ticks(0, 0.3, 4)) == std::vector<std::string>{"0.0", "0.1", "0.2", "0.3"});
  CHECK(linear_ticks(5, 5, 6).size() == 1);
}

TEST_CASE("tick labels switch to scientific form for extreme values", "[ticks]") {
  CHECK(tick_label(2000000, 1000000) == "2e6");
  CHECK(tick_label(1500000, 500000) == "1.5e6");
  CHECK(tick_label(2.5e-5, 5e-6) == "2.5e-5");
  CHECK(tick_label(-3e-5, 1e-5) == "\u22123e-5");
  CHECK(tick_label(250, 50) == "250");
  CHECK(tick_label(0.25, 0.05) == "0.25");
  CHECK(tick_label(1e-17, 0.1) == "0.0");
  CHECK(tick_label(-0.0, 1) == "0");
  CHECK(tick_label(0, 1e6) == "0");
}

TEST_CASE("log ticks are powers of ten", "[ticks]") {
  CHECK(values(log_ticks(3, 2e6, 10)) == std::vector<double>{10, 100, 1000, 1e4, 1e5, 1e6});
  CHECK(labels(log_ticks(0.001, 0.1, 10)).front() == "10\u207B\u00B3");  // 10⁻³
  CHECK(log_ticks(1, 1e12, 5).size() <= 5);
  // Within a decade or so: 1, 2, 5 × 10^k.
  CHECK(values(log_ticks(1.5, 30, 10)) == std::vector<double>{2, 5, 10, 20});
  CHECK(power_of_ten_label(12) == "10\u00B9\u00B2");
}

// Issue 15 item 22: `decay rope --max-offset 1000000` labelled its x axis "900000" beside
// "1.0e6". Every label of one axis now has one form: plain, or scientific when it reaches 1e6.
TEST_CASE("an axis that reaches 1e6 labels every tick in scientific form", "[ticks]") {
  CHECK(labels(linear_ticks(0, 1e6, 11)) ==
        std::vector<std::string>{"0", "1e5", "2e5", "3e5", "4e5", "5e5", "6e5", "7e5", "8e5", "9e5", "1e6"});
  CHECK(labels(linear_ticks(0, 999999, 11)) ==
        std::vector<std::string>{"0", "100000", "200000", "300000", "400000", "500000", "600000", "700000", "800000", "900000"});
  CHECK(labels(linear_ticks(1e6, 2e6, 3)) == std::vector<std::string>{"1e6", "1.5e6", "2e6"});
  // Within two decades a log axis labels 1, 2, 5 × 10^k: the same rule over its largest tick.
  CHECK(labels(log_ticks(2e5, 1.2e6, 10)) == std::vector<std::string>{"2e5", "5e5", "1e6"});
  CHECK(labels(log_ticks(20, 1200, 10)) == std::vector<std::string>{"20", "50", "100", "200", "500", "1000"});
}
