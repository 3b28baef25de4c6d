#include "posenc/analysis/decay_sources.hpp"

#include <catch2/catch.hpp>

#include "encodings/error_of.hpp"

using Catch::Matchers::Contains;
using posenc::analysis::make_variants;
using posenc::analysis::parse_scheme_words;
using posenc::analysis::split_words;

TEST_CASE("split_words splits as a POSIX shell: blanks, quotes, backslashes", "[decay_sources]") {
  using V = std::vector<std::string>;
  CHECK(split_words("learned  --dim 128") == V{"learned", "--dim", "128"});
  CHECK(split_words("--input 'my table.npy'") == V{"--input", "my table.npy"});
  CHECK(split_words(R"(--input "a \"b\" \\c")") == V{"--input", R"(a "b" \c)"});
  CHECK(split_words(R"(--input my\ file.npy)") == V{"--input", "my file.npy"});
  CHECK(split_words("x'y'z") == V{"xyz"});
  CHECK(split_words("").empty());
  CHECK_THAT(posenc_test::error_of([] { split_words("'open"); }), Contains("unterminated ' quote"));
}

TEST_CASE("parse_scheme_words reads SCHEME --NAME VALUE as the flags read them", "[decay_sources]") {
  const auto w = parse_scheme_words("rope --dim=64 --base 500 --scaling yarn");
  CHECK(w.scheme == "rope");
  CHECK(w.input.empty());
  CHECK(w.values.integer("dim") == 64);
  CHECK(w.values.number("base") == 500.0);
  CHECK(w.values.text("scaling") == "yarn");
  CHECK(w.values.given("dim"));
  CHECK_FALSE(w.values.given("len"));  // the others keep the scheme's defaults
  CHECK(parse_scheme_words("--input t.npy").input == "t.npy");
  CHECK(parse_scheme_words("--input=t.npy").scheme.empty());
  using posenc_test::error_of;
  CHECK_THAT(error_of([] { parse_scheme_words("learned --dm 8"); }),
             Contains("compare='learned --dm 8': 'dm' is not a parameter of learned, did you mean 'dim'?; choose one of: "));
  CHECK_THAT(error_of([] { parse_scheme_words("rope --dim 63.5"); }), Contains("--dim: '63.5' is not an integer"));
  CHECK_THAT(error_of([] { parse_scheme_words("rope --dim"); }), Contains("--dim needs a value"));
  CHECK_THAT(error_of([] { parse_scheme_words("rope --input t.npy"); }), Contains("give a SCHEME or --input FILE, not both"));
  CHECK_THAT(error_of([] { parse_scheme_words(""); }), Contains("give a SCHEME or --input FILE"));
  CHECK_THAT(error_of([] { parse_scheme_words("ropee"); }), Contains("compare='ropee': unknown scheme 'ropee'"));
}

TEST_CASE("make_variants: one setting per --vary value, each checked", "[decay_sources]") {
  posenc::ParamMap base;
  base.set("base", 10000.0, false);
  const auto v = make_variants("sinusoidal", base, "base=100,1e3");
  REQUIRE(v.size() == 2);
  CHECK(v[0].label == "base=100");
  CHECK(v[1].params.number("base") == 1000.0);
  CHECK(make_variants("sinusoidal", base, "").size() == 1);
  CHECK_THAT(posenc_test::error_of([&] { make_variants("sinusoidal", base, "base=0.5"); }),
             Contains("--vary base: 0.5 is outside [1,"));
}
