#include "posenc/formats/json_text.hpp"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

using posenc::formats::nonfinite_literal;
using posenc::formats::original_offset;
using posenc::formats::python_json_literals;

namespace {
const std::string kMark = "\xEE\x80\x80";  // U+E000
}

TEST_CASE("Python's NaN and Infinity become strings a reader can name", "[json_text]") {
  // Nemotron-H's config.json: "time_step_limit": [0.0, Infinity] (Python's json.dumps writes it so)
  CHECK(python_json_literals(R"({"t": [0.0, Infinity]})") == "{\"t\": [0.0, \"" + kMark + "Infinity\"]}");
  CHECK(python_json_literals(R"({"a": NaN, "b": -Infinity})") ==
        "{\"a\": \"" + kMark + "NaN\", \"b\": \"" + kMark + "-Infinity\"}");
  // inside strings, as part of a longer word, or not in a value position: unchanged
  for (const char* same : {R"({"x": "NaN"})", R"({"x": "a \" NaN"})", R"({"x": NaNa})", R"({NaN: 1})",
                           R"({"x": Infinityx})", R"({"x": 1.5e3})"})
    CHECK(python_json_literals(same) == same);
  CHECK(nonfinite_literal(kMark + "NaN") == "NaN");
  CHECK(nonfinite_literal(kMark + "-Infinity") == "-Infinity");
  CHECK(nonfinite_literal("NaN").empty());
  CHECK(nonfinite_literal(kMark + "nan").empty());
}

TEST_CASE("offsets in the replaced text map back to the original", "[json_text]") {
  std::vector<std::size_t> at;
  const std::string in = R"({"a": NaN, "b": [Infinity, 1], "c": x})";
  const std::string out = python_json_literals(in, &at);
  REQUIRE(at == std::vector<std::size_t>{6, 17});  // by hand: NaN at 6, Infinity at 17
  // "x" is at 36 in the original; two replacements of +5 bytes each put it at 46
  REQUIRE(out.find(": x") + 2 == 46);
  CHECK(original_offset(46, at) == 36);
  CHECK(original_offset(3, at) == 3);  // before any replacement
}
