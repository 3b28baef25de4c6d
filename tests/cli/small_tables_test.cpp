// Tables too small for what was asked: said, not silently accepted.
#include <catch2/catch.hpp>

#include "cli_helpers.hpp"

TEST_CASE("check of one position is refused: identities compare positions", "[cli][small]") {
  for (const char* scheme : {"integer", "sinusoidal", "rope", "alibi"}) {
    INFO(scheme);
    const auto r = run_cli({"check", scheme, "--len", "1"});
    CHECK(r.code == 2);
    CHECK(r.out.empty());
    CHECK(r.err == "posenc: error: check needs at least 2 positions: the identities compare positions (got 1; give "
                   "--len 2 or more)\n");
  }
  // 'bounded' looks at values, not pairs: it still runs on one position
  CHECK(run_cli({"check", "integer", "--len", "1", "--identity", "bounded"}).code == 0);
  CHECK(run_cli({"check", "sinusoidal", "--len", "2", "--dim", "4"}).code == 0);
}

TEST_CASE("project: PCA components past the data's rank are zero, and a note says so", "[cli][small]") {
  const auto r = run_cli({"project", "integer", "--len", "5", "--dim", "1", "--pca", "2"});
  CHECK(r.code == 0);
  CHECK(r.err == "posenc: note: the positions vary along 1 direction only (1 column): pc2 is zero\n");
  // integer positions centred: -2..2 along pc1, 0 along pc2
  CHECK(r.out == "position,pc1,pc2\n0,-2,0\n1,-1,0\n2,0,0\n3,1,0\n4,2,0\n");
  // full-rank data: no note
  const auto full = run_cli({"project", "sinusoidal", "--len", "50", "--dim", "8", "--pca", "3"});
  CHECK(full.code == 0);
  CHECK(full.err.empty());
}
