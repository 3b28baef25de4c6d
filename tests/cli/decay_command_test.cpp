// posenc decay: value lists in scheme options, --len, metrics, extras and q.k choices,
// through the command line. Expected values are written out here from their formulas.
#include <catch2/catch.hpp>
#include <cmath>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli_helpers.hpp"
#include "posenc/analysis/rope_identity.hpp"

namespace {

// Σ_k cos(w_k Δ), w_k = base^(-2k/d) (the paper's frequencies), written out here.
double sinusoid_dot(int d, double delta, double base = 10000.0) {
  double s = 0;
  for (int k = 0; k < d / 2; ++k) s += std::cos(std::pow(base, -2.0 * k / d) * delta);
  return s;
}

nlohmann::json decay_json(std::vector<std::string> args) {
  args.insert(args.begin(), "decay");
  for (const char* a : {"--format", "json", "--dtype", "float64"}) args.push_back(a);
  const auto r = run_cli(args);
  INFO(r.err);
  REQUIRE(r.code == 0);
  return nlohmann::json::parse(r.out);
}

}  // namespace

TEST_CASE("decay sinusoidal --base 100,1000,10000: one series per value, as --vary", "[cli][decay][lists]") {
  const auto j = decay_json({"sinusoidal", "--dim", "16", "--max-offset", "20", "--base", "100,1000,10000"});
  REQUIRE(j["series"].size() == 3);
  const double bases[] = {100.0, 1000.0, 10000.0};
  for (std::size_t s = 0; s < 3; ++s) {
    CHECK(j["series"][s]["name"] == "base=" + std::to_string(static_cast<int>(bases[s])) + ": dot");
    for (int d = 0; d <= 20; ++d)
      CHECK(j["series"][s]["values"][static_cast<std::size_t>(d)].get<double>() ==
            Approx(sinusoid_dot(16, d, bases[s])).epsilon(0).margin(1e-12));
  }
  CHECK(j["vary"] == "base=100,1000,10000");
  CHECK(j["params"]["base"] == std::vector<double>{100, 1000, 10000});  // the values used, not one of them
  // The same output as --vary.
  const auto a = run_cli({"decay", "sinusoidal", "--dim", "8", "--base", "100,1000", "--format", "csv"});
  const auto b = run_cli({"decay", "sinusoidal", "--dim", "8", "--vary", "base=100,1000", "--format", "csv"});
  CHECK(a.code == 0);
  CHECK(a.out == b.out);
  // Integer options take lists too.
  const auto dims = decay_json({"sinusoidal", "--dim", "8,16", "--max-offset", "2"});
  CHECK(dims["series"][1]["name"] == "dim=16: dot");
  CHECK(dims["series"][1]["values"][0] == 8.0);
}

TEST_CASE("decay value lists: two lists, a list with --vary, or a bad element are refused", "[cli][decay][lists]") {
  const auto two = run_cli({"decay", "sinusoidal", "--dim", "8,16", "--base", "100,1000", "--format", "csv"});
  CHECK(two.code == 2);
  CHECK(one_line(two.err));
  CHECK_THAT(two.err, Catch::Contains("one option at a time"));
  const auto both = run_cli({"decay", "sinusoidal", "--base", "100,1000", "--vary", "dim=8,16", "--format", "csv"});
  CHECK(both.code == 2);
  CHECK_THAT(both.err, Catch::Contains("either --vary or a list of values in --base"));
  const auto bad = run_cli({"decay", "sinusoidal", "--base", "100,0.5", "--format", "csv"});
  CHECK(bad.code == 2);
  CHECK_THAT(bad.err, Catch::Contains("--base must be a number >= 1 (got '0.5')"));
  CHECK(run_cli({"decay", "sinusoidal", "--dim", "8,x", "--format", "csv"}).code == 2);
  CHECK(run_cli({"decay", "sinusoidal", "--base", "100,", "--format", "csv"}).code == 2);
  // Only decay draws series: generate still takes one value.
  CHECK(run_cli({"generate", "sinusoidal", "--base", "100,1000", "--format", "csv"}).code == 2);
}

