// posenc decay, similarity and project through the command line.
#include <catch2/catch.hpp>
#include <cmath>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli_helpers.hpp"

namespace {

// Σ_k cos(w_k Δ) with the paper's w_k = 10000^(-2k/d), written out here.
double sinusoid_dot(int d, double delta) {
  double s = 0;
  for (int k = 0; k < d / 2; ++k) s += std::cos(std::pow(10000.0, -2.0 * k / d) * delta);
  return s;
}

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

}  // namespace

TEST_CASE("decay sinusoidal --format json: offset and series, values sum_k cos(w_k delta)", "[cli][decay]") {
  const auto r = run_cli({"decay", "sinusoidal", "--dim", "16", "--max-offset", "5", "--format", "json", "--dtype", "float64"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["offset"] == std::vector<int>{0, 1, 2, 3, 4, 5});
  REQUIRE(j["series"].size() == 1);
  CHECK(j["series"][0]["name"] == "dot");
  for (int d = 0; d <= 5; ++d) CHECK(j["series"][0]["values"][static_cast<std::size_t>(d)].get<double>() == Approx(sinusoid_dot(16, d)).epsilon(0).margin(1e-12));
  CHECK(j["params"]["dim"] == 16);
}

TEST_CASE("decay --vary draws one series per value", "[cli][decay]") {
  const auto r = run_cli({"decay", "sinusoidal", "--dim", "8", "--max-offset", "3", "--vary", "base=100,10000", "--format", "csv"});
  REQUIRE(r.code == 0);
  const auto l = lines(r.out);
  REQUIRE(l.size() == 5);
  CHECK(l[0] == "offset,base=100: dot,base=10000: dot");
  CHECK_THAT(l[1], Catch::StartsWith("0,4,4"));
  const auto bad = run_cli({"decay", "sinusoidal", "--vary", "bsae=1,2", "--format", "csv"});
  CHECK(bad.code == 2);
  CHECK_THAT(bad.err, Catch::Contains("did you mean 'base'"));
  CHECK(run_cli({"decay", "sinusoidal", "--vary", "base=0.5", "--format", "csv"}).code == 2);
}

TEST_CASE("decay --compare puts other schemes' curves in the same output", "[cli][decay]") {
  const auto r = run_cli({"decay", "sinusoidal", "--dim", "8", "--max-offset", "3", "--compare", "rope --dim 8 --base 100 --precision f64",
                          "--compare", "alibi --heads 1", "--dtype", "float64", "--format", "json"});
  REQUIRE(r.code == 0);
  const auto j = nlohmann::json::parse(r.out);
  REQUIRE(j["series"].size() == 4);
  CHECK(j["series"][0]["name"] == "sinusoidal: dot");
  CHECK(j["series"][2]["name"] == "rope --dim 8 --base 100 --precision f64: q=k=ones");
  CHECK(j["series"][3]["name"] == "alibi --heads 1: head 0 (m=0.00390625)");
  for (int d = 0; d <= 3; ++d) {
    const auto at = static_cast<std::size_t>(d);
    CHECK(j["series"][0]["values"][at].get<double>() == Approx(sinusoid_dot(8, d)).epsilon(0).margin(1e-12));
    double ones = 0;  // q = k = ones: 2 sum_i cos(d theta_i), theta_i = 100^(-2i/8)
    for (int i = 0; i < 4; ++i) ones += 2 * std::cos(d * std::pow(100.0, -2.0 * i / 8));
    CHECK(j["series"][2]["values"][at].get<double>() == Approx(ones).epsilon(1e-12));
    CHECK(j["series"][3]["values"][at].get<double>() == -d / 256.0);  // -m |d|, m = 2^-8
  }
  CHECK(j["compare"].size() == 2);
  const auto bad = run_cli({"decay", "sinusoidal", "--compare", "rop --dim 8", "--format", "csv"});
  CHECK(bad.code == 2);
  CHECK(one_line(bad.err));
  CHECK_THAT(bad.err, Catch::Contains("--compare 'rop --dim 8': unknown scheme 'rop'"));
  const auto bad_option = run_cli({"decay", "sinusoidal", "--compare", "rope --dim x", "--format", "csv"});
  CHECK(bad_option.code == 2);
  CHECK_THAT(bad_option.err, Catch::Contains("--compare 'rope --dim x'"));
  CHECK(run_cli({"decay", "sinusoidal", "--compare", "", "--format", "csv"}).code == 2);
}

TEST_CASE("decay of alibi: bias against distance per head; causal keeps the past", "[cli][decay]") {
  const auto r = run_cli({"decay", "alibi", "--heads", "2", "--max-offset", "3", "--format", "csv"});
  REQUIRE(r.code == 0);
  const auto l = lines(r.out);
  CHECK(l[0] == "offset,head 0 (m=0.0625),head 1 (m=0.00390625)");
  CHECK(l[4] == "3,-0.1875,-0.01171875");
  const auto c = run_cli({"decay", "alibi", "--form", "causal", "--heads", "1", "--max-offset", "2", "--format", "json"});
  REQUIRE(c.code == 0);
  CHECK(nlohmann::json::parse(c.out)["offset"] == std::vector<int>{-2, -1, 0});
}

TEST_CASE("decay of t5: the bucket against the offset", "[cli][decay]") {
  const auto r = run_cli({"decay", "t5", "--max-offset", "16", "--symmetric", "--format", "json"});
  REQUIRE(r.code == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["series"][0]["name"] == "bucket");
  CHECK(j["series"][0]["values"].front() == 10);  // rp = -16
  CHECK(j["series"][0]["values"].back() == 26);   // rp = 16
}

TEST_CASE("decay past the table's end names the option", "[cli][decay]") {
  const auto r = run_cli({"decay", "integer", "--len", "10", "--max-offset", "20", "--format", "csv"});
  CHECK(r.code == 2);
  CHECK(one_line(r.err));
  CHECK_THAT(r.err, Catch::Contains("--max-offset"));
}

TEST_CASE("similarity sinusoidal (closed form) and integer distance", "[cli][similarity]") {
  const auto r = run_cli({"similarity", "sinusoidal", "--len", "4", "--dim", "8", "--metric", "dot", "--format", "json",
                          "--dtype", "float64"});
  REQUIRE(r.code == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["shape"] == std::vector<int>{4, 4});
  for (int i = 0; i < 4; ++i)
    for (int k = 0; k < 4; ++k)
      CHECK(j["data"][static_cast<std::size_t>(i)][static_cast<std::size_t>(k)].get<double>() ==
            Approx(sinusoid_dot(8, k - i)).epsilon(0).margin(1e-12));
  const auto d = run_cli({"similarity", "integer", "--len", "3", "--metric", "distance", "--format", "json"});
  REQUIRE(d.code == 0);
  CHECK(nlohmann::json::parse(d.out)["data"][0][2] == 2.0);
  const auto bias = run_cli({"similarity", "alibi", "--format", "csv"});
  CHECK(bias.code == 2);
  CHECK(one_line(bias.err));
}

TEST_CASE("project: chosen columns, PCA, and bad --dims", "[cli][project]") {
  const auto r = run_cli({"project", "sine", "--dim", "3", "--len", "5", "--format", "json", "--dtype", "float64"});
  REQUIRE(r.code == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["shape"] == std::vector<int>{5, 3});
  CHECK(j["data"][4][1].get<double>() == Approx(std::sin(2.0)).epsilon(0).margin(1e-12));  // sin(4 / 2^1)
  const auto p = run_cli({"project", "sinusoidal", "--len", "50", "--dim", "16", "--pca", "3", "--format", "json"});
  REQUIRE(p.code == 0);
  const auto pj = nlohmann::json::parse(p.out);
  CHECK(pj["shape"] == std::vector<int>{50, 3});
  CHECK(pj["results"].contains("explained_variance_ratio"));
  const auto bad = run_cli({"project", "sine", "--dim", "3", "--dims", "0,5", "--format", "csv"});
  CHECK(bad.code == 2);
  CHECK_THAT(bad.err, Catch::Contains("--dims"));
  CHECK(run_cli({"project", "sine", "--dims", "0", "--format", "csv"}).code == 2);
}

TEST_CASE("decay rope: RoFormer's bound and the all-ones curve (d = 128 test vectors)", "[cli][decay][rope]") {
  const auto r = run_cli({"decay", "rope", "--dim", "128", "--precision", "f64", "--max-offset", "10", "--format", "json",
                          "--dtype", "float64"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  const auto j = nlohmann::json::parse(r.out);
  REQUIRE(j["series"].size() == 2);
  // The bound on |q.k|: RoFormer's relative bound (REFERENCES §2.10) times (d/2)·max|h_(i+1) - h_i| = 64·2.
  CHECK(j["series"][0]["values"][0].get<double>() / 128 == Approx(32.5).epsilon(0).margin(1e-9));
  CHECK(j["series"][0]["values"][10].get<double>() / 128 == Approx(17.954137).epsilon(0).margin(5e-6));
  CHECK(j["series"][1]["values"][1].get<double>() == Approx(124.187368).epsilon(0).margin(5e-6));
  CHECK(j["series"][1]["values"][10].get<double>() == Approx(85.640046).epsilon(0).margin(5e-6));
}

TEST_CASE("similarity rope: the score <R_i q, R_j k> with q = k = ones", "[cli][similarity][rope]") {
  const auto r = run_cli({"similarity", "rope", "--dim", "8", "--len", "3", "--precision", "f64", "--metric", "dot",
                          "--format", "json", "--dtype", "float64"});
  REQUIRE(r.code == 0);
  const auto j = nlohmann::json::parse(r.out);
  // Σ_i 2 cos((j - i) θ_i), θ_i = 10000^(-2i/8)
  auto expected = [](int delta) {
    double s = 0;
    for (int i = 0; i < 4; ++i) s += 2 * std::cos(delta * std::pow(10000.0, -2.0 * i / 8));
    return s;
  };
  CHECK(j["data"][0][0].get<double>() == Approx(8.0).epsilon(1e-12));
  CHECK(j["data"][0][2].get<double>() == Approx(expected(2)).epsilon(0).margin(1e-12));
  CHECK(j["data"][2][1].get<double>() == Approx(expected(-1)).epsilon(0).margin(1e-12));
}
