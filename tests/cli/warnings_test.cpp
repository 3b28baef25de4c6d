// Warnings about the numbers written: worded by cause, exit code unchanged.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>

#include "cli_helpers.hpp"
#include "test_data.hpp"

namespace {

std::string temp_csv(const std::string& name, const std::string& text) {
  const auto path = (std::filesystem::temp_directory_path() / name).string();
  std::ofstream(path) << text;
  return path;
}

}  // namespace

TEST_CASE("nan and inf warnings name their cause", "[cli][warnings]") {
  const auto nan_file = temp_csv("posenc_warn_nan.csv", "a,b\n1,nan\n2,3\n");
  auto r = run_cli({"generate", "--input", nan_file});
  CHECK(r.code == 0);
  CHECK(r.err == "posenc: warning: the output holds nan values (the --input file holds nan values)\n");

  // 1e308 is a finite double that float32 cannot hold
  const auto big_file = temp_csv("posenc_warn_big.csv", "a,b\n1e308,1\n");
  r = run_cli({"generate", "--input", big_file});
  CHECK(r.code == 0);
  CHECK(r.err == "posenc: warning: the output holds infinite values (values beyond the float32 range became infinite: "
                 "use --dtype float64)\n");
  r = run_cli({"generate", "--input", big_file, "--dtype", "float64"});
  CHECK(r.err.empty());
  CHECK(r.out == "position,a,b\n0,1e+308,1\n");

  r = run_cli({"generate", "alibi", "--form", "causal", "--len", "3"});
  CHECK(r.err == "posenc: warning: the output holds infinite values (causal alibi masks future keys with -inf)\n");

  // integer positions 0 and 1 in one column: position 0 is the zero vector
  r = run_cli({"similarity", "integer", "--len", "2", "--dim", "1"});
  CHECK(r.err == "posenc: warning: the output holds nan values (the cosine with a zero vector is 0/0)\n");
  std::filesystem::remove(nan_file);
  std::filesystem::remove(big_file);
}

TEST_CASE("integer positions past 2^24 in float32 are warned about", "[cli][warnings]") {
  const auto path = (std::filesystem::temp_directory_path() / "posenc_warn_integer.npy").string();
  // positions 0..16777217: the last is not a float32 (it rounds to 16777216)
  auto r = run_cli({"generate", "integer", "--len", "16777218", "--dim", "1", "-o", path});
  CHECK(r.code == 0);
  CHECK(r.err == "posenc: warning: positions above 16777216 (2^24) are rounded in float32 (the last, 16777217, is "
                 "written as 16777216): use --dtype float64\n");
  r = run_cli({"generate", "integer", "--len", "16777217", "--dim", "1", "-o", path});  // last = 2^24: exact
  CHECK(r.err.empty());
  std::filesystem::remove(path);
}

TEST_CASE("learned with --std 0 writes 0, never -0", "[cli][warnings]") {
  const auto r = run_cli({"generate", "learned", "--std", "0", "--len", "3", "--dim", "4"});
  CHECK(r.out == "position,dim0,dim1,dim2,dim3\n0,0,0,0,0\n1,0,0,0,0\n2,0,0,0,0\n");
}

// Issue 26 item 17: --quiet (anywhere on the line, every command) turns warnings and notes off
// and keeps errors and the exit code.
TEST_CASE("--quiet drops warnings and notes, keeps errors", "[cli][warnings]") {
  const std::vector<std::string> ntk = {"rope", "--scaling", "ntk", "--factor", "2"};  // warns: not a transformers type
  const auto loud = run_cli(ntk);
  CHECK(loud.code == 0);
  CHECK_THAT(loud.err, Catch::Contains("posenc: warning: ntk: not a transformers rope_type"));
  for (const auto& at : {std::size_t{0}, std::size_t{1}, ntk.size()}) {
    auto args = ntk;
    args.insert(args.begin() + static_cast<std::ptrdiff_t>(at), "--quiet");
    const auto quiet = run_cli(args);
    CHECK(quiet.code == 0);
    CHECK(quiet.err.empty());
    CHECK(quiet.out == loud.out);
  }
  // notes (generate rope --hf-config on DeepSeek: the half-layout tensor) and table warnings
  const std::string ds = posenc::test::data_path("configs/deepseek-r1.json");
  CHECK_THAT(run_cli({"generate", "rope", "--hf-config", ds, "--len", "2"}).err, Catch::Contains("posenc: note: "));
  const auto noted = run_cli({"generate", "rope", "--hf-config", ds, "--len", "2", "--quiet"});
  CHECK(noted.code == 0);
  CHECK(noted.err.empty());
  const auto alibi = run_cli({"generate", "alibi", "--form", "causal", "--len", "3", "--quiet"});
  CHECK(alibi.code == 0);
  CHECK(alibi.err.empty());
  // errors stay, with their exit code
  const auto bad = run_cli({"rope", "--quiet", "--dim", "63"});
  CHECK(bad.code == 2);
  CHECK(one_line(bad.err));
  CHECK_THAT(bad.err, Catch::StartsWith("posenc: error: "));
  const auto unknown = run_cli({"--quiet", "frobnicate"});
  CHECK(unknown.code == 2);
  CHECK_THAT(unknown.err, Catch::StartsWith("posenc: error: unknown command 'frobnicate'"));
  // listed in --help
  CHECK_THAT(run_cli({"--help"}).out, Catch::Contains("--quiet"));
}
