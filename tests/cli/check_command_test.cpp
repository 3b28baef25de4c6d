// posenc check: every identity on a case that holds (exit 0) and one that fails (exit 1),
// identities that do not apply or cannot be decided (exit 2), and the JSON keys.
#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "cli_helpers.hpp"

namespace {

std::string temp_file(const std::string& name, const std::string& text) {
  const auto dir = std::filesystem::temp_directory_path() / "posenc_check_test";
  std::filesystem::create_directories(dir);
  const auto path = (dir / name).string();
  std::ofstream(path) << text;
  return path;
}

}  // namespace

TEST_CASE("check sinusoidal: all default identities hold", "[cli][check]") {
  const auto r = run_cli({"check", "sinusoidal", "--len", "200", "--dim", "32"});
  INFO(r.out << r.err);
  CHECK(r.code == 0);
  CHECK_THAT(r.out, Catch::Contains("all 5 identities hold"));
}

TEST_CASE("check shift-linear: sinusoidal holds, learned fails, too few rows cannot decide", "[cli][check]") {
  CHECK(run_cli({"check", "sinusoidal", "--identity", "shift-linear"}).code == 0);
  const auto fail = run_cli({"check", "learned", "--len", "100", "--dim", "16", "--identity", "shift-linear"});
  INFO(fail.out);
  CHECK(fail.code == 1);
  CHECK_THAT(fail.out, Catch::Contains("FAILS"));
  const auto undecided = run_cli({"check", "learned", "--identity", "shift-linear"});  // 50 rows, 768 dims
  CHECK(undecided.code == 2);
  CHECK(one_line(undecided.err));
  CHECK_THAT(undecided.err, Catch::Contains("cannot be decided"));
  // In the default set it is skipped, and the other identities still fail for a random table.
  const auto dflt = run_cli({"check", "learned"});
  CHECK(dflt.code == 1);
  CHECK_THAT(dflt.out, Catch::Contains("skip   shift-linear"));
}

TEST_CASE("check dot-shift-invariant and dot-symmetric", "[cli][check]") {
  for (const char* id : {"dot-shift-invariant", "dot-symmetric"}) {
    INFO(id);
    CHECK(run_cli({"check", "sinusoidal", "--len", "100", "--identity", id}).code == 0);
    CHECK(run_cli({"check", "integer", "--len", "100", "--identity", id}).code == 1);
    CHECK(run_cli({"check", "learned", "--len", "100", "--dim", "16", "--identity", id}).code == 1);
  }
}

TEST_CASE("check unique: pow2 sine in 2 dims collides at positions 0 and 710", "[cli][check]") {
  const auto fail = run_cli({"check", "sine", "--dim", "2", "--len", "1000", "--identity", "unique"});
  CHECK(fail.code == 1);
  CHECK_THAT(fail.out, Catch::Contains("i=0 j=710"));
  CHECK(run_cli({"check", "sine", "--dim", "8", "--len", "200", "--identity", "unique"}).code == 0);
}

TEST_CASE("check bounded: normalized stays in [0, 1], integer does not", "[cli][check]") {
  CHECK(run_cli({"check", "normalized", "--identity", "bounded"}).code == 0);
  const auto fail = run_cli({"check", "integer", "--len", "10", "--identity", "bounded"});
  CHECK(fail.code == 1);
  CHECK_THAT(fail.out, Catch::Contains("t=9"));
  CHECK(run_cli({"check", "integer", "--len", "10", "--identity", "bounded", "--bound", "9"}).code == 0);
}

TEST_CASE("check bias-relative: alibi and t5 hold, a user's non-Toeplitz matrix fails", "[cli][check]") {
  CHECK(run_cli({"check", "alibi", "--len", "20", "--heads", "4"}).code == 0);
  CHECK(run_cli({"check", "alibi", "--len", "20", "--form", "causal"}).code == 0);
  CHECK(run_cli({"check", "t5", "--len", "40", "--key-len", "30"}).code == 0);
  CHECK(run_cli({"check", "t5", "--len", "40", "--mode", "causal"}).code == 0);
  const auto toeplitz = temp_file("toeplitz.csv", "0,1,2\n-1,0,1\n-2,-1,0\n");
  CHECK(run_cli({"check", "--input", toeplitz, "--identity", "bias-relative"}).code == 0);
  const auto other = temp_file("other.csv", "0,1,2\n-1,0,5\n-2,-1,0\n");
  const auto fail = run_cli({"check", "--input", other, "--identity", "bias-relative"});
  CHECK(fail.code == 1);
  CHECK_THAT(fail.out, Catch::Contains("i=1 j=2"));
}

