#include "posenc/cli/run.hpp"

#include <catch2/catch.hpp>
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

TEST_CASE("generate SCHEME help shows the scheme's defaults", "[cli]") {
  const auto r = run_cli({"generate", "normalized", "--help"});
  CHECK(r.code == 0);
  CHECK_THAT(r.out, Catch::Contains("--len"));
  CHECK_THAT(r.out, Catch::Contains("50"));
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
  CHECK_THAT(j.out, Catch::Contains("\"schemes\""));
}

TEST_CASE("--input CSV keeps its positions and column names through to the outputs", "[cli][readers]") {
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