TEST_CASE("t5 --causal and --bidirectional are aliases of --mode in every command", "[cli][t5]") {
  // REFERENCES §2.6, causal 32/128: distances 0..15 exact, bucket 16 from 16, 17 from 19.
  const auto j = decay_json({"t5", "--causal", "--max-offset", "20"});
  CHECK(j["params"]["mode"] == "causal");
  CHECK(j["offset"][0] == -20);
  const auto& v = j["series"][0]["values"];
  CHECK(v[20 - 15] == 15.0);  // offset -15
  CHECK(v[20 - 16] == 16.0);
  CHECK(v[20 - 18] == 16.0);
  CHECK(v[20 - 19] == 17.0);
  CHECK(decay_json({"t5", "--bidirectional", "--max-offset", "8"})["series"][0]["values"][8] == 24.0);  // rp 8 -> 24
  for (const char* command : {"generate", "check"}) {
    INFO(command);
    const auto flag = run_cli({command, "t5", "--len", "30", "--causal", "--format", "json"});
    const auto mode = run_cli({command, "t5", "--len", "30", "--mode", "causal", "--format", "json"});
    CHECK(flag.code == 0);
    CHECK(flag.out == mode.out);
    CHECK(run_cli({command, "t5", "--len", "30", "--bidirectional", "--format", "json"}).out ==
          run_cli({command, "t5", "--len", "30", "--format", "json"}).out);
  }
  for (const std::vector<std::string>& bad : {std::vector<std::string>{"--causal", "--bidirectional"},
                                              std::vector<std::string>{"--causal", "--mode", "causal"}}) {
    std::vector<std::string> args = {"generate", "t5", "--format", "csv"};
    args.insert(args.end(), bad.begin(), bad.end());
    const auto r = run_cli(args);
    CHECK(r.code == 2);
    CHECK(one_line(r.err));
    CHECK_THAT(r.err, Catch::Contains("cannot be used with"));
  }
  CHECK(run_cli({"decay", "sinusoidal", "--compare", "t5 --causal", "--format", "csv"}).code == 0);
}

TEST_CASE("alibi slopes: in the JSON params and in posenc list (text and JSON)", "[cli][alibi]") {
  // REFERENCES §2.7: n = 6 -> 0.25, 0.0625, 0.015625, 0.00390625, 0.5, 0.125.
  const auto g = run_cli({"generate", "alibi", "--heads", "6", "--len", "2", "--format", "json"});
  REQUIRE(g.code == 0);
  const auto j = nlohmann::json::parse(g.out);
  CHECK(j["params"]["slopes"] == std::vector<double>{0.25, 0.0625, 0.015625, 0.00390625, 0.5, 0.125});
  CHECK(j["results"]["slopes"] == j["params"]["slopes"]);  // kept for readers of "results"
  // posenc list: the default 8 heads' slopes 2^-1 ... 2^-8, one text line and a JSON field.
  const auto text = run_cli({"list"});
  CHECK_THAT(text.out, Catch::Contains("slopes of the default --heads 8: 0.5, 0.25, 0.125, 0.0625, 0.03125, 0.015625, "
                                       "0.0078125, 0.00390625\n"));
  const auto list = nlohmann::json::parse(run_cli({"list", "--format", "json"}).out);
  bool found = false;
  for (const auto& s : list["schemes"])
    if (s["name"] == "alibi") {
      found = true;
      CHECK(s["slopes"] == std::vector<double>{0.5, 0.25, 0.125, 0.0625, 0.03125, 0.015625, 0.0078125, 0.00390625});
    }
  CHECK(found);
}

