// Issue 15 item 23: CLI11's and nlohmann_json's own wordings reached the user ("--len: At Most
// 1 required but received 2", "The following arguments were not expected: 2 --dim 3 --len
// sinusoidal" in reverse order, "[json.exception.parse_error.101]", a raw 0xff byte). Each
// kind of parse error CLI11 raises is triggered here and its whole stderr line checked.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "cli_helpers.hpp"

namespace {

struct Case {
  std::vector<std::string> args;
  std::string err;  // the whole stderr, one line
};

void check(const Case& c) {
  std::string cmd;
  for (const auto& a : c.args) cmd += " " + a;
  INFO("posenc" << cmd);
  const auto r = run_cli(c.args);
  CHECK(r.code == 2);
  CHECK(r.out.empty());
  CHECK(r.err == "posenc: error: " + c.err + "\n");
}

}  // namespace

TEST_CASE("every kind of CLI11 parse error reads as one posenc line", "[cli][errors]") {
  const std::vector<Case> cases = {
      // ExtrasError: the words in the order given, for the command that refused them.
      {{"list", "sinusoidal", "--len", "3", "--dim", "2"},
       "unexpected arguments 'sinusoidal' '--len' '3' '--dim' '2' for 'posenc list'; see 'posenc list --help'"},
      // ExtrasError, a word where a command was expected.
      {{"rope", "frobnicate"},
       "unknown command 'frobnicate' for 'posenc rope'; choose one of: diff, permutation or engines; see 'posenc rope --help'"},
      {{"rope", "dif"},
       "unknown command 'dif' for 'posenc rope', did you mean 'diff'?; choose one of: diff, permutation or engines; see 'posenc "
       "rope --help'"},
      // ExtrasError, a misspelt option.
      {{"rope", "--bse", "5"}, "unexpected arguments '--bse' '5' for 'posenc rope', did you mean '--base'?; see 'posenc rope --help'"},
      // A scheme's unknown option (reported by posenc, with the same suggestion).
      {{"generate", "sinusoidal", "--le", "3"},
       "unexpected argument '--le' for scheme sinusoidal, did you mean '--len'?; see 'posenc generate sinusoidal --help'"},
      {{"generate", "--causal"},
       "unexpected argument '--causal' (--causal is an option of t5: name the scheme first, e.g. 'posenc generate t5 "
       "--causal'); see 'posenc generate SCHEME --help'"},
      // ArgumentMismatch: given twice, no value, a flag with a value, too few values.
      {{"generate", "sinusoidal", "--len", "2", "--len", "3"}, "--len was given more than once (got '2' and '3'); give it once"},
      {{"generate", "sinusoidal", "--len", "2", "--len", "3", "--len", "4"},
       "--len was given more than once (got '2', '3' and '4'); give it once"},
      {{"generate", "sinusoidal", "--len"}, "--len needs a value"},
      // ConversionError: a flag given a value it cannot read.
      {{"decay", "rope", "--symmetric=maybe"},
       "--symmetric is a flag: write --symmetric alone, or --symmetric=true / --symmetric=false (got 'maybe')"},
      // ExcludesError.
      {{"generate", "t5", "--causal", "--mode", "bidirectional"}, "--mode cannot be used with --causal; give one of them"},
      // RequiredError.
      {{"rope", "permutation"}, "--dim is required; see 'posenc rope permutation --help'"},
      // ValidationError from CLI::IsMember, with a suggestion; from posenc's validators.
      {{"generate", "sinusoidal", "--format", "pnj"},
       "--format must be one of csv, json, npy, png, svg or ansi (got 'pnj'), did you mean 'png'?"},
      {{"generate", "sinusoidal", "--len", "abc"}, "--len must be an integer in 1..2147483648 (got 'abc')"},
      // Bytes that are not UTF-8 are escaped, wherever the message comes from.
      {{"generate", "sinusoidal", "--cmap", "a\xff" "b"},
       "--cmap must be one of viridis, magma, cividis, gray, RdBu or coolwarm (got 'a\\xffb')"},
      {{"generate", "sinusoidal", "--len", "\xfe"}, "--len must be an integer in 1..2147483648 (got '\\xfe')"},
      // --version alone.
      {{"--version", "extra"}, "--version takes no other arguments (got 'extra'); run 'posenc --version' alone"},
  };
  for (const auto& c : cases) check(c);
}

TEST_CASE("a config that is not JSON is named with line, column and byte offset", "[cli][errors]") {
  const auto dir = std::filesystem::temp_directory_path() / "posenc_parse_errors_test";
  std::filesystem::create_directories(dir);
  const auto write = [&](const std::string& name, const std::string& bytes) {
    std::ofstream(dir / name, std::ios::binary) << bytes;
    return (dir / name).string();
  };
  const std::string bad = write("bad.json", "{\n  x");
  check({{"rope", "--hf-config", bad},
         bad + ": not valid JSON at line 2, column 3 (byte offset 4): syntax error while parsing object key - invalid "
               "literal; last read: '{<U+000A>  x'; expected string literal"});
  const std::string bytes = write("bytes.json", "{\"a\": \"\xff\"}");
  check({{"rope", "--hf-config", bytes},
         bytes + ": not valid JSON at line 1, column 8 (byte offset 7): syntax error while parsing value - invalid "
                 "string: ill-formed UTF-8 byte; last read: '\"\\xff'"});
  std::filesystem::remove_all(dir);
}

TEST_CASE("decay compare splits its words as a shell does", "[cli][errors][decay]") {
  // A path with a space, quoted inside the --compare string (was split at the space).
  const auto dir = std::filesystem::temp_directory_path() / "posenc compare test";
  std::filesystem::create_directories(dir);
  const std::string table = (dir / "my table.csv").string();
  REQUIRE(run_cli({"generate", "sinusoidal", "--len", "8", "--dim", "4", "-o", table}).code == 0);
  const auto r = run_cli({"decay", "sinusoidal", "--dim", "4", "--max-offset", "3", "--format", "csv", "--compare",
                          "--input '" + table + "'"});
  CHECK(r.err == "");
  CHECK(r.code == 0);
  CHECK(r.out.rfind("offset,sinusoidal: dot,", 0) == 0);
  // Double quotes and a backslash work too; an unterminated quote is refused.
  const auto body = [](const std::string& csv) { return csv.substr(csv.find('\n')); };  // the header names the spec
  CHECK(body(run_cli({"decay", "sinusoidal", "--dim", "4", "--max-offset", "3", "--format", "csv", "--compare",
                      "--input \"" + table + "\""}).out) == body(r.out));
  std::string escaped;
  for (char ch : table) escaped += ch == ' ' ? std::string("\\ ") : std::string(1, ch);
  CHECK(body(run_cli({"decay", "sinusoidal", "--dim", "4", "--max-offset", "3", "--format", "csv", "--compare",
                      "--input " + escaped}).out) == body(r.out));
  check({{"decay", "sinusoidal", "--compare", "learned --dim '4"}, "--compare 'learned --dim '4': unterminated ' quote"});
  std::filesystem::remove_all(dir);
}
