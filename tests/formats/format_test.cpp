#include "posenc/formats/format.hpp"

#include <catch2/catch.hpp>

#include "posenc/error.hpp"

using posenc::formats::Format;

namespace {
const std::vector<Format> kTables = {Format::kCsv, Format::kJson, Format::kNpy, Format::kPng};

std::string message(const std::optional<std::string>& flag, const std::string& path,
                    const std::vector<Format>& allowed = kTables) {
  try {
    posenc::formats::resolve_format(flag, path, allowed);
  } catch (const posenc::Error& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST_CASE("every format has a unique name and extension", "[format]") {
  const auto& all = posenc::formats::formats();
  REQUIRE(all.size() == 7);
  CHECK(posenc::formats::info(Format::kNpy).extension == ".npy");
  CHECK(posenc::formats::info(Format::kSvg).extension == ".svg");
  CHECK(posenc::formats::info(Format::kAnsi).extension.empty());  // a preview: --format ansi only
  CHECK(!posenc::formats::info(Format::kSvg).binary);
  CHECK(posenc::formats::info(Format::kText).extension == ".txt");
  CHECK(posenc::formats::info(Format::kPng).binary);
  CHECK(!posenc::formats::info(Format::kCsv).binary);
  CHECK(posenc::formats::format_names({Format::kCsv, Format::kPng}) == std::vector<std::string>{"csv", "png"});
}

TEST_CASE("the flag decides for stdout, .txt and unknown extensions", "[format]") {
  CHECK(posenc::formats::resolve_format(std::string("NPY"), "-", kTables) == Format::kNpy);
  CHECK(posenc::formats::resolve_format(std::string("csv"), "out.txt", kTables) == Format::kCsv);
  CHECK(posenc::formats::resolve_format(std::string("json"), "out.dat", kTables) == Format::kJson);
  CHECK(posenc::formats::resolve_format(std::string("npy"), "no_extension", kTables) == Format::kNpy);
  CHECK(posenc::formats::resolve_format(std::string("csv"), "out.CSV", kTables) == Format::kCsv);
}

TEST_CASE("a flag contradicting a known extension is refused", "[format]") {
  CHECK(message(std::string("csv"), "keep.npy") ==
        "--format csv contradicts -o 'keep.npy' (.npy is the extension of npy): drop --format or rename the file");
  const std::vector<Format> all = {Format::kCsv, Format::kJson, Format::kNpy, Format::kPng, Format::kSvg, Format::kAnsi};
  for (const auto& [flag, path] : std::vector<std::pair<std::string, std::string>>{
           {"png", "a.csv"}, {"npy", "a.json"}, {"svg", "a.npy"}, {"json", "a.npy"}, {"ansi", "a.png"}, {"csv", "a.SVG"}}) {
    INFO(flag << " " << path);
    CHECK_THAT(message(flag, path, all), Catch::StartsWith("--format " + flag + " contradicts -o '" + path + "'"));
  }
}

TEST_CASE("stdout without a flag is text for reports, else csv", "[format]") {
  CHECK(posenc::formats::resolve_format(std::nullopt, "-", kTables) == Format::kCsv);
  CHECK(posenc::formats::resolve_format(std::nullopt, "", kTables) == Format::kCsv);
  CHECK(posenc::formats::resolve_format(std::nullopt, "-", {Format::kJson, Format::kCsv}) == Format::kCsv);
  CHECK(posenc::formats::resolve_format(std::nullopt, "-", {Format::kCsv, Format::kText}) == Format::kText);
}

TEST_CASE("the extension decides without a flag", "[format]") {
  CHECK(posenc::formats::resolve_format(std::nullopt, "dir.v2/out.CSV", kTables) == Format::kCsv);
  CHECK(posenc::formats::resolve_format(std::nullopt, "pe.png", kTables) == Format::kPng);
  CHECK(posenc::formats::resolve_format(std::nullopt, "pe.npy", kTables) == Format::kNpy);
}

TEST_CASE("format errors list only the allowed choices", "[format]") {
  CHECK(message(std::nullopt, "-", {Format::kPng, Format::kSvg}) ==
        "-o -: cannot tell the output format of stdout: give --format png or svg");
  CHECK(message(std::string("jsn"), "x") == "--format must be csv, json, npy or png (got 'jsn'), did you mean 'json'?");
  CHECK(message(std::nullopt, "out.xlsx") ==
        "-o 'out.xlsx': cannot tell the output format from the extension: use .csv, .json, .npy or .png "
        "or give --format csv, json, npy or png");
  CHECK(message(std::nullopt, "out.txt") ==
        "-o 'out.txt': this command cannot write text: give --format csv, json, npy or png or another extension");
  CHECK(message(std::string("text"), "x") == "--format must be csv, json, npy or png (got 'text')");
  // ansi has no extension: it is not listed among them.
  CHECK(message(std::nullopt, "out.xlsx", {Format::kPng, Format::kSvg, Format::kAnsi}) ==
        "-o 'out.xlsx': cannot tell the output format from the extension: use .png or .svg "
        "or give --format png, svg or ansi");
}

TEST_CASE("dtype names", "[format]") {
  CHECK(posenc::formats::parse_dtype("float32") == posenc::formats::DType::kFloat32);
  CHECK(posenc::formats::parse_dtype("float64") == posenc::formats::DType::kFloat64);
  CHECK(posenc::formats::dtype_name(posenc::formats::DType::kFloat32) == "float32");
  CHECK_THROWS_WITH(posenc::formats::parse_dtype("f16"), "--dtype must be float32 or float64 (got 'f16')");
}
