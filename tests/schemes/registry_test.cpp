#include "posenc/schemes/registry.hpp"

#include <catch2/catch.hpp>
#include <algorithm>
#include <cmath>

#include "../encodings/error_of.hpp"

using posenc::schemes::schemes;

TEST_CASE("absolute schemes are registered in order", "[registry]") {
  const std::vector<std::string> expected = {"integer", "normalized", "binary", "sine",
                                             "sinusoidal", "learned", "recurrent"};
  REQUIRE(schemes().size() >= expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) CHECK(schemes()[i].name == expected[i]);
}

TEST_CASE("every scheme builds with its defaults and gives finite values", "[registry]") {
  for (const auto& s : schemes()) {
    INFO(s.name);
    for (const auto& p : s.params)
      if (!p.choices.empty())
        CHECK(std::find(p.choices.begin(), p.choices.end(), std::get<std::string>(p.default_value)) != p.choices.end());
    const auto t = posenc::schemes::make_table(s.name, posenc::ParamMap{});
    CHECK(t->info().scheme == s.name);
    // Every parameter that applies is echoed, in order (sinusoidal drops fairseq's padding-idx
    // for paper, alibi MPT's bias-max for the other variants); alibi then adds its derived "slopes" (issue 4).
    const auto& echoed = t->info().params;
    std::vector<std::string> declared;
    for (const auto& p : s.params) {
      if (s.name == "sinusoidal" && p.name == "padding-idx") continue;
      if (s.name == "alibi" && p.name == "bias-max") continue;  // echoed only for --variant mpt
      declared.push_back(p.name);
    }
    if (s.name == "alibi") declared.push_back("slopes");
    if (s.name == "rope") {
      // rope echoes the settings in effect (docs/formats.md): with its defaults, these.
      declared = {"len",      "dim",        "base",      "layout",    "table", "rotary-dim",
                  "scaling",  "convention", "precision", "apply-attention-factor"};
    }
    REQUIRE(echoed.size() == declared.size());
    for (std::size_t i = 0; i < declared.size(); ++i) CHECK(echoed[i].first == declared[i]);
    REQUIRE(t->rows() > 0);
    if (!t->info().column_names.empty()) CHECK(t->info().column_names.size() == t->cols());
    const auto m = t->to_matrix();
    CHECK(std::all_of(m.data().begin(), m.data().end(), [](double v) { return std::isfinite(v); }));
  }
}
