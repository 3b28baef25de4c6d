// The memory guard counts what an analysis holds at once, not only its largest matrix, and
// sizes are validated before anything is computed.
#include <catch2/catch.hpp>

#include "cli_helpers.hpp"

TEST_CASE("project counts the PCA's working copies", "[cli][memory]") {
  // 10000 x 1024 doubles = 78.1 MiB: the table alone fits under 79M, the PCA's centred copy
  // and 1024 x 1024 covariance (x2) do not: 2*10000*1024 + 2*1024^2 + 3*10000 doubles = 172 MiB.
  const auto r = run_cli({"--max-memory", "79M", "project", "learned", "--len", "10000", "--max-len", "10000", "--dim",
                          "1024", "--pca", "3", "-o", "unused.csv"});
  CHECK(r.code == 2);
  CHECK(one_line(r.err));
  CHECK_THAT(r.err, Catch::StartsWith("posenc: error: project (PCA) of a 10000 x 1024 table needs 172 MiB in memory, "
                                      "more than the limit of 79 MiB (--max-memory)"));
}

TEST_CASE("check counts the least-squares copies of shift-linear", "[cli][memory]") {
  // learned has no known frequencies: the table and five more of its size (X, Y, transposes, reflectors)
  const auto r = run_cli({"--max-memory", "79M", "check", "learned", "--len", "10000", "--max-len", "10000", "--dim", "1024"});
  CHECK(r.code == 2);
  CHECK_THAT(r.err, Catch::StartsWith("posenc: error: check of a 10000 x 1024 table needs 469 MiB in memory"));
  // Without shift-linear only the table counts (78.1 MiB), and it runs.
  const auto ok = run_cli({"--max-memory", "1M", "check", "learned", "--len", "64", "--max-len", "64", "--dim", "8",
                           "--identity", "bounded", "--bound", "1"});
  CHECK(ok.code == 0);
}

TEST_CASE("decay validates its offsets first and reads only the rows it needs", "[cli][memory]") {
  // Used to build the whole 1000000 x 512 table (4 GB, 16 s) and fail afterwards.
  const auto r = run_cli({"decay", "learned", "--len", "1000000", "--max-len", "1000000", "--dim", "512", "--max-offset",
                          "16777216"});
  CHECK(r.code == 2);
  CHECK(r.err ==
        "posenc: error: --len 1000000 is too short for --from 0 and --max-offset 16777216: position 16777216 needs "
        "--len 16777217 or more (or leave --len out)\n");
  // 101 rows of a 100000 x 1024 table: well under 10 MiB, although the table is 781 MiB.
  const auto ok = run_cli({"--max-memory", "10M", "decay", "learned", "--len", "100000", "--max-len", "100000", "--dim",
                           "1024", "--max-offset", "100", "--from", "50"});
  CHECK(ok.code == 0);
  CHECK(std::count(ok.out.begin(), ok.out.end(), '\n') == 102);  // header + offsets 0..100
}