TEST_CASE("check: an identity that does not apply exits 2 and says so", "[cli][check]") {
  const auto r = run_cli({"check", "alibi", "--identity", "unique"});
  CHECK(r.code == 2);
  CHECK(one_line(r.err));
  CHECK_THAT(r.err, Catch::Contains("does not apply to scheme alibi"));
  CHECK(run_cli({"check", "sinusoidal", "--identity", "rope-norm"}).code == 2);
  CHECK(run_cli({"check", "sinusoidal", "--identity", "no-such"}).code == 2);
}

TEST_CASE("check --format json: all_hold and identities with stable keys", "[cli][check]") {
  const auto r = run_cli({"check", "integer", "--len", "5", "--format", "json"});
  CHECK(r.code == 1);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["all_hold"] == false);
  REQUIRE(j["identities"].size() == 5);  // shift-linear, dot-shift-invariant, dot-symmetric, unique, bounded
  for (const auto& i : j["identities"]) {
    CHECK(i.contains("name"));
    CHECK(i.contains("holds"));
    CHECK(i.contains("max_error"));
    CHECK(i.contains("tolerance"));
    CHECK(i["worst"].is_object());
  }
}

TEST_CASE("check --input: a sinusoidal table from a file passes shift-linear by least squares", "[cli][check]") {
  const auto dir = std::filesystem::temp_directory_path() / "posenc_check_test";
  std::filesystem::create_directories(dir);
  const auto sin = (dir / "sin.csv").string();
  const auto learned = (dir / "learned.csv").string();
  REQUIRE(run_cli({"generate", "sinusoidal", "--len", "100", "--dim", "16", "--dtype", "float64", "-o", sin}).code == 0);
  REQUIRE(run_cli({"generate", "learned", "--len", "100", "--dim", "16", "--dtype", "float64", "-o", learned}).code == 0);
  CHECK(run_cli({"check", "--input", sin}).code == 0);
  CHECK(run_cli({"check", "--input", learned, "--identity", "shift-linear"}).code == 1);
}

TEST_CASE("check rope: the rope identities hold; dot-symmetric fails for q != k only", "[cli][check][rope]") {
  const auto r = run_cli({"check", "rope", "--dim", "64"});
  INFO(r.out << r.err);
  CHECK(r.code == 0);
  CHECK_THAT(r.out, Catch::Contains("all 4 identities hold"));
  CHECK(run_cli({"check", "rope", "--dim", "64", "--layout", "interleaved", "--scaling", "linear", "--factor", "4"}).code == 0);
  const auto sym = run_cli({"check", "rope", "--dim", "64", "--identity", "dot-symmetric,rope-relative"});
  CHECK(sym.code == 1);
  CHECK_THAT(sym.out, Catch::Contains("FAILS  dot-symmetric"));
  CHECK_THAT(sym.out, Catch::Contains("holds  rope-relative"));
  CHECK(run_cli({"check", "rope", "--dim", "64", "--identity", "dot-symmetric", "--qk", "same"}).code == 0);
  CHECK(run_cli({"check", "rope", "--identity", "unique"}).code == 2);
}

TEST_CASE("check --input: a NaN or inf fails every identity (exit 1) at the first bad cell", "[cli][check][nonfinite]") {
  // 12 rows of the 2-D paper table (sin t, cos t): every identity holds until one cell is bad.
  std::string good, bad;
  for (int t = 0; t < 12; ++t) {
    const std::string row = fmt::format("{},{}\n", std::sin(t), std::cos(t));
    good += row;
    bad += t == 3 ? fmt::format("{},nan\n", std::sin(t)) : t == 8 ? std::string("inf,0.5\n") : row;
  }
  const auto ok = temp_file("finite.csv", good), nan = temp_file("nan.csv", bad);
  CHECK(run_cli({"check", "--input", ok}).code == 0);
  for (const char* id : {"shift-linear", "dot-shift-invariant", "dot-symmetric", "unique", "bounded", "bias-relative"}) {
    const auto r = run_cli({"check", "--input", nan, "--identity", id, "--format", "json"});
    INFO(id << ": " << r.out << r.err);
    CHECK(r.code == 1);
    const auto j = nlohmann::json::parse(r.out);
    CHECK(j["all_hold"] == false);
    CHECK(j["identities"][0]["max_error"].is_null());
    const auto& w = j["identities"][0]["worst"];
    if (std::string(id) == "bias-relative") {
      CHECK(w["i"] == 3);
      CHECK(w["j"] == 1);
    } else {
      CHECK(w["t"] == 3);
      CHECK(w["dim"] == 1);
    }
  }
}

