// Regressions from the bad-input battery and the fuzzers (issue 7): hostile files end in
// posenc::Error with a message naming the problem, never in another exception or a crash.
#include <catch2/catch.hpp>

#include <string>

#include "posenc/rope/rope_config.hpp"
#include "posenc/models/rope_settings.hpp"
#include "posenc/error.hpp"
#include "posenc/formats/readers.hpp"

using Catch::Contains;

TEST_CASE("a config.json number out of double range is a JSON error, not an abort", "[hostile]") {
  // nlohmann::json throws out_of_range (not parse_error) for 1e400; it used to escape cli::run.
  CHECK_THROWS_WITH(posenc::models::parse_hf_config(R"({"head_dim": 64, "rope_theta": 1e400})", "c.json"),
                    Contains("c.json: not valid JSON") && Contains("1e400"));
  CHECK_THROWS_AS(posenc::models::parse_hf_config("[", "c.json"), posenc::Error);
}

TEST_CASE("an .npy shape whose byte size overflows is refused before allocating", "[hostile]") {
  std::string header = "{'descr': '<f8', 'fortran_order': False, 'shape': (4611686018427387904, 4611686018427387904), }";
  header.append(64 - (10 + header.size() + 1) % 64, ' ');
  header += '\n';
  std::string bytes = std::string("\x93NUMPY\x01\x00", 8);
  bytes += static_cast<char>(header.size() & 0xff);
  bytes += static_cast<char>(header.size() >> 8);
  bytes += header;
  CHECK_THROWS_WITH(posenc::formats::parse_npy(bytes, "x.npy"), Contains("--input 'x.npy': truncated data"));
}

TEST_CASE("CSV: a BOM is skipped, a bad cell after it is named by line and column", "[hostile]") {
  CHECK(posenc::formats::parse_csv("\xEF\xBB\xBF" "1,2\n3,4\n", "a.csv").rows() == 2);
  CHECK_THROWS_WITH(posenc::formats::parse_csv("\xEF\xBB\xBF" "x,y\n1,oops\n", "a.csv"),
                    "--input 'a.csv': line 2, column 2: 'oops' is not a number");
  CHECK_THROWS_WITH(posenc::formats::parse_csv("", "a.csv"), "--input 'a.csv': empty file");
}