TEST_CASE("decay --len: defaults to T+K+1 and is echoed; a shorter --len is refused for every scheme", "[cli][decay][len]") {
  // learned has no closed form: the curve is read from the rows, and the echo says how many.
  const auto j = decay_json({"learned", "--dim", "4", "--max-offset", "80"});
  CHECK(j["params"]["len"] == 81);
  // The values are the dot products of rows 0 and delta of the same table (generated here).
  const auto g = run_cli({"generate", "learned", "--dim", "4", "--len", "81", "--format", "json", "--dtype", "float64"});
  const auto rows = nlohmann::json::parse(g.out)["data"];
  for (int d : {0, 1, 40, 80}) {
    double dot = 0;
    for (int c = 0; c < 4; ++c) dot += rows[0][c].get<double>() * rows[d][c].get<double>();
    CHECK(j["series"][0]["values"][static_cast<std::size_t>(d)].get<double>() == Approx(dot).epsilon(0).margin(1e-12));
  }
  CHECK(decay_json({"sinusoidal", "--max-offset", "30", "--from", "5"})["params"]["len"] == 36);
  CHECK(decay_json({"sinusoidal", "--max-offset", "30", "--symmetric"})["params"]["len"] == 61);
  CHECK(decay_json({"sinusoidal", "--max-offset", "30", "--len", "500"})["params"]["len"] == 500);  // given: kept
  for (const char* scheme : {"sinusoidal", "integer", "learned", "rope", "alibi", "t5"}) {
    INFO(scheme);
    const auto r = run_cli({"decay", scheme, "--len", "10", "--max-offset", "100", "--format", "csv"});
    CHECK(r.code == 2);
    CHECK(one_line(r.err));
    CHECK_THAT(r.err, Catch::Contains("--len 10 is too short") && Catch::Contains("--len 101"));
    CHECK(run_cli({"decay", scheme, "--len", "101", "--max-offset", "100", "--format", "csv"}).code == 0);
  }
  const auto before = run_cli({"decay", "sinusoidal", "--symmetric", "--from", "3", "--max-offset", "5", "--format", "csv"});
  CHECK(before.code == 2);
  CHECK_THAT(before.err, Catch::Contains("--from 3"));
}

TEST_CASE("decay --metric: refused where no curve uses it; rope's q.k takes dot, cosine, distance", "[cli][decay][metric]") {
  for (const char* scheme : {"alibi", "t5"}) {
    const auto r = run_cli({"decay", scheme, "--metric", "cosine", "--format", "csv"});
    CHECK(r.code == 2);
    CHECK(one_line(r.err));
    CHECK_THAT(r.err, Catch::Contains("--metric applies to position vectors"));
    CHECK(decay_json({scheme})["metric"].is_null());
  }
  // q = k = ones, d = 8: score = sum_i 2 cos(delta theta_i), |q| = |k| = sqrt(8).
  const auto score = [](double delta) {
    double s = 0;
    for (int i = 0; i < 4; ++i) s += 2 * std::cos(delta * std::pow(10000.0, -2.0 * i / 8));
    return s;
  };
  const auto cos = decay_json({"rope", "--dim", "8", "--max-offset", "5", "--metric", "cosine", "--no-extras"});
  REQUIRE(cos["series"].size() == 1);
  CHECK(cos["series"][0]["name"] == "q=k=ones cosine");
  CHECK(cos["metric"] == "cosine");
  const auto dist = decay_json({"rope", "--dim", "8", "--max-offset", "5", "--metric", "distance", "--no-extras"});
  for (int d = 0; d <= 5; ++d) {
    const auto at = static_cast<std::size_t>(d);
    CHECK(cos["series"][0]["values"][at].get<double>() == Approx(score(d) / 8.0).epsilon(0).margin(1e-12));
    CHECK(dist["series"][0]["values"][at].get<double>() == Approx(std::sqrt(16.0 - 2 * score(d))).epsilon(0).margin(1e-7));
  }
}

