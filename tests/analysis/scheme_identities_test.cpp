#include "posenc/analysis/scheme_identities.hpp"

#include <catch2/catch.hpp>

#include "posenc/analysis/scheme_traits.hpp"
#include "posenc/schemes/registry.hpp"
#include "posenc/error.hpp"

namespace {

using IdList = std::vector<std::string>;

posenc::ParamMap identities_test_params(const std::string& scheme) {
  return posenc::analysis::analysis_params(scheme, posenc::ParamMap(posenc::schemes::find_scheme(scheme).params));
}

IdList names_of(const std::vector<posenc::analysis::IdentityResult>& v) {
  IdList out;
  for (const auto& r : v) out.push_back(r.name);
  return out;
}

}  // namespace

// The sets docs/cli.md documents under `check --identity`.
TEST_CASE("default identities per scheme are the documented sets", "[scheme_identities]") {
  using posenc::analysis::default_identities;
  const IdList absolute = {"shift-linear", "dot-shift-invariant", "dot-symmetric", "unique", "bounded"};
  CHECK(default_identities("") == absolute);
  CHECK(default_identities("sinusoidal") == absolute);
  CHECK(default_identities("learned") == absolute);
  CHECK(default_identities("rope") == IdList{"rope-relative", "rope-norm", "rope-forms-agree", "layouts-agree"});
  CHECK(default_identities("mrope") == IdList{"axial-relative", "text-reduces-to-rope", "rope-norm"});
  CHECK(default_identities("axial-rope") == IdList{"axial-relative", "rope-norm"});
  for (const char* s : {"alibi", "t5", "deberta", "fire"}) CHECK(default_identities(s) == IdList{"bias-relative"});
  for (const char* s : {"kerple", "sandwich"}) CHECK(default_identities(s) == IdList{"bias-relative", "bias-symmetric"});
}

TEST_CASE("applicable identities add rope's dot identities and an input's bias-relative", "[scheme_identities]") {
  using posenc::analysis::applicable_identities;
  CHECK(applicable_identities("rope") == IdList{"rope-relative", "rope-norm", "rope-forms-agree", "layouts-agree",
                                                "dot-shift-invariant", "dot-symmetric"});
  CHECK(applicable_identities("") ==
        IdList{"shift-linear", "dot-shift-invariant", "dot-symmetric", "unique", "bounded", "bias-relative",
               "bias-symmetric"});
  CHECK(applicable_identities("sinusoidal") == posenc::analysis::default_identities("sinusoidal"));
  CHECK(applicable_identities("alibi") == IdList{"bias-relative", "bias-symmetric"});
  CHECK(applicable_identities("t5") == IdList{"bias-relative"});
}

TEST_CASE("run_identities: alibi's bias depends on j - i only, and holds", "[scheme_identities]") {
  auto p = identities_test_params("alibi");
  p.set("len", std::int64_t{6});
  const auto table = posenc::schemes::make_table("alibi", p);
  const auto run = posenc::analysis::run_identities("alibi", p, *table, {}, {});
  CHECK(names_of(run.results) == IdList{"bias-relative"});
  CHECK(run.results[0].holds);
}

TEST_CASE("run_identities: a bias matrix that is not Toeplitz fails bias-relative", "[scheme_identities]") {
  posenc::Matrix m(3, 3);
  for (std::size_t i = 0; i < 3; ++i)
    for (std::size_t j = 0; j < 3; ++j) m(i, j) = -static_cast<double>(i > j ? i - j : j - i);
  m(2, 1) = -5.0;  // breaks b(i, j) = f(j - i): b(1, 0) = -1
  posenc::TableInfo info;
  info.scheme = "input";
  info.shape = {3, 3};
  const posenc::MatrixTable table(info, m);
  const auto run = posenc::analysis::run_identities("", {}, table, {"bias-relative"}, {});
  REQUIRE(run.results.size() == 1);
  CHECK_FALSE(run.results[0].holds);
  CHECK(run.results[0].max_error > 0.1);  // relative to max |b| = 5: the change is 4
}

TEST_CASE("run_identities: an identity that does not apply is refused, naming those that do", "[scheme_identities]") {
  auto p = identities_test_params("t5");
  p.set("len", std::int64_t{4});
  const auto table = posenc::schemes::make_table("t5", p);
  CHECK_THROWS_WITH(posenc::analysis::run_identities("t5", p, *table, {"unique"}, {}),
                    "identity 'unique' does not apply to scheme t5; it applies to: bias-relative");
}

TEST_CASE("run_identities: rope's four default identities hold on its own table", "[scheme_identities]") {
  auto p = identities_test_params("rope");
  p.set("len", std::int64_t{16});
  p.set("dim", std::int64_t{8});
  const auto table = posenc::schemes::make_table("rope", p);
  const auto run = posenc::analysis::run_identities("rope", p, *table, {}, {});
  CHECK(names_of(run.results) == posenc::analysis::default_identities("rope"));
  for (const auto& r : run.results) CHECK(r.holds);
}

