// Output bytes do not depend on --threads; the float32 fast paths stay within 1e-6 of the
// double formula; float32 CSV prints the .npy's floats.
#include <catch2/catch.hpp>
#include <cmath>
#include <algorithm>
#include <charconv>
#include <cstring>
#include <sstream>
#include <string_view>

#include "cli_helpers.hpp"
#include "posenc/schemes/registry.hpp"

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
      const auto t = posenc::schemes::make_table(scheme, p);
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

TEST_CASE("float32 csv prints the .npy's floats as shortest text, within 1.6e-7 of the formula", "[cli][threads]") {
  // Positions 0..299 and 131000..131071 (fairseq's offset is not used: the paper's table).
  const std::size_t d = 64;
  for (const std::size_t len : {300u, 131072u}) {
    const std::vector<std::string> common = {"generate", "sinusoidal", "--len", std::to_string(len), "--dim", "64"};
    auto csv_args = common, npy_args = common;
    csv_args.insert(csv_args.end(), {"--format", "csv"});
    npy_args.insert(npy_args.end(), {"--format", "npy", "-o", "-"});
    const auto csv = run_cli(csv_args);
    const auto npy = run_cli(npy_args);
    REQUIRE(csv.code == 0);
    REQUIRE(npy.code == 0);
    REQUIRE(npy.out.size() == 128 + len * d * 4);  // 128-byte header for this shape, then <f4 values
    std::istringstream lines(csv.out);
    std::string line;
    std::getline(lines, line);
    CHECK(line.rfind("position,sin0,cos0,sin1,cos1,", 0) == 0);
    double worst = 0.0;
    std::size_t checked = 0, not_shortest = 0, not_npy = 0;
    for (std::size_t row = 0; std::getline(lines, line); ++row) {
      if (len > 300 && row < 131000) continue;
      std::istringstream cells(line);
      std::string cell;
      std::getline(cells, cell, ',');
      REQUIRE(cell == std::to_string(row));
      for (std::size_t col = 0; std::getline(cells, cell, ','); ++col) {
        float f = 0;
        REQUIRE(std::from_chars(cell.data(), cell.data() + cell.size(), f).ec == std::errc());
        float from_npy = 0;
        std::memcpy(&from_npy, npy.out.data() + 128 + (row * d + col) * 4, 4);
        not_npy += f == from_npy ? 0 : 1;
        // Shortest: as many significant digits as std::to_chars's shortest form of f.
        char shortest[32];
        const auto end = std::to_chars(shortest, shortest + 32, f).ptr;
        const auto digits = [](std::string_view s) {
          s = s.substr(0, s.find('e'));
          const auto first = s.find_first_of("123456789");
          const auto last = s.find_last_of("123456789");
          return first == std::string_view::npos ? 0 : std::count_if(s.begin() + static_cast<std::ptrdiff_t>(first), s.begin() + static_cast<std::ptrdiff_t>(last) + 1, [](char ch) { return ch != '.'; });
        };
        not_shortest += digits(cell) == digits(std::string_view(shortest, static_cast<std::size_t>(end - shortest))) ? 0 : 1;
        // The formula: w_k = 10000^(−2k/d), sin at column 2k, cos at 2k + 1.
        const double w = std::pow(10000.0, -2.0 * static_cast<double>(col / 2) / static_cast<double>(d));
        const double exact = col % 2 == 0 ? std::sin(w * static_cast<double>(row)) : std::cos(w * static_cast<double>(row));
        worst = std::max(worst, std::abs(static_cast<double>(f) - exact));
        ++checked;
      }
    }
    INFO("len " << len);
    CHECK(checked == (len > 300 ? 72u : 300u) * d);
    CHECK(not_npy == 0);
    CHECK(not_shortest == 0);
    CHECK(worst <= 1.6e-7);
  }
  // Exact values print exactly (sin 0 = 0, cos 0 = 1).
  CHECK(run_cli({"generate", "sinusoidal", "--len", "1", "--dim", "4", "--format", "csv"}).out ==
        "position,sin0,cos0,sin1,cos1\n0,0,1,0,1\n");
}