TEST_CASE("decay rope --qk random: <R_T q, R_T+delta k> for check's random q, k; --no-extras", "[cli][decay][qk]") {
  const auto j = decay_json({"rope", "--dim", "8", "--max-offset", "4", "--qk", "random", "--seed", "3"});
  REQUIRE(j["series"].size() == 3);  // bound, the ones curve, then q.k
  CHECK(j["series"][0]["name"] == "roformer bound on |q.k|");
  CHECK(j["series"][1]["name"] == "q=k=ones");
  CHECK(j["series"][2]["name"] == "q, k random (seed 3)");
  CHECK(j["qk"]["vectors"] == "random");
  // The same q, k as check --qk random --seed 3 (N(0,1) from seeds 3 and 4), rotated here in the
  // half layout: pair i is (i, i + 4), R_p multiplies it by e^{i p theta_i}.
  const auto q = posenc::analysis::normal_vector(8, 3), k = posenc::analysis::normal_vector(8, 4);
  for (int d = 0; d <= 4; ++d) {
    double s = 0;
    for (int i = 0; i < 4; ++i) {
      const double a = d * std::pow(10000.0, -2.0 * i / 8);  // R_0 q = q; k rotated by delta
      const double k0 = k[i] * std::cos(a) - k[i + 4] * std::sin(a), k1 = k[i + 4] * std::cos(a) + k[i] * std::sin(a);
      s += q[i] * k0 + q[i + 4] * k1;
    }
    CHECK(j["series"][2]["values"][static_cast<std::size_t>(d)].get<double>() == Approx(s).epsilon(0).margin(1e-12));
  }
  CHECK(decay_json({"rope", "--dim", "8", "--qk", "random", "--no-extras"})["series"].size() == 1);
  CHECK(decay_json({"rope", "--dim", "8", "--no-extras"})["extras"] == false);
  for (const std::vector<std::string>& bad : {std::vector<std::string>{"sinusoidal", "--qk", "random"},
                                              std::vector<std::string>{"alibi", "--seed", "2"},
                                              std::vector<std::string>{"sinusoidal", "--no-extras"}}) {
    std::vector<std::string> args = {"decay"};
    args.insert(args.end(), bad.begin(), bad.end());
    args.push_back("--format");
    args.push_back("csv");
    const auto r = run_cli(args);
    CHECK(r.code == 2);
    CHECK(one_line(r.err));
  }
}

TEST_CASE("decay rope: float64 by default matches REFERENCES 2.10; --precision f32 rounds theta as HF", "[cli][decay][precision]") {
  const auto j = decay_json({"rope", "--dim", "128", "--max-offset", "1000"});
  CHECK(j["params"]["precision"] == "f64");
  const auto& bound = j["series"][0]["values"];
  const auto& ones = j["series"][1]["values"];
  // REFERENCES §2.10, d = 128 (six decimals given, so a margin of 5e-7): the relative bound; the
  // series is the bound on |q.k|, (d/2)·max|h_(i+1) - h_i| = 64·2 = 128 times it.
  const std::pair<int, double> bounds[] = {{0, 32.5}, {1, 31.538166}, {10, 17.954137}, {50, 12.629452},
                                          {100, 10.227330}, {250, 6.548179}, {1000, 4.470761}};
  for (const auto& [d, v] : bounds) CHECK(bound[static_cast<std::size_t>(d)].get<double>() / 128 == Approx(v).epsilon(0).margin(5e-7));
  const std::pair<int, double> all_ones[] = {{0, 128.0}, {1, 124.187368}, {10, 85.640046}, {50, 69.910022},
                                            {100, 61.086909}, {250, 39.303642}, {1000, 20.355456}};
  for (const auto& [d, v] : all_ones) CHECK(ones[static_cast<std::size_t>(d)].get<double>() == Approx(v).epsilon(0).margin(5e-7));
  // float32: HF's inv_freq = 1 / base^(2i/d) in float32; the bound then misses the float64
  // reference in the 6th digit (10.227333 at 100), and matches that emulation written out here.
  const auto f32 = decay_json({"rope", "--dim", "128", "--max-offset", "100", "--precision", "f32"});
  CHECK(f32["params"]["precision"] == "f32");
  std::vector<double> theta;
  for (int i = 0; i < 64; ++i)
    theta.push_back(1.0f / std::pow(10000.0f, static_cast<float>(2 * i) / 128.0f));
  double partial_re = 0, partial_im = 0, sum = 0;
  for (double th : theta) {
    partial_re += std::cos(100 * th), partial_im += std::sin(100 * th);
    sum += std::hypot(partial_re, partial_im);
  }
  const double got = f32["series"][0]["values"][100].get<double>();
  CHECK(got / 128 == Approx(sum / 64).epsilon(0).margin(1e-9));
  CHECK(std::abs(got / 128 - 10.227330) > 1e-6);
}

