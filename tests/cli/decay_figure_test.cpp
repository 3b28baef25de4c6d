// Issue 15 item 22: `decay rope --dim 128 --max-offset 1000000` drew RoFormer's bound under
// the q=k=ones band (hidden), cut its subtitle with "…" and labelled the x axis "900000"
// beside "1.0e6". Checked on the SVG, whose <polyline> and <text> elements say what was drawn.
#include <catch2/catch.hpp>

#include <algorithm>

#include "cli_helpers.hpp"

namespace {

// The text of every <text> element, in document order (string search: std::regex recurses
// per character and overflows the stack on the SVG's long point lists).
std::vector<std::string> texts(const std::string& svg) {
  std::vector<std::string> out;
  for (std::size_t at = svg.find("<text"); at != std::string::npos; at = svg.find("<text", at + 1)) {
    const std::size_t open = svg.find('>', at), close = svg.find("</text>", at);
    if (open == std::string::npos || close == std::string::npos || open > close) continue;
    out.push_back(svg.substr(open + 1, close - open - 1));
  }
  return out;
}

// Position in the document of the first polyline in colour `stroke` with more than `min_points` points.
std::size_t curve_at(const std::string& svg, const std::string& stroke, std::size_t min_points) {
  for (std::size_t at = svg.find("<polyline points=\""); at != std::string::npos; at = svg.find("<polyline points=\"", at + 1)) {
    const std::size_t begin = at + 18, end = svg.find('"', begin), tag_end = svg.find('>', end);
    if (end == std::string::npos || tag_end == std::string::npos) break;
    const std::string pts = svg.substr(begin, end - begin), rest = svg.substr(end, tag_end - end);
    if (rest.find("stroke=\"" + stroke + "\"") == std::string::npos) continue;
    if (static_cast<std::size_t>(std::count(pts.begin(), pts.end(), ' ')) + 1 > min_points) return at;
  }
  return std::string::npos;
}

}  // namespace

TEST_CASE("decay rope over a million offsets keeps the bound visible, the subtitle whole, one tick form",
          "[cli][figure][decay]") {
  const auto r = run_cli({"decay", "rope", "--dim", "128", "--max-offset", "1000000", "--format", "svg"});
  REQUIRE(r.code == 0);
  // Tableau 10: series 0 (roformer bound) blue, series 1 (q=k=ones) orange; the legend keeps
  // that order. Both are drawn; the bound on |q.k| (issue 26 item 9) lies above the band
  // (4160 against 128 at delta = 0), so neither hides the other whatever the order.
  const std::size_t bound = curve_at(r.out, "#1f77b4", 100), ones = curve_at(r.out, "#ff7f0e", 100);
  REQUIRE(bound != std::string::npos);
  REQUIRE(ones != std::string::npos);
  const auto t = texts(r.out);
  CHECK(std::find(t.begin(), t.end(), "roformer bound on |q.k|") < std::find(t.begin(), t.end(), "q=k=ones"));

  // The subtitle: wrapped onto lines, which joined with spaces give it whole, no "…".
  const std::string subtitle =
      "closed form: &lt;R_T q, R_T+delta k&gt; = Re sum q k* e^(-i delta theta), RoFormer bound on |q.k| = "
      "max|h_(i+1)-h_i| sum |S_j|, theta in float64; query position T = 0";
  const auto first = std::find_if(t.begin(), t.end(), [](const std::string& s) { return s.starts_with("closed form:"); });
  REQUIRE(first != t.end());
  std::string joined;
  for (auto it = first; it != t.end(); ++it) joined += (joined.empty() ? "" : " ") + *it;
  CHECK(joined == subtitle);
  for (const auto& s : t) CHECK(s.find("\u2026") == std::string::npos);

  // x ticks 0, 1e5, ..., 1e6: every label in one form.
  const auto x0 = std::find(t.begin(), t.end(), "0");
  REQUIRE(x0 != t.end());
  CHECK(std::vector<std::string>(x0, x0 + 11) ==
        std::vector<std::string>{"0", "1e5", "2e5", "3e5", "4e5", "5e5", "6e5", "7e5", "8e5", "9e5", "1e6"});
}

// Issue 26 item 9: sinusoidal's PE_T·PE_T+delta (64 at delta = 0 for dim 128) and rope's q = k = ones
// score (128) are the same sum of cosines on different norms; the figure divides each by its value
// at delta = 0 and says so in the legend and the y label.
TEST_CASE("decay --compare figure: each scheme's dot divided by its value at delta 0, said in the legend",
          "[cli][figure][decay]") {
  const auto r = run_cli({"decay", "sinusoidal", "--dim", "128", "--max-offset", "50", "--compare", "rope --dim 128",
                          "--format", "svg"});
  REQUIRE(r.code == 0);
  const auto t = texts(r.out);
  CHECK(std::find(t.begin(), t.end(), "sinusoidal (/64)") != t.end());
  CHECK(std::find(t.begin(), t.end(), "rope --dim 128: q=k=ones (/128)") != t.end());
  CHECK(std::find(t.begin(), t.end(), "rope --dim 128: roformer bound on |q.k| (/128)") != t.end());
  CHECK(std::find_if(t.begin(), t.end(), [](const std::string& s) { return s.find("its value at Δ = 0") != std::string::npos; }) != t.end());
}