TEST_CASE("check bias-relative: a causal m*j bias with more queries than keys holds", "[cli][check][bias]") {
  // 6 x 4, b[i, j] = 0.5 j for j <= i, -inf above: rows 4 and 5 have no diagonal.
  std::string text;
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 4; ++j) text += (j <= i ? fmt::format("{}", 0.5 * j) : std::string("-inf")) + (j < 3 ? "," : "\n");
  const auto ok = temp_file("causal64.csv", text);
  const auto r = run_cli({"check", "--input", ok, "--identity", "bias-relative"});
  INFO(r.out << r.err);
  CHECK(r.code == 0);
  CHECK_THAT(r.out, Catch::Contains("max error 0 "));
  text.replace(text.rfind("0.5"), 3, "0.7");  // row 5, j = 1
  const auto bad = run_cli({"check", "--input", temp_file("causal64_bad.csv", text), "--identity", "bias-relative"});
  CHECK(bad.code == 1);
  CHECK_THAT(bad.out, Catch::Contains("i=5"));
}

TEST_CASE("check --input: posenc's own all-heads ALiBi .npy (H x N x N) is checked per head", "[cli][check][bias]") {
  const auto dir = std::filesystem::temp_directory_path() / "posenc_check_test";
  std::filesystem::create_directories(dir);
  const auto path = (dir / "alibi_heads.npy").string();
  for (const char* form : {"symmetric", "causal"}) {
    REQUIRE(run_cli({"generate", "alibi", "--heads", "4", "--len", "7", "--form", form, "--dtype", "float64", "-o", path})
                .code == 0);
    const auto r = run_cli({"check", "--input", path});  // bias-relative is the only identity of a 3-D table
    INFO(r.out << r.err);
    CHECK(r.code == 0);
    CHECK_THAT(r.out, Catch::Contains("holds  bias-relative"));
    CHECK_THAT(r.out, Catch::Contains("4 head(s) of 7 x 7"));
  }
  // Change head 2, i = 5, j = 3 (float64 little-endian after the header) and it fails there.
  std::string bytes;
  {
    std::ifstream in(path, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  const std::size_t header = 10 + (static_cast<unsigned char>(bytes[8]) | static_cast<unsigned char>(bytes[9]) << 8);
  const std::size_t at = header + 8 * ((2 * 7 + 5) * 7 + 3);
  double v = 0;
  std::memcpy(&v, bytes.data() + at, 8);
  v += 0.25;
  std::memcpy(bytes.data() + at, &v, 8);
  std::ofstream(path, std::ios::binary) << bytes;
  const auto bad = run_cli({"check", "--input", path, "--format", "json"});
  CHECK(bad.code == 1);
  CHECK(nlohmann::json::parse(bad.out)["identities"][0]["worst"]["head"] == 2);
  const auto absolute = run_cli({"check", "--input", path, "--identity", "unique"});
  CHECK(absolute.code == 2);
  CHECK(one_line(absolute.err));
  CHECK_THAT(absolute.err, Catch::Contains("applies to: bias-relative"));
}

namespace {

nlohmann::json check_json(std::vector<std::string> args, int want_code) {
  args.insert(args.begin(), "check");
  args.push_back("--format");
  args.push_back("json");
  const auto r = run_cli(args);
  INFO(r.out << r.err);
  REQUIRE(r.code == want_code);
  return nlohmann::json::parse(r.out)["identities"][0];
}

}  // namespace

TEST_CASE("check rope-relative and dot-shift-invariant: float32 angles drift at long range", "[cli][check][rope]") {
  // HF computes angle = float32(m) * float32(theta_i): its error grows like m * 2^-24, so at
  // m ~ 4096 <R_m q, R_n k> misses <q, R_{n-m} k> by ~1e-5 of |q||k|. float64 holds.
  for (const char* id : {"rope-relative", "dot-shift-invariant"}) {
    INFO(id);
    const auto ok = check_json({"rope", "--dim", "64", "--len", "4096", "--identity", id}, 0);
    CHECK(ok["max_error"].get<double>() < 1e-12);
    const auto f32 = check_json({"rope", "--dim", "64", "--len", "4096", "--precision", "f32", "--identity", id}, 1);
    CHECK(f32["max_error"].get<double>() > 1e-6);
    CHECK(f32["max_error"].get<double>() < 1e-3);
    // The worst case involves the far end: n = 4095 (rope-relative) or m + delta = 4095.
    const auto& w = f32["worst"];
    CHECK((w.contains("n") ? w["n"].get<int>() : w["m"].get<int>() + w["delta"].get<int>()) > 3500);
    // Short tables keep float32 within the default tolerance.
    check_json({"rope", "--dim", "64", "--len", "50", "--precision", "f32", "--identity", id}, 0);
  }
}

TEST_CASE("check rope-norm divides out YaRN's attention factor", "[cli][check][rope]") {
  // cos and sin carry a = 0.1 ln 4 + 1 = 1.1386: |R_m x| = a|x|, so R_m / a keeps norms (the
  // previous rule compared |R_m x| with |x| and failed by a − 1 = 0.139 on every YaRN config).
  const std::vector<std::string> yarn = {"rope", "--dim", "64", "--scaling", "yarn", "--factor", "4",
                                         "--original-max-position-embeddings", "2048", "--identity", "rope-norm"};
  const auto scaled = check_json(yarn, 0);
  CHECK(scaled["max_error"].get<double>() < 1e-14);
  CHECK_THAT(scaled["measure"].get<std::string>(), Catch::Contains("s|x|"));
  CHECK_THAT(scaled["note"].get<std::string>(), Catch::Contains("attention factor s = 1.1386294361119"));
  auto without = yarn;
  for (const char* a : {"--apply-attention-factor", "false"}) without.push_back(a);
  check_json(without, 0);
  check_json({"rope", "--dim", "64", "--identity", "rope-norm"}, 0);
  // float32 cos and sin are not exactly on the unit circle (~1e-8): only a tight tolerance sees it.
  const auto f32 = check_json({"rope", "--dim", "64", "--precision", "f32", "--tol", "1e-10", "--identity", "rope-norm"}, 1);
  CHECK(f32["max_error"].get<double>() < 1e-7);
}

TEST_CASE("check rope-forms-agree and layouts-agree cannot fail from the command line", "[cli][check][rope]") {
  // posenc's three forms rotate with the same cos and sin, and the layouts differ only by where a
  // pair sits: the forms agree exactly, the layouts up to the summation order of the scores.
  const std::vector<std::vector<std::string>> settings = {
      {},
      {"--precision", "f32", "--len", "100000"},
      {"--convention", "ggml", "--precision", "f32", "--len", "100000"},
      {"--convention", "meta", "--layout", "interleaved"},
      {"--rotary-dim", "32", "--scaling", "yarn", "--factor", "8", "--original-max-position-embeddings", "4096"},
  };
  for (const auto& s : settings) {
    std::vector<std::string> args = {"rope", "--dim", "64", "--tol", "0", "--identity", "rope-forms-agree"};
    args.insert(args.end(), s.begin(), s.end());
    CHECK(check_json(args, 0)["max_error"] == 0.0);
    args[4] = "1e-15";
    args[6] = "layouts-agree";
    CHECK(check_json(args, 0)["max_error"].get<double>() < 1e-15);
  }
  // The only failure within reach is rounding, with no tolerance at all.
  const auto zero = check_json({"rope", "--dim", "64", "--tol", "0", "--identity", "layouts-agree"}, 1);
  CHECK(zero["max_error"].get<double>() < 1e-15);
}

// "all 1 identities hold" (issue 26): one identity is counted in the singular.
TEST_CASE("check: one identity is counted in the singular", "[cli][check]") {
  const auto holds = run_cli({"check", "sinusoidal", "--identity", "shift-linear"});
  CHECK(holds.code == 0);
  CHECK_THAT(holds.out, Catch::EndsWith("the 1 identity holds\n"));
  const auto fails = run_cli({"check", "learned", "--len", "100", "--dim", "16", "--identity", "shift-linear"});
  CHECK(fails.code == 1);
  CHECK_THAT(fails.out, Catch::EndsWith("the 1 identity fails\n"));
  const auto two = run_cli({"check", "learned", "--len", "100", "--dim", "16", "--identity", "shift-linear,bounded"});
  CHECK(two.code == 1);
  CHECK_THAT(two.out, Catch::EndsWith("1 of 2 identities fails\n"));
}