TEST_CASE("cosmetics: no -0 in alibi decay, shortest float32 in decay JSON, integer dims, check texts", "[cli][cosmetic]") {
  const auto csv = run_cli({"decay", "alibi", "--heads", "1", "--max-offset", "1", "--symmetric", "--format", "csv"});
  CHECK(csv.out == "offset,head 0 (m=0.00390625)\n-1,-0.00390625\n0,0\n1,-0.00390625\n");
  const auto json = run_cli({"decay", "alibi", "--heads", "1", "--max-offset", "1", "--symmetric", "--format", "json"});
  CHECK(json.out.find("-0.0,") == std::string::npos);
  CHECK(json.out.find("-0.0\n") == std::string::npos);
  // float32 output: sum_k cos(w_k) for d = 8 is 3.53525595...; as float32 it prints 3.535256, as in CSV.
  const auto f32 = run_cli({"decay", "sinusoidal", "--dim", "8", "--max-offset", "1", "--format", "json"});
  CHECK_THAT(f32.out, Catch::Contains("3.535256\n"));
  CHECK_THAT(f32.out, !Catch::Contains("3.5352559"));
  CHECK_THAT(run_cli({"decay", "sinusoidal", "--dim", "8", "--max-offset", "1", "--format", "csv"}).out,
             Catch::Contains("1,3.535256\n"));
  const auto p = run_cli({"project", "sine", "--dim", "4", "--dims", "0,1,3", "--len", "3", "--format", "json"});
  CHECK_THAT(p.out, Catch::Contains("\"dims\":[0,1,3]"));
  const auto undecided = run_cli({"check", "learned", "--identity", "shift-linear"});
  CHECK(undecided.code == 2);
  CHECK_THAT(undecided.err, Catch::Contains("cannot be decided for scheme learned: the 49 rows"));
  CHECK_THAT(undecided.err, !Catch::Contains("undecided"));
  // One position has no pair to compare: refused up front rather than printed with an empty "worst at".
  const auto single = run_cli({"check", "integer", "--len", "1", "--identity", "unique"});
  CHECK(single.code == 2);
  CHECK(single.out.empty());
  CHECK_THAT(single.err, Catch::Contains("give --len 2 or more"));
  const auto pair = run_cli({"check", "integer", "--len", "2", "--identity", "unique"});
  CHECK(pair.code == 0);
  CHECK_THAT(pair.out, Catch::Contains("(tolerance 0.001), worst at i=0 j=1\n"));
  // Two positions leave no t with t - 1 >= 0 and t + 1 < 2: dot-symmetric cannot be decided.
  CHECK(run_cli({"check", "learned", "--len", "2", "--identity", "dot-symmetric"}).code == 2);
}

TEST_CASE("decay rope --qk same --metric distance: exactly 0 at delta 0 (issue 15.4)", "[cli][decay][qk]") {
  for (const char* layout : {"interleaved", "half"}) {
    const auto j = decay_json({"rope", "--qk", "same", "--no-extras", "--metric", "distance", "--max-offset", "1",
                               "--layout", layout});
    REQUIRE(j["series"].size() == 1);
    CHECK(j["series"][0]["values"][0].get<double>() == 0.0);  // was 3.37e-7 (cancellation)
    CHECK(j["series"][0]["values"][1].get<double>() > 0.0);
  }
  // similarity rope, same q: the diagonal of the distance matrix is exactly 0.
  const auto r = run_cli({"similarity", "rope", "--len", "3", "--dim", "64", "--qk", "same", "--metric", "distance",
                          "--dtype", "float64", "--format", "csv"});
  REQUIRE(r.code == 0);
  std::istringstream in(r.out);
  std::string line;
  std::getline(in, line);  // header
  for (int i = 0; i < 3; ++i) {
    REQUIRE(std::getline(in, line));
    std::vector<std::string> cells;
    std::stringstream ls(line);
    for (std::string c; std::getline(ls, c, ',');) cells.push_back(c);
    REQUIRE(cells.size() == 4);
    CHECK(cells[static_cast<std::size_t>(i) + 1] == "0");
  }
}
