#include "posenc/cli/run.hpp"

#include <catch2/catch.hpp>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "cli_helpers.hpp"

TEST_CASE("version flag prints the version and exits 0", "[cli]") {
  const auto r = run_cli({"--version"});
  CHECK(r.code == 0);
  CHECK_THAT(r.out, Catch::StartsWith("posenc "));
}

TEST_CASE("help flag exits 0 and lists the commands", "[cli]") {
  const auto r = run_cli({"--help"});
  CHECK(r.code == 0);
  CHECK_THAT(r.out, Catch::Contains("generate"));
  CHECK_THAT(r.out, Catch::Contains("list"));
}

namespace {

/// The defaults documented in docs/encodings/*.md and docs/cli.md (written here by hand from
/// those pages, not from the code): scheme -> {option, default}.
const std::map<std::string, std::map<std::string, std::string>>& documented_defaults() {
  static const std::map<std::string, std::map<std::string, std::string>> d = {
      {"integer", {{"len", "50"}, {"dim", "1"}}},
      {"normalized", {{"len", "50"}, {"dim", "1"}}},
      {"binary", {{"len", "50"}, {"dim", "8"}, {"bit-order", "msb"}}},
      {"sine", {{"len", "50"}, {"dim", "128"}, {"frequencies", "pow2"}}},
      {"sinusoidal",
       {{"len", "50"}, {"dim", "128"}, {"base", "10000"}, {"layout", "auto"}, {"convention", "paper"}, {"padding-idx", "1"}}},
      {"learned", {{"len", "50"}, {"dim", "768"}, {"std", "0.02"}, {"seed", "0"}, {"max-len", "1024"}}},
      {"recurrent", {{"len", "50"}, {"dim", "128"}, {"base", "10000"}, {"layout", "auto"}}},
      {"rope",
       {{"len", "50"}, {"dim", "64"}, {"base", "10000"}, {"scaling", "none"}, {"factor", "not set"}, {"beta-fast", "32"},
        {"beta-slow", "1"}, {"convention", "hf"}, {"precision", "f32"}}},
      {"alibi",
       {{"len", "50"}, {"heads", "8"}, {"head", "-1"}, {"form", "symmetric"}, {"variant", "paper"}, {"bias-max", "8"}}},
      {"kerple", {{"len", "50"}, {"kind", "log"}, {"head", "-1"}, {"form", "symmetric"}}},
      {"sandwich", {{"len", "50"}, {"dim", "128"}, {"heads", "8"}, {"head", "-1"}, {"form", "symmetric"}}},
      {"fire", {{"len", "50"}, {"c", "0.1"}, {"threshold", "512"}, {"eps", "1e-06"}}},
      {"t5", {{"len", "50"}, {"key-len", "0"}, {"buckets", "32"}, {"max-distance", "128"}, {"mode", "bidirectional"}}},
      {"mrope",
       {{"len", "0"}, {"preset", "qwen2-vl"}, {"dim", "128"}, {"base", "1000000"}, {"sections", "16,24,24"},
        {"mrope-layout", "sectioned"}, {"grid", "1,8,8"}, {"merge", "2"}, {"table", "cos"}, {"precision", "f32"}}},
      {"nope",
       {{"len", "50"}, {"dim", "64"}, {"table", "query"}, {"temperature", "false"}, {"attn-scale", "0.1"},
        {"floor-scale", "8192"}, {"start", "0"}, {"layers", "48"}, {"interval", "4"}, {"precision", "f32"}}},
      {"deberta",
       {{"len", "50"}, {"key-len", "0"}, {"buckets", "256"}, {"max-relative", "512"}, {"impl", "hf"},
        {"index", "bucket"}}},
      {"xpos",
       {{"len", "50"}, {"dim", "64"}, {"base", "10000"}, {"scale-base", "512"}, {"centre", "middle"},
        {"convention", "torchscale"}, {"role", "query"}, {"key-scale", "reciprocal"}, {"table", "scale"}}},
      {"transformer-xl",
       {{"len", "50"}, {"dim", "16"}, {"base", "10000"}, {"clamp-len", "0"}, {"mem-len", "0"}, {"table", "r"}}},
      {"shaw",
       {{"len", "50"}, {"key-len", "0"}, {"k", "16"}, {"convention", "t2t"}, {"max-position", "512"},
        {"table", "index"}}},
      {"axial-rope",
       {{"len", "0"}, {"dim", "64"}, {"base", "10000"}, {"positions", "index"}, {"max-freq", "10"},
        {"axis-order", "row-first"}, {"layout", "interleaved"}, {"table", "cos"}, {"precision", "f32"}}},
  };
  return d;
}

}  // namespace

TEST_CASE("generate SCHEME --help shows each documented default", "[cli]") {
  for (const auto& [scheme, defaults] : documented_defaults()) {
    const auto r = run_cli({"generate", scheme, "--help"});
    INFO(scheme);
    CHECK(r.code == 0);
    for (const auto& [name, value] : defaults) {
      INFO(name);
      // "--base NUMBER >= 1 (default: 10000)": the option, its type, then its default
      const auto at = r.out.find("  --" + name + " ");
      REQUIRE(at != std::string::npos);
      const std::string line = r.out.substr(at, r.out.find('\n', at) - at);
      CHECK_THAT(line, Catch::EndsWith("(default: " + value + ")"));
    }
  }
}

