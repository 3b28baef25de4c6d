// Output bytes do not depend on --threads; the float32 fast paths stay within 1e-6 of the
// double formula; CSV text is what it was before the fast paths (README's example).
#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>

#include "cli_helpers.hpp"
#include "posenc/encodings/registry.hpp"

namespace {

std::string output(std::vector<std::string> args, const std::string& threads) {
  args.insert(args.end(), {"--threads", threads});
  const auto r = run_cli(args);
  REQUIRE(r.code == 0);
  return r.out;
}

}  // namespace

TEST_CASE("output bytes are identical with --threads 1, 2 and 4", "[cli][threads]") {
  // 10000 rows of 64 columns: several blocks of 2048 rows.
  const std::vector<std::vector<std::string>> cases = {
      {"generate", "sinusoidal", "--len", "10000", "--dim", "64", "--format", "npy", "-o", "-"},
      {"generate", "sinusoidal", "--len", "10000", "--dim", "64", "--format", "csv", "-o", "-"},
      {"generate", "sinusoidal", "--len", "5000", "--dim", "64", "--format", "json", "-o", "-", "--dtype", "float64"},
      {"generate", "rope", "--len", "10000", "--dim", "64", "--table", "sin", "--format", "npy", "-o", "-"},
      {"generate", "sinusoidal", "--len", "3000", "--dim", "700", "--format", "png", "-o", "-"},
      {"similarity", "sinusoidal", "--len", "3000", "--dim", "64", "--format", "npy", "-o", "-"},
      {"decay", "sinusoidal", "--dim", "256", "--max-offset", "5000", "--format", "csv", "-o", "-"},
  };
  for (const auto& args : cases) {
    INFO(args[0] << " " << args[1] << " " << args[args.size() - 3]);
    const std::string one = output(args, "1");
    CHECK(one.size() > 1000);
    CHECK(output(args, "2") == one);
    CHECK(output(args, "4") == one);
  }
}

TEST_CASE("float32 tables stay within 1e-6 of the double formula at large positions", "[cli][threads]") {
  for (const std::string scheme : {"sinusoidal", "rope"}) {
    for (const std::string table : {"cos", "sin"}) {
      if (scheme == "sinusoidal" && table == "sin") continue;
      posenc::ParamMap p;
      p.set("len", std::int64_t{131072});
      p.set("dim", std::int64_t{4096});
      if (scheme == "rope") p.set("table", table);
      const auto t = posenc::encodings::make_table(scheme, p);
      const std::size_t first = 131072 - 40, n = 40, cols = 4096;
      std::vector<double> exact(n * cols);
      std::vector<float> fast(n * cols);
      t->fill(first, n, exact);
      t->fill_f32(first, n, fast);
      double worst = 0.0;
      for (std::size_t i = 0; i < exact.size(); ++i) worst = std::max(worst, std::abs(exact[i] - fast[i]));
      INFO(scheme << " " << table);
      CHECK(worst <= 1e-6);
    }
  }
}

TEST_CASE("csv text is unchanged by the fast paths", "[cli][threads]") {
  // README's example, recorded before the float32 fast path and the threads existed.
  const auto r = run_cli({"generate", "sinusoidal", "--len", "4", "--dim", "4", "--format", "csv"});
  CHECK(r.out ==
        "position,sin0,cos0,sin1,cos1\n"
        "0,0,1,0,1\n"
        "1,0.84147096,0.5403023,0.009999833,0.99995\n"
        "2,0.9092974,-0.41614684,0.019998666,0.9998\n"
        "3,0.14112,-0.9899925,0.029995501,0.99955004\n");
}
