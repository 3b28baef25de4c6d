#include "posenc/formats/readers.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "posenc/error.hpp"
#include "posenc/memory.hpp"

using posenc::formats::parse_csv;
using posenc::formats::parse_npy;

namespace {

/// A .npy file: magic, version, header dict (padded like numpy), then `data`.
std::string npy(const std::string& dict, const std::string& data, int major = 1) {
  std::string h = dict;
  const std::size_t prefix = major == 1 ? 10 : 12;
  h.append(64 - (prefix + h.size() + 1) % 64, ' ');
  h += '\n';
  std::string out = "\x93NUMPY";
  out += static_cast<char>(major);
  out += '\0';
  for (std::size_t i = 0; i < prefix - 8; ++i) out += static_cast<char>((h.size() >> (8 * i)) & 0xff);
  return out + h + data;
}

std::string dict(const std::string& descr, const std::string& shape, const std::string& fortran = "False") {
  return "{'descr': '" + descr + "', 'fortran_order': " + fortran + ", 'shape': " + shape + ", }";
}

template <class T>
std::string bytes_of(std::initializer_list<T> values) {
  std::string out;
  for (const T v : values) out.append(reinterpret_cast<const char*>(&v), sizeof v);  // host is little-endian
  return out;
}

std::string npy_error(const std::string& bytes) {
  try {
    parse_npy(bytes, "x.npy");
  } catch (const posenc::Error& e) {
    return e.what();
  }
  return "(no error)";
}

std::string csv_error(const std::string& text) {
  try {
    parse_csv(text, "x.csv");
  } catch (const posenc::Error& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

TEST_CASE("npy reads float32, float64 and integer arrays", "[readers][npy]") {
  const auto f4 = parse_npy(npy(dict("<f4", "(2, 2)"), bytes_of<float>({0.5f, 1, 2, -3})), "a.npy");
  REQUIRE(f4.rows() == 2);
  REQUIRE(f4.cols() == 2);
  CHECK(f4(1, 1) == -3.0);
  const auto f8 = parse_npy(npy(dict("<f8", "(3,)"), bytes_of<double>({0.1, 0.2, 0.3})), "a.npy");
  REQUIRE(f8.rows() == 3);  // 1-D becomes one column
  REQUIRE(f8.cols() == 1);
  CHECK(f8(2, 0) == 0.3);
  CHECK(parse_npy(npy(dict("<i4", "(1, 2)"), bytes_of<std::int32_t>({-7, 9})), "a.npy")(0, 0) == -7);
  CHECK(parse_npy(npy(dict("<i8", "(1, 1)"), bytes_of<std::int64_t>({1LL << 40})), "a.npy")(0, 0) == 1099511627776.0);
  CHECK(parse_npy(npy(dict("|u1", "(1, 2)"), "\x05\xff"), "a.npy")(0, 1) == 255);
  CHECK(parse_npy(npy(dict("|b1", "(2,)"), std::string("\x00\x01", 2)), "a.npy")(1, 0) == 1);
  // version 2.0 has a 4-byte header length
  CHECK(parse_npy(npy(dict("<f8", "(1,)"), bytes_of<double>({4.5}), 2), "a.npy")(0, 0) == 4.5);
}

/// Bytes in the order written (a big-endian file's bytes are spelt out by hand).
std::string raw(std::initializer_list<int> bytes) {
  std::string out;
  for (const int b : bytes) out += static_cast<char>(b);
  return out;
}

TEST_CASE("npy reads float16, bfloat16, big-endian and Fortran-order arrays", "[readers][npy]") {
  // IEEE binary16 bit patterns: 0x3C00 = 1, 0xC000 = -2, 0x7BFF = 65504 (largest), 0x0001 =
  // 2^-24 (smallest subnormal), 0x0400 = 2^-14, 0x7C00 = inf, 0x7E00 = nan, 0x8000 = -0
  const auto h = parse_npy(npy(dict("<f2", "(8,)"), bytes_of<std::uint16_t>({0x3C00, 0xC000, 0x7BFF, 0x0001, 0x0400,
                                                                              0x7C00, 0x7E00, 0x8000})),
                           "h.npy");
  CHECK(h(0, 0) == 1.0);
  CHECK(h(1, 0) == -2.0);
  CHECK(h(2, 0) == 65504.0);
  CHECK(h(3, 0) == 5.9604644775390625e-08);
  CHECK(h(4, 0) == 6.103515625e-05);
  CHECK(h(5, 0) == INFINITY);
  CHECK(std::isnan(h(6, 0)));
  CHECK((h(7, 0) == 0.0 && std::signbit(h(7, 0))));
  // big-endian: 1.5f is 3F C0 00 00, -2.0 is C0 00 ... 00, int16 -2 is FF FE, uint32 258 is 00 00 01 02,
  // float16 1.0 is 3C 00
  CHECK(parse_npy(npy(dict(">f4", "(1,)"), raw({0x3F, 0xC0, 0, 0})), "b.npy")(0, 0) == 1.5);
  CHECK(parse_npy(npy(dict(">f8", "(1,)"), raw({0xC0, 0, 0, 0, 0, 0, 0, 0})), "b.npy")(0, 0) == -2.0);
  CHECK(parse_npy(npy(dict(">i2", "(1,)"), raw({0xFF, 0xFE})), "b.npy")(0, 0) == -2.0);
  CHECK(parse_npy(npy(dict(">u4", "(1,)"), raw({0, 0, 1, 2})), "b.npy")(0, 0) == 258.0);
  CHECK(parse_npy(npy(dict(">f2", "(1,)"), raw({0x3C, 0x00})), "b.npy")(0, 0) == 1.0);
  // bfloat16 is the upper half of a float32: 0x3F80 = 1, 0x4049 = 3.140625, 0xC2F7 = -123.5
  const std::string bf = bytes_of<std::uint16_t>({0x3F80, 0x4049, 0xC2F7});
  const auto b = parse_npy(npy(dict("bfloat16", "(3,)"), bf), "bf.npy");
  CHECK(b(0, 0) == 1.0);
  CHECK(b(1, 0) == 3.140625);
  CHECK(b(2, 0) == -123.5);
  posenc::formats::ReadOptions raw2;
  raw2.raw2 = "bfloat16";
  CHECK(posenc::formats::parse_npy_array(npy(dict("<V2", "(3,)"), bf), "v.npy", raw2).values(2, 0) == -123.5);
  raw2.raw2 = "float16";
  CHECK(posenc::formats::parse_npy_array(npy(dict("|V2", "(1,)"), bytes_of<std::uint16_t>({0xC000})), "v.npy", raw2)
            .values(0, 0) == -2.0);
  // Fortran order: the first axis varies fastest in the file. (2, 3): file 1 4 2 5 3 6 is
  // [[1, 2, 3], [4, 5, 6]]
  const auto f = parse_npy(npy(dict("<f8", "(2, 3)", "True"), bytes_of<double>({1, 4, 2, 5, 3, 6})), "f.npy");
  REQUIRE(f.rows() == 2);
  CHECK((f(0, 0) == 1 && f(0, 1) == 2 && f(0, 2) == 3 && f(1, 0) == 4 && f(1, 1) == 5 && f(1, 2) == 6));
  // (2, 2, 2) holding i + 2j + 4k at (i, j, k), file order 0..7; C row i*2 + j, column k
  const auto f3 = posenc::formats::parse_npy_array(npy(dict("<i1", "(2, 2, 2)", "True"), raw({0, 1, 2, 3, 4, 5, 6, 7})),
                                              "f3.npy", 3);
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      for (int k = 0; k < 2; ++k) CHECK(f3.values(static_cast<std::size_t>(i * 2 + j), static_cast<std::size_t>(k)) == i + 2 * j + 4 * k);
}

TEST_CASE("npy refuses hostile or unsupported files with one line naming the file", "[readers][npy]") {
  const std::string ok_data = bytes_of<float>({1, 2, 3, 4});
  CHECK(npy_error("PK\x03\x04 not numpy") == "--input 'x.npy': not a .npy file (bad magic)");
  CHECK(npy_error("") == "--input 'x.npy': not a .npy file (bad magic)");
  std::string v9 = npy(dict("<f4", "(2, 2)"), ok_data);
  v9[6] = 9;
  CHECK(npy_error(v9) == "--input 'x.npy': unsupported .npy version 9.0");
  CHECK(npy_error(npy(dict(">V2", "(2, 2)"), ok_data)) ==
        "--input 'x.npy': unsupported dtype '>V2': give float16, float32, float64, bfloat16, integer or bool data");
  CHECK(npy_error(npy(dict("<V2", "(2, 2)"), ok_data)) ==
        "--input 'x.npy': dtype '<V2' is 2 raw bytes a value (np.save writes ml_dtypes' bfloat16 so): give "
        "--input-dtype bfloat16 (or float16) to say what they are, or save arr.astype(np.float32)");
  CHECK(npy_error(npy(dict("<U5", "(2, 2)"), ok_data)) ==
        "--input 'x.npy': unsupported dtype '<U5': give float16, float32, float64, bfloat16, integer or bool data");
  CHECK(npy_error(npy(dict("|O", "(2, 2)"), ok_data)) ==
        "--input 'x.npy': unsupported dtype '|O': give float16, float32, float64, bfloat16, integer or bool data");
  CHECK(npy_error(npy("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (2,), }", ok_data)) ==
        "--input 'x.npy': structured dtypes are not supported: save a plain numeric array");
  CHECK(npy_error(npy(dict("<f4", "()"), ok_data)) == "--input 'x.npy': 0-D array of shape (): need a 1-D or 2-D array");
  CHECK(npy_error(npy(dict("<f4", "(1, 2, 2)"), ok_data)) ==
        "--input 'x.npy': 3-D array of shape (1, 2, 2): need a 1-D or 2-D array");
  // A header claiming far more data than the file holds is refused before allocating.
  CHECK(npy_error(npy(dict("<f4", "(100000000000, 100000000000)"), ok_data)) ==
        "--input 'x.npy': truncated data: shape (100000000000, 100000000000) of '<f4' needs more than the 16 bytes "
        "the file holds");
  CHECK(npy_error(npy(dict("<f8", "(2, 2)"), ok_data)) ==
        "--input 'x.npy': truncated data: shape (2, 2) of '<f8' needs more than the 16 bytes the file holds");
  const std::string whole = npy(dict("<f4", "(2, 2)"), ok_data);
  CHECK(npy_error(whole.substr(0, 40)) == "--input 'x.npy': truncated .npy header");
  std::string huge = npy(dict("<f4", "(2, 2)"), ok_data, 2);
  huge[11] = 0x10;  // header length 0x10000000
  CHECK(npy_error(huge) == "--input 'x.npy': .npy header too long (268435572 bytes)");
  CHECK(npy_error(npy("{'descr': '<f4', 'shape': (2, 2), }", ok_data)) ==
        "--input 'x.npy': bad .npy header (missing 'descr', 'fortran_order' or 'shape')");
  CHECK(npy_error(npy("{'descr': '<f4', 'fortran_order': False, 'shape': (2, x), }", ok_data)) ==
        "--input 'x.npy': bad .npy header (shape must be a tuple of sizes)");
  CHECK(npy_error(npy(dict("<f4", "(0, 4)"), "")) == "--input 'x.npy': empty array of shape (0, 4)");
}

TEST_CASE("csv with a header and a position column", "[readers][csv]") {
  const auto m = parse_csv("\xEF\xBB\xBFposition,dim0,dim1\r\n0,0.5,1\r\n1,nan,-inf\r\n\r\n", "a.csv");
  REQUIRE(m.rows() == 2);
  REQUIRE(m.cols() == 2);
  CHECK(m(0, 0) == 0.5);
  CHECK(std::isnan(m(1, 0)));
  CHECK(m(1, 1) == -INFINITY);
}

TEST_CASE("csv without a header keeps every column", "[readers][csv]") {
  const auto m = parse_csv("1,2,3\n4,5,+6e-1\n", "a.csv");
  REQUIRE(m.rows() == 2);
  REQUIRE(m.cols() == 3);
  CHECK(m(0, 0) == 1);
  CHECK(m(1, 2) == 0.6);
  // pandas' to_csv writes an unnamed index column first: dropped too
  const auto p = parse_csv(",a,b\n0,1.5,2\n", "a.csv");
  REQUIRE(p.cols() == 2);
  CHECK(p(0, 0) == 1.5);
  // a named first column that is not "position" is data
  CHECK(parse_csv("\"x\",y\n1,2\n", "a.csv").cols() == 2);
}

TEST_CASE("csv refuses bad files naming line and column", "[readers][csv]") {
  CHECK(csv_error("") == "--input 'x.csv': empty file");
  CHECK(csv_error("\n \n") == "--input 'x.csv': empty file");
  CHECK(csv_error("a,b\n") == "--input 'x.csv': no data rows after the header");
  CHECK(csv_error("a,b\n1,2\n3\n") == "--input 'x.csv': line 3 has 1 cell, expected 2 as on line 1");
  CHECK(csv_error("1,2\n3,abc\n") == "--input 'x.csv': line 2, column 2: 'abc' is not a number");
  CHECK(csv_error("position,a\n0,1\n1,\"2\n") == "--input 'x.csv': line 3: unterminated quote");
  CHECK(csv_error("position\n0\n") == "--input 'x.csv': no data columns besides 'position'");
}

TEST_CASE("read_table dispatches on the extension and reads files", "[readers]") {
  const auto dir = std::filesystem::temp_directory_path() / "posenc_readers_test";
  std::filesystem::create_directories(dir);
  const auto csv_path = (dir / "t.CSV").string();
  std::ofstream(csv_path) << "1,2\n3,4\n";
  CHECK(posenc::formats::read_table(csv_path)(1, 0) == 3);
  const auto npy_path = (dir / "t.npy").string();
  std::ofstream(npy_path, std::ios::binary) << npy(dict("<f8", "(1,)"), bytes_of<double>({2.5}));
  CHECK(posenc::formats::read_table(npy_path)(0, 0) == 2.5);
  CHECK_THROWS_WITH(posenc::formats::read_table("t.txt"), "--input 't.txt': cannot read '.txt' files: give a .npy, .npz or "
                                                     ".csv file, or say what it holds with --input-format csv|npy|npz");
  CHECK_THROWS_WITH(posenc::formats::read_table((dir / "missing.npy").string()),
                    "--input '" + (dir / "missing.npy").string() + "': cannot read: No such file or directory");
  std::filesystem::remove_all(dir);
}

TEST_CASE("csv index column: a known name and consecutive integers", "[readers][csv]") {
  using posenc::formats::parse_csv_table;
  // posenc's own N x N CSVs (similarity, t5, alibi --head) start with "i"
  const auto sim = parse_csv_table("i,j0,j1\n0,1,0.5\n1,0.5,1\n", "s.csv");
  REQUIRE(sim.values.cols() == 2);
  CHECK(sim.values(0, 0) == 1);
  CHECK(sim.values(1, 0) == 0.5);
  CHECK(sim.index_name == "i");
  CHECK(sim.column_names == std::vector<std::string>{"j0", "j1"});
  // positions and names are kept: fairseq's rows start at padding_idx + 1
  const auto pos = parse_csv_table("position,a,b\n5,1,2\n6,3,4\n", "p.csv");
  CHECK(pos.first_position == 5);
  CHECK(pos.column_names == std::vector<std::string>{"a", "b"});
  CHECK(pos.values(1, 1) == 4);
  for (const char* name : {"t", "offset", "index", "Position", "", "token"}) {  // token: mrope, axial-rope
    INFO(name);
    CHECK(parse_csv_table(std::string(name) + ",x\n0,7\n1,8\n", "n.csv").values.cols() == 1);
  }
  // a known name over values that are not integers from >= 0 is data
  CHECK(parse_csv("t,x\n0.5,1\n1.5,3\n", "a.csv").cols() == 2);
  CHECK(parse_csv("offset,x\n-1,1\n0,3\n", "a.csv").cols() == 2);
  // pandas' to_csv with default integer column labels and an unnamed index
  const auto pd = parse_csv_table(",0,1\n0,1.5,2\n1,3,4\n", "pd.csv");
  REQUIRE(pd.values.cols() == 2);
  CHECK(pd.values(0, 0) == 1.5);
  CHECK(pd.column_names == std::vector<std::string>{"0", "1"});
  // no header: nothing is an index
  CHECK(parse_csv("0,5\n1,6\n", "a.csv").cols() == 2);
}

TEST_CASE("csv: a first line mixing numbers and text is a bad data row, not a header", "[readers][csv]") {
  CHECK(csv_error("1,2O\n3,4\n5,6\n") ==
        "--input 'x.csv': line 1, column 2: '2O' is not a number (line 1 starts with a number, so it is data, not a header)");
  // a header may still name columns with numbers after a name
  CHECK(parse_csv("position,0,1\n0,1,2\n", "a.csv").cols() == 2);
}

TEST_CASE("csv line ends: \\n, \\r\\n and a lone \\r", "[readers][csv]") {
  for (const char* text : {"a,b\n1,2\n3,4\n", "a,b\r\n1,2\r\n3,4\r\n", "a,b\r1,2\r3,4\r", "a,b\r1,2\n3,4"}) {
    const auto m = parse_csv(text, "a.csv");
    REQUIRE(m.rows() == 2);
    CHECK(m(1, 1) == 4);
  }
}

TEST_CASE("csv messages show bytes that are not text as \\xNN and say what is accepted", "[readers][csv]") {
  CHECK(csv_error(std::string("a,b\n1,\0\n", 8)) ==
        "--input 'x.csv': line 2 holds a NUL byte (\\x00): not a text file; CSV files must be UTF-8 text");
  CHECK(csv_error("\xFF\xFE" "a\0,\0" "1\0\n\0") ==
        "--input 'x.csv': the file is UTF-16 text: save it as UTF-8 (CSV files must be UTF-8 text)");
  CHECK(csv_error("x,y\n1,\xE9\x01\n") ==
        "--input 'x.csv': line 2, column 2: '\\xe9\\x01' is not a number (CSV files must be UTF-8 text)");
  CHECK(csv_error("x,y\n1,\xC3\xA9\n") == "--input 'x.csv': line 2, column 2: '\xC3\xA9' is not a number");  // é
  const std::string descr_nul = npy(dict(std::string("<f\0" "4", 4), "(1,)"), bytes_of<float>({1}));
  CHECK(npy_error(descr_nul) ==
        "--input 'x.npy': unsupported dtype '<f\\x004': give float16, float32, float64, bfloat16, integer or bool data");
}

TEST_CASE("input files are sized before they are read", "[readers][memory]") {
  const auto dir = std::filesystem::temp_directory_path() / "posenc_readers_size_test";
  std::filesystem::create_directories(dir);
  const auto csv_path = (dir / "big.csv").string();
  {
    std::ofstream out(csv_path);
    for (int i = 0; i < 20000; ++i) out << i << ",0.5,0.25\n";  // about 300 KB
  }
  posenc::set_memory_limit(1 << 20);  // 1 MiB: a 300 KB CSV needs about 1.5 MiB (text and values)
  try {
    posenc::formats::read_input(csv_path);
    FAIL("no error");
  } catch (const posenc::Error& e) {
    CHECK_THAT(e.what(), Catch::StartsWith("--input '" + csv_path + "': the 2"));
    CHECK_THAT(e.what(), Catch::Contains("in memory, more than the limit of 1 MiB (--max-memory)"));
  }
  posenc::set_memory_limit(0);
  CHECK(posenc::formats::read_input(csv_path).values.rows() == 20000);
  std::filesystem::remove_all(dir);
}

TEST_CASE("--rows A:B selects rows as a Python slice does", "[readers][rows]") {
  using posenc::formats::row_slice;
  using Range = std::pair<std::size_t, std::size_t>;
  // Python: list(range(50))[10:20] is 10..19, [-3:] is 47..49, [:5] is 0..4, [3:-3] is 3..46
  CHECK(row_slice("10:20", 50) == Range{10, 20});
  CHECK(row_slice("-3:", 50) == Range{47, 50});
  CHECK(row_slice(":5", 50) == Range{0, 5});
  CHECK(row_slice("3:-3", 50) == Range{3, 47});
  CHECK(row_slice(":", 50) == Range{0, 50});
  const auto message = [](const std::string& rows) {
    try {
      (void)row_slice(rows, 50);
    } catch (const posenc::Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  // an empty slice, a bound past the end, a negative start past the beginning, not a slice
  CHECK(message("5:5") == "--rows 5:5 must select rows within the table's 50 rows (0 ≤ A < B ≤ 50; negative bounds "
                          "count from the end)");
  CHECK(message("0:51").find("--rows 0:51 must select rows within the table's 50 rows") == 0);
  CHECK(message("-51:").find("--rows -51: must select") == 0);
  CHECK(message("7") == "--rows must be A:B, A: or :B with integers A < B (got '7')");
  CHECK(message("1:2:3") == "--rows must be A:B, A: or :B with integers A < B (got '1:2:3')");
  CHECK(message("a:b") == "--rows must be A:B, A: or :B with integers A < B (got 'a:b')");
}
