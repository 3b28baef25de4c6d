// Messages of numeric options: one validator family for every command.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "cli_helpers.hpp"

namespace {

std::string error_of(const std::vector<std::string>& args) {
  const auto r = run_cli(args);
  INFO(r.err);
  CHECK(r.code == 2);
  CHECK(r.out.empty());
  CHECK(one_line(r.err));
  return r.err;
}

std::size_t rows_of(const std::vector<std::string>& args) {
  const auto r = run_cli(args);
  REQUIRE(r.code == 0);
  return static_cast<std::size_t>(std::count(r.out.begin(), r.out.end(), '\n')) - 1;  // minus the header
}

}  // namespace

TEST_CASE("integer options: plain decimal in a stated range", "[cli][validators]") {
  const std::string rule = "posenc: error: --len must be an integer in 1..2147483648 (got '";
  for (const std::string bad : {"abc", "2.5", "1e3", "0x10", "0", "-3", "2147483649", "99999999999999999999", " 5", ""}) {
    INFO(bad);
    CHECK(error_of({"generate", "integer", "--len", bad, "--dim", "1"}) == rule + bad + "')\n");
  }
  // Leading zeros are decimal (CLI11 alone read 010 as octal 8, 0x10 as 16), '+' is allowed.
  CHECK(rows_of({"generate", "integer", "--len", "010", "--dim", "1"}) == 10);
  CHECK(rows_of({"generate", "integer", "--len", "+3", "--dim", "1"}) == 3);
  CHECK(error_of({"generate", "integer", "--dim", "65537"}) ==
        "posenc: error: --dim must be an integer in 1..65536 (got '65537')\n");
  CHECK(error_of({"decay", "integer", "--max-offset", "0x10"}) ==
        "posenc: error: --max-offset must be an integer in 0..16777216 (got '0x10')\n");
  CHECK(error_of({"project", "integer", "--dims", "-1,0"}) ==
        "posenc: error: --dims must be an integer in 0..65535 (got '-1')\n");
  CHECK(error_of({"generate", "integer", "--threads", "0"}) ==
        "posenc: error: --threads must be an integer in 1..1024 (got '0')\n");
}

TEST_CASE("seeds: the whole stated range and nothing beyond", "[cli][validators]") {
  // learned: 0 .. 2^63 - 1, as docs/encodings/learned.md says
  CHECK(rows_of({"generate", "learned", "--len", "1", "--dim", "1", "--seed", "9223372036854775807"}) == 1);
  CHECK(error_of({"generate", "learned", "--seed", "9223372036854775808"}) ==
        "posenc: error: --seed must be an integer in 0..9223372036854775807 (got '9223372036854775808')\n");
  // similarity/check of rope: an unsigned 64-bit seed, not saturated
  CHECK(error_of({"similarity", "rope", "--seed", "99999999999999999999"}) ==
        "posenc: error: --seed must be an integer in 0..18446744073709551615 (got '99999999999999999999')\n");
  CHECK(error_of({"check", "rope", "--seed", "-3"}) ==
        "posenc: error: --seed must be an integer in 0..18446744073709551615 (got '-3')\n");
}

TEST_CASE("number options: finite decimals, the bound stated as it is applied", "[cli][validators]") {
  for (const std::string bad : {"nan", "inf", "-inf", "0x10", "1e400", "abc", "0.5"}) {
    INFO(bad);
    CHECK(error_of({"generate", "sinusoidal", "--base", bad}) ==
          "posenc: error: --base must be a number >= 1 (got '" + bad + "')\n");
  }
  // --factor: 0 means "not set" by default, so a given value must be above 0, and says so
  for (const std::string bad : {"0", "-2"}) {
    CHECK(error_of({"generate", "rope", "--scaling", "linear", "--factor", bad}) ==
          "posenc: error: --factor must be a number > 0 (got '" + bad + "')\n");
  }
  CHECK(error_of({"generate", "rope", "--short-factor", "1,x"}) ==
        "posenc: error: --short-factor must be finite numbers separated by commas, e.g. 1,1.5 (got 'x')\n");
  CHECK(error_of({"check", "integer", "--tol", "-1"}) == "posenc: error: --tol must be a number >= 0 (got '-1')\n");
  CHECK(rows_of({"generate", "sinusoidal", "--len", "2", "--dim", "2", "--base", "1e4"}) == 2);
}

TEST_CASE("true/false options and --pca say what they accept", "[cli][validators]") {
  CHECK(error_of({"generate", "rope", "--truncate", "maybe"}) ==
        "posenc: error: --truncate must be true or false (got 'maybe')\n");
  CHECK(error_of({"generate", "rope", "--apply-attention-factor", "2"}) ==
        "posenc: error: --apply-attention-factor must be true or false (got '2')\n");
  CHECK(run_cli({"generate", "rope", "--len", "1", "--truncate", "FALSE"}).code == 0);
  CHECK(error_of({"project", "integer", "--pca", "x"}) == "posenc: error: --pca must be an integer in 2..3 (got 'x')\n");
}

TEST_CASE("an option without its value is named", "[cli][validators]") {
  CHECK(error_of({"generate", "integer", "--dim=", "-o", "keep.csv"}) ==
        "posenc: error: --dim= has no value after '=': write --dim=VALUE or --dim VALUE\n");
  CHECK(error_of({"generate", "integer", "--len"}) == "posenc: error: --len needs a value\n");
}

TEST_CASE("help shows types, ranges and real defaults", "[cli][validators]") {
  const auto g = run_cli({"generate", "sinusoidal", "--help"});
  CHECK_THAT(g.out, Catch::Contains("--len INT in 1..2147483648 (default: 50)"));
  CHECK_THAT(g.out, Catch::Contains("--base NUMBER >= 1 (default: 10000)"));
  const auto t = run_cli({"generate", "--help"});
  CHECK_THAT(t.out, Catch::Contains("--threads INT in 1..1024 (default: all cores)"));
  CHECK_THAT(t.out, Catch::Contains("--width INT in 320..8000 (default: fitted to the data)"));
  CHECK_THAT(t.out, !Catch::Contains("=0"));
  CHECK_THAT(t.out, !Catch::Contains("FLOAT"));
  // A required option shows no default (its initial 0 is never used) ...
  const auto p = run_cli({"rope", "permutation", "--help"});
  CHECK_THAT(p.out, Catch::Contains("--dim INT in 2..65536 REQUIRED\n"));
  // ... and aliases that exclude each other do not end the line with CLI11's "Excludes:" list.
  const auto t5 = run_cli({"generate", "t5", "--help"});
  CHECK_THAT(t5.out, Catch::Contains("--mode TEXT:{bidirectional,causal} (default: bidirectional)\n"));
  CHECK_THAT(t5.out, !Catch::Contains("Excludes"));
  // rope's --factor must be > 0 when given: its default is "not set", not a 0 it would refuse.
  CHECK_THAT(run_cli({"generate", "rope", "--help"}).out, Catch::Contains("--factor NUMBER > 0 (default: not set)\n"));
  const auto list = run_cli({"list"});
  CHECK_THAT(list.out, Catch::Contains("--factor not set "));
  CHECK_THAT(list.out, !Catch::Contains("--factor 0 "));
}
