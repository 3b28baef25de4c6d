// Numeric edges (issue 7): positions near 2^31, dimension 65536, factors just above 1, huge
// bases. The last rows of the lazy tables must be finite; where the maths gives -inf (causal
// ALiBi) the command says so on stderr.
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "cli_helpers.hpp"
#include "posenc/schemes/registry.hpp"
#include "posenc/error.hpp"
#include "posenc/memory.hpp"

namespace {

/// The last row of `scheme` with the given parameters, computed without building the table.
std::vector<double> last_row(const std::string& scheme, const std::vector<std::pair<std::string, posenc::ParamValue>>& set) {
  posenc::ParamMap p;
  for (const auto& [k, v] : set) p.set(k, v);
  const auto t = posenc::schemes::make_table(scheme, p);
  std::vector<double> row(t->cols());
  t->fill(t->rows() - 1, 1, row);
  return row;
}

bool all_finite(const std::vector<double>& v) {
  for (double x : v)
    if (!std::isfinite(x)) return false;
  return true;
}

constexpr std::int64_t kLen = std::int64_t{1} << 31;

}  // namespace

TEST_CASE("position 2^31 - 1 at dimension 65536 is finite in every vector scheme", "[edges]") {
  for (const char* s : {"integer", "normalized", "binary", "sine", "sinusoidal"}) {
    INFO(s);
    const auto row = last_row(s, {{"len", kLen}, {"dim", std::int64_t{65536}}});
    CHECK(row.size() == 65536);
    CHECK(all_finite(row));
  }
  CHECK(last_row("integer", {{"len", kLen}, {"dim", std::int64_t{1}}})[0] == 2147483647.0);
  CHECK(last_row("normalized", {{"len", kLen}, {"dim", std::int64_t{1}}})[0] == 1.0);
}

TEST_CASE("rope at position 2^31 - 1: every method, factors just above 1, huge bases", "[edges]") {
  using V = std::vector<std::pair<std::string, posenc::ParamValue>>;
  const V base = {{"len", kLen}, {"dim", std::int64_t{65536}}, {"table", std::string("angle")}};
  for (const char* scaling : {"none", "linear", "ntk", "dynamic", "yarn", "llama3"}) {
    for (const double factor : {1.0 + 1e-12, 1.0000001, 4.0, 1e6}) {
      for (const double theta : {1.0 + 1e-9, 10000.0, 1e300}) {
        INFO(scaling << " factor " << factor << " base " << theta);
        V p = base;
        p.emplace_back("scaling", std::string(scaling));
        if (std::string(scaling) != "none") p.emplace_back("factor", factor);
        p.emplace_back("base", theta);
        p.emplace_back("original-max-position-embeddings", std::int64_t{4096});
        p.emplace_back("max-position-embeddings", std::int64_t{4096});
        p.emplace_back("seq-len", kLen);
        for (const char* table : {"angle", "cos"}) {
          p[2].second = std::string(table);
          CHECK(all_finite(last_row("rope", p)));
        }
      }
    }
  }
}

TEST_CASE("t5 and alibi at the largest distances stay finite", "[edges]") {
  CHECK(all_finite(last_row("t5", {{"len", kLen}, {"key-len", std::int64_t{4}}, {"max-distance", kLen}})));
  CHECK(all_finite(last_row("alibi", {{"len", std::int64_t{1} << 20}, {"heads", std::int64_t{65536}}, {"head", std::int64_t{65535}}})));
}

TEST_CASE("a table past the memory limit is refused with its size, not allocated", "[edges]") {
  const auto r = run_cli({"similarity", "integer", "--len", "2000000000", "--dim", "4", "--format", "npy"});
  CHECK(r.code == 2);
  CHECK(one_line(r.err));
  CHECK_THAT(r.err, Catch::Contains("--max-memory"));
  CHECK(r.out.empty());
  const auto small = run_cli({"--max-memory", "1K", "project", "sinusoidal", "--len", "100", "--dim", "64", "--format", "csv"});
  CHECK(small.code == 2);
  // the table, its centred copy, a 64 x 64 covariance twice: (2*100*64 + 2*64*64 + 3*100) * 8 bytes = 166 KiB
  CHECK_THAT(small.err, Catch::Contains("project (PCA) of a 100 x 64 table needs 166 KiB in memory, more than the limit of 1 KiB (--max-memory)"));
  CHECK(run_cli({"--max-memory", "1G", "project", "sinusoidal", "--len", "100", "--dim", "64", "--format", "csv"}).code == 0);
}

TEST_CASE("the memory limit parses sizes and defaults to half the available memory", "[edges]") {
  CHECK(posenc::parse_bytes("1K") == 1024);
  CHECK(posenc::parse_bytes("1.5GiB") == 1610612736);
  CHECK(posenc::parse_bytes("100") == 100);
  CHECK_THROWS_AS(posenc::parse_bytes("0"), posenc::Error);
  CHECK_THROWS_AS(posenc::parse_bytes("12X"), posenc::Error);
  CHECK_THROWS_AS(posenc::parse_bytes("nan"), posenc::Error);
  posenc::set_memory_limit(0);
  CHECK(posenc::memory_limit() > 0);
  CHECK(posenc::format_bytes(1536) == "1.5 KiB");
}

TEST_CASE("causal alibi's -inf is announced on stderr", "[edges]") {
  const auto r = run_cli({"generate", "alibi", "--form", "causal", "--len", "4", "--heads", "2", "--format", "csv"});
  CHECK(r.code == 0);
  CHECK(r.err == "posenc: warning: the output holds infinite values (causal alibi masks future keys with -inf)\n");
  CHECK(run_cli({"generate", "alibi", "--len", "4", "--heads", "2", "--format", "csv"}).err.empty());
}