TEST_CASE("bias-symmetric: kerple holds, a one-sided change fails, a causal mask cannot be decided", "[scheme_identities]") {
  auto p = identities_test_params("kerple");
  p.set("len", std::int64_t{5});
  p.set("p", std::vector<double>{0.5, 2.0});
  const auto table = posenc::schemes::make_table("kerple", p);
  const auto run = posenc::analysis::run_identities("kerple", p, *table, {}, {});
  CHECK(names_of(run.results) == IdList{"bias-relative", "bias-symmetric"});
  for (const auto& r : run.results) CHECK(r.holds);
  posenc::Matrix m(3, 3);  // -(j - i) for j > i, 0 below: Toeplitz (bias-relative holds) but not symmetric
  for (std::size_t i = 0; i < 3; ++i)
    for (std::size_t j = 0; j < 3; ++j) m(i, j) = j > i ? -static_cast<double>(j - i) : 0.0;
  posenc::TableInfo info;
  info.scheme = "input";
  info.shape = {3, 3};
  const posenc::MatrixTable one_sided(info, m);
  const auto broken = posenc::analysis::run_identities("", {}, one_sided, {"bias-relative", "bias-symmetric"}, {});
  REQUIRE(broken.results.size() == 2);
  CHECK(broken.results[0].holds);
  CHECK_FALSE(broken.results[1].holds);
  CHECK(broken.results[1].max_error == Approx(1.0));  // |b(0,2) - b(2,0)| / max |b| = 2 / 2
  p.set("form", std::string("causal"));
  const auto causal = posenc::schemes::make_table("kerple", p);
  const auto c = posenc::analysis::run_identities("kerple", p, *causal, {}, {});
  CHECK(names_of(c.results) == IdList{"bias-relative"});
  CHECK(names_of(c.skipped) == IdList{"bias-symmetric"});
}

// Issue 26 item 11: check --input on 200000 x 256 ran 14 minutes (unique compares every pair)
// and was killed without a word. The work is estimated first and refused above --max-work.
TEST_CASE("direct_check_work: the operations of each direct check, by closed form", "[scheme_identities]") {
  using posenc::analysis::direct_check_work;
  CHECK(direct_check_work("unique", 200000, 256, 0, false) == Approx(200000.0 * 199999.0 / 2 * 256));
  CHECK(direct_check_work("dot-shift-invariant", 200000, 256, 0, false) == Approx(1025.0 * 200000 * 256));  // K = 1024
  CHECK(direct_check_work("dot-symmetric", 200000, 256, 10, false) == Approx(10.0 * 200000 * 256));
  CHECK(direct_check_work("dot-symmetric", 5, 4, 0, false) == Approx(2.0 * 5 * 4));  // t - K >= 0, t + K < 5: K = 2
  CHECK(direct_check_work("shift-linear", 1000, 64, 0, true) == Approx(4.0 * 1000 * 64 * 64));
  CHECK(direct_check_work("bounded", 1000, 64, 0, false) == Approx(64000.0));
}

TEST_CASE("run_identities refuses a 200000 x 256 table above the work limit before reading it, naming --max-work",
          "[scheme_identities]") {
  auto p = identities_test_params("learned");  // not a sin/cos table: every identity is checked directly
  p.set("len", std::int64_t{200000});
  p.set("max-len", std::int64_t{200000});
  p.set("dim", std::int64_t{256});
  const auto table = posenc::schemes::make_table("learned", p);
  posenc::analysis::CheckSettings s;
  try {
    posenc::analysis::run_identities("learned", p, *table, {}, s);
    FAIL("not refused");
  } catch (const posenc::Error& e) {
    const std::string m = e.what();
    CHECK(m.find("--max-work 2e+10") != std::string::npos);
    CHECK(m.find("unique 5.1e+12") != std::string::npos);  // 200000 * 199999 / 2 * 256 = 5.12e12
    CHECK(m.find("--identity") != std::string::npos);
    CHECK(m.find("--max-offset") != std::string::npos);
  }
  // Within the limit it runs: 300 x 8, every identity directly.
  p.set("len", std::int64_t{300});
  p.set("max-len", std::int64_t{300});
  p.set("dim", std::int64_t{8});
  s.max_work = 1e9;
  CHECK(posenc::analysis::run_identities("learned", p, *posenc::schemes::make_table("learned", p), {}, s).results.size() >= 4);
  s.max_work = 1e5;  // unique alone is 300 * 299 / 2 * 8 = 358800
  CHECK_THROWS_WITH(posenc::analysis::run_identities("learned", p, *posenc::schemes::make_table("learned", p), {"unique"}, s),
                    Catch::Contains("unique 3.6e+05"));
}