TEST_CASE("no command is a usage error", "[cli]") {
  const auto r = run_cli({});
  CHECK(r.code == 2);
  CHECK(one_line(r.err));
}

TEST_CASE("unknown scheme exits 2 with a suggestion", "[cli]") {
  const auto r = run_cli({"generate", "integr", "--len", "3"});
  CHECK(r.code == 2);
  CHECK_THAT(r.err, Catch::Contains("unknown scheme 'integr', did you mean 'integer'?"));
  CHECK(one_line(r.err));
  CHECK(r.out.empty());
}

TEST_CASE("bad len values exit 2 naming --len", "[cli]") {
  for (const char* bad : {"0", "-3", "abc", "1e99", "99999999999"}) {
    const auto r = run_cli({"generate", "integer", "--len", bad, "--format", "csv"});
    INFO(bad << ": " << r.err);
    CHECK(r.code == 2);
    CHECK_THAT(r.err, Catch::Contains("--len"));
    CHECK(one_line(r.err));
    CHECK(r.out.empty());
  }
}

TEST_CASE("unknown format exits 2 listing the choices", "[cli]") {
  const auto r = run_cli({"generate", "integer", "--format", "xlsx"});
  CHECK(r.code == 2);
  CHECK_THAT(r.err, Catch::Contains("--format"));
  CHECK(one_line(r.err));
}

TEST_CASE("a table to stdout without --format is csv; a file needs a known extension", "[cli]") {
  const auto r = run_cli({"generate", "integer", "--len", "3", "--dim", "2"});
  CHECK(r.code == 0);
  CHECK(r.out == "position,dim0,dim1\n0,0,0\n1,1,1\n2,2,2\n");
  CHECK(r.err.empty());
  const auto d = run_cli({"decay", "integer", "--len", "4", "--max-offset", "1"});
  CHECK(d.code == 0);
  CHECK_THAT(d.out, Catch::StartsWith("offset,"));
  const auto x = run_cli({"generate", "integer", "--len", "3", "-o", "out.xyz"});
  CHECK(x.code == 2);
  CHECK_THAT(x.err, Catch::Contains("--format"));
}

TEST_CASE("generate integer to stdout as CSV", "[cli]") {
  const auto r = run_cli({"generate", "integer", "--len", "3", "--dim", "2", "--format", "csv"});
  CHECK(r.code == 0);
  CHECK(r.out == "position,dim0,dim1\n0,0,0\n1,1,1\n2,2,2\n");
}

TEST_CASE("list shows every scheme with a formula", "[cli]") {
  const auto r = run_cli({"list"});
  CHECK(r.code == 0);
  CHECK_THAT(r.out, Catch::Contains("integer"));
  CHECK_THAT(r.out, Catch::Contains("formula: PE[t,k] = t/(N-1)"));
  const auto j = run_cli({"list", "--format", "json"});
  CHECK(j.code == 0);
  const auto all = nlohmann::json::parse(j.out)["schemes"];
  std::set<std::string> listed;
  for (const auto& sch : all) {
    const std::string name = sch["name"];
    listed.insert(name);
    INFO(name);
    CHECK(!sch["summary"].get<std::string>().empty());
    CHECK(!sch["formula"].get<std::string>().empty());
    std::map<std::string, nlohmann::json> params;
    for (const auto& p : sch["params"]) {
      CHECK(!p["help"].get<std::string>().empty());
      if (p.contains("choices")) {  // the default is one of the choices
        const auto& c = p["choices"];
        CHECK(std::find(c.begin(), c.end(), p["default"]) != c.end());
      }
      params[p["name"]] = p["default"];
    }
    REQUIRE(documented_defaults().count(name) == 1);
    for (const auto& [param, value] : documented_defaults().at(name)) {
      INFO(param);
      REQUIRE(params.count(param) == 1);
      const auto& v = params[param];
      if (v.is_null()) {
        CHECK(value == "not set");
      } else if (v.is_number()) {
        CHECK(v.get<double>() == std::stod(value));  // 10000 and 10000.0 are the same default
      } else {
        CHECK((v.is_string() ? v.get<std::string>() : v.dump()) == value);
      }
    }
  }
  CHECK(listed.size() == documented_defaults().size());
}

TEST_CASE("an input CSV keeps its positions and column names through to the outputs", "[cli][readers]") {
  const auto path = (std::filesystem::temp_directory_path() / "posenc_run_test_input.csv").string();
  std::ofstream(path) << "position,a,b\n5,1,2\n6,3,4\n";
  const auto r = run_cli({"generate", "--input", path});
  CHECK(r.code == 0);
  CHECK(r.out == "position,a,b\n5,1,2\n6,3,4\n");
  // posenc's own similarity CSV (index column "i") reads back as the same N x N table
  const auto sim = run_cli({"similarity", "sinusoidal", "--len", "3", "--dim", "4", "--dtype", "float64"});
  std::ofstream(path) << sim.out;
  const auto back = run_cli({"generate", "--input", path, "--dtype", "float64"});
  CHECK(back.code == 0);
  CHECK(back.out == sim.out);
  std::filesystem::remove(path);
}
