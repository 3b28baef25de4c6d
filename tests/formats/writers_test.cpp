#include "posenc/formats/writers.hpp"

#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>

#include "posenc/formats/readers.hpp"

using posenc::Matrix;
using posenc::MatrixTable;
using posenc::TableInfo;
using posenc::formats::DType;

namespace {

/// A 3×4 table 0.1, 1, 2, ... 11.5 named like an encoding.
MatrixTable small_table() {
  TableInfo info;
  info.scheme = "test";
  info.params = {{"dim", std::int64_t{4}}, {"base", 10000.0}, {"layout", std::string("split")},
                 {"causal", true}, {"factors", std::vector<double>{1.0, 2.5}}};
  info.shape = {3, 4};
  info.axis_names = {"position", "dim"};
  Matrix m(3, 4);
  for (std::size_t i = 0; i < 12; ++i) m.data()[i] = static_cast<double>(i);
  m(0, 0) = 0.1;
  m(2, 3) = 11.5;
  return MatrixTable(info, std::move(m));
}

std::string csv(const posenc::Table& t, DType d) {
  std::ostringstream out;
  posenc::formats::write_csv(t, out, d);
  return out.str();
}

}  // namespace

TEST_CASE("fmt prints the shortest text that reads back exactly", "[writers]") {
  CHECK(fmt::format("{}", 0.1f) == "0.1");
  CHECK(fmt::format("{}", static_cast<float>(0.1)) == "0.1");
  CHECK(fmt::format("{}", 3.0) == "3");
  CHECK(fmt::format("{}", 0.1) == "0.1");
  CHECK(fmt::format("{}", 1e20) == "1e+20");
}

TEST_CASE("csv has a position column, dim names and one line per row", "[writers][csv]") {
  const auto t = small_table();
  CHECK(csv(t, DType::kFloat64) == "position,dim0,dim1,dim2,dim3\n0,0.1,1,2,3\n1,4,5,6,7\n2,8,9,10,11.5\n");
}

TEST_CASE("csv float32 prints each value rounded to float", "[writers][csv]") {
  TableInfo info;
  info.shape = {1, 3};
  info.column_names = {"a", "b,c", "d"};
  info.first_position = 2;
  Matrix m(1, 3);
  m(0, 0) = 1.0 / 3.0;  // float32 0.33333334, float64 0.3333333333333333
  m(0, 1) = std::numeric_limits<double>::quiet_NaN();
  m(0, 2) = -std::numeric_limits<double>::infinity();
  const MatrixTable t(info, m);
  CHECK(csv(t, DType::kFloat32) == "position,a,\"b,c\",d\n2,0.33333334,nan,-inf\n");
  CHECK(csv(t, DType::kFloat64) == "position,a,\"b,c\",d\n2,0.3333333333333333,nan,-inf\n");
  // float32 text reads back to exactly the float
  const auto back = posenc::formats::parse_csv(csv(t, DType::kFloat32), "t.csv");
  CHECK(static_cast<float>(back(0, 0)) == static_cast<float>(1.0 / 3.0));
  CHECK(std::isnan(back(0, 1)));
}

TEST_CASE("csv of a 3-D table is long form head,i,j,value", "[writers][csv]") {
  TableInfo info;
  info.shape = {2, 2, 2};
  info.axis_names = {"head", "i", "j"};
  info.value_name = "bias";
  Matrix m(4, 2);
  for (std::size_t i = 0; i < 8; ++i) m.data()[i] = -static_cast<double>(i);  // -0 stays "-0"
  const MatrixTable t(info, m);
  CHECK(csv(t, DType::kFloat64) ==
        "head,i,j,bias\n0,0,0,-0\n0,0,1,-1\n0,1,0,-2\n0,1,1,-3\n1,0,0,-4\n1,0,1,-5\n1,1,0,-6\n1,1,1,-7\n");
}

TEST_CASE("csv streams many blocks", "[writers][csv]") {
  TableInfo info;
  info.shape = {300000, 1};  // block_rows(1) = 131072: three blocks
  const posenc::RowFunctionTable t(info, [](std::size_t r, std::span<double> out) { out[0] = static_cast<double>(r); });
  const std::string text = csv(t, DType::kFloat64);
  CHECK(text.substr(text.size() - 14) == "299999,299999\n");
  CHECK(std::count(text.begin(), text.end(), '\n') == 300001);
}

TEST_CASE("json echoes parameters and holds the data", "[writers][json]") {
  auto t = small_table();
  t.info().results = {{"max_drift", 1e-12}};
  t.info().first_position = 1;
  std::ostringstream out;
  posenc::formats::write_json(t, out, DType::kFloat32);
  const auto j = nlohmann::json::parse(out.str());
  CHECK(j["scheme"] == "test");
  CHECK(j["params"]["dim"] == 4);
  CHECK(j["params"]["base"] == 10000.0);
  CHECK(j["params"]["layout"] == "split");
  CHECK(j["params"]["causal"] == true);
  CHECK(j["params"]["factors"] == nlohmann::json::array({1.0, 2.5}));
  CHECK(j["results"]["max_drift"] == 1e-12);
  CHECK(j["shape"] == nlohmann::json::array({3, 4}));
  CHECK(j["axes"] == nlohmann::json::array({"position", "dim"}));
  CHECK(!j.contains("columns"));
  CHECK(j["dtype"] == "float32");
  CHECK(j["first_position"] == 1);
  REQUIRE(j["data"].size() == 3);
  CHECK(j["data"][0] == nlohmann::json::array({0.1, 1, 2, 3}));
  CHECK(j["data"][2][3] == 11.5);
  // key order is stable: scheme first, data last
  CHECK(out.str().rfind("{\"scheme\":", 0) == 0);
  CHECK(out.str().find("\"data\":[") > out.str().find("\"dtype\""));
}

TEST_CASE("json nests 3-D tables and writes NaN and inf as null", "[writers][json]") {
  TableInfo info;
  info.shape = {2, 2, 2};
  Matrix m(4, 2);
  for (std::size_t i = 0; i < 8; ++i) m.data()[i] = static_cast<double>(i);
  m(0, 1) = std::numeric_limits<double>::quiet_NaN();
  m(3, 1) = std::numeric_limits<double>::infinity();
  const MatrixTable t(info, m);
  std::ostringstream out;
  posenc::formats::write_json(t, out, DType::kFloat64);
  const auto j = nlohmann::json::parse(out.str());
  CHECK(j["data"] == nlohmann::json::parse("[[[0,null],[2,3]],[[4,5],[6,null]]]"));
  CHECK(!j.contains("results"));
  CHECK(!j.contains("first_position"));
}

TEST_CASE("npy header is numpy's, byte for byte", "[writers][npy]") {
  // np.save of a float32 (3, 4) array, numpy 1.24.2: header length 0x76, 128 bytes in all.
  const std::string expected_dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }";
  const std::string h = posenc::formats::npy_header({3, 4}, DType::kFloat32);
  REQUIRE(h.size() == 128);
  CHECK(h.substr(0, 6) == "\x93NUMPY");
  CHECK(h[6] == 1);
  CHECK(h[7] == 0);
  CHECK(static_cast<unsigned char>(h[8]) + 256 * static_cast<unsigned char>(h[9]) == 118);
  CHECK(h.substr(10, expected_dict.size()) == expected_dict);
  CHECK(h.back() == '\n');
  CHECK(h.find_first_not_of(' ', 10 + expected_dict.size()) == h.size() - 1);
  // 1-D shapes need the trailing comma; alignment holds for other sizes too.
  const std::string h1 = posenc::formats::npy_header({2}, DType::kFloat64);
  CHECK(h1.find("'descr': '<f8', 'fortran_order': False, 'shape': (2,), }") != std::string::npos);
  CHECK(h1.size() % 64 == 0);
  CHECK(posenc::formats::npy_header({123456789, 7}, DType::kFloat32).size() % 64 == 0);
}

TEST_CASE("npy data is little-endian float32 in C order", "[writers][npy]") {
  const auto t = small_table();
  std::ostringstream out;
  posenc::formats::write_npy(t, out, DType::kFloat32);
  const std::string bytes = out.str();
  REQUIRE(bytes.size() == 128 + 12 * 4);
  // recorded from numpy: np.array([[0.1, 1, ...]], dtype=np.float32).tobytes().hex()[:16]
  std::string hex;
  for (std::size_t i = 128; i < 136; ++i) hex += fmt::format("{:02x}", static_cast<unsigned char>(bytes[i]));
  CHECK(hex == "cdcccc3d0000803f");
  for (std::size_t i = 0; i < 12; ++i) {
    float f = 0;
    std::memcpy(&f, bytes.data() + 128 + 4 * i, 4);
    CHECK(f == static_cast<float>(t.matrix().data()[i]));
  }
}

TEST_CASE("npy write then parse gives the values back", "[writers][npy]") {
  const auto t = small_table();
  for (const auto d : {DType::kFloat32, DType::kFloat64}) {
    std::ostringstream out;
    posenc::formats::write_npy(t, out, d);
    const Matrix m = posenc::formats::parse_npy(out.str(), "t.npy");
    REQUIRE(m.rows() == 3);
    REQUIRE(m.cols() == 4);
    for (std::size_t i = 0; i < 12; ++i) {
      const double v = t.matrix().data()[i];
      CHECK(m.data()[i] == (d == DType::kFloat32 ? static_cast<double>(static_cast<float>(v)) : v));
    }
  }
}

TEST_CASE("min_output_bytes: exact for npy, a true lower bound for csv and json", "[writers][space]") {
  using posenc::formats::Format;
  using posenc::formats::min_output_bytes;
  const auto t = small_table();
  // numpy's .npy of a small 2-D array: a 128-byte header, then 3 x 4 values.
  CHECK(min_output_bytes(t, Format::kNpy, DType::kFloat32) == 128 + 12 * 4);
  CHECK(min_output_bytes(t, Format::kNpy, DType::kFloat64) == 128 + 12 * 8);
  std::ostringstream npy;
  posenc::formats::write_npy(t, npy, DType::kFloat64);
  CHECK(npy.str().size() == 128 + 12 * 8);
  // csv and json: 2 bytes a value (and a position per csv row), never above the real size
  CHECK(min_output_bytes(t, Format::kCsv, DType::kFloat64) == 2 * (12 + 3));
  CHECK(min_output_bytes(t, Format::kJson, DType::kFloat64) == 2 * 12);
  CHECK(min_output_bytes(t, Format::kCsv, DType::kFloat64) <= csv(t, DType::kFloat64).size());
  // The tightest case: a 1 x 1 table of 0 is "0,0\n" after the header, exactly the bound.
  TableInfo info;
  info.shape = {1, 1};
  const MatrixTable zero(info, Matrix(1, 1));
  CHECK(csv(zero, DType::kFloat32) == "position,dim0\n0,0\n");
  CHECK(min_output_bytes(zero, Format::kCsv, DType::kFloat32) == 4);
  CHECK(min_output_bytes(t, Format::kPng, DType::kFloat32) == 0);
  // A petabyte-sized request is not wrapped around to a small number.
  TableInfo huge;
  huge.shape = {std::size_t{1} << 40, std::size_t{1} << 30};
  const posenc::RowFunctionTable big(huge, [](std::size_t, std::span<double>) {});
  CHECK(min_output_bytes(big, Format::kNpy, DType::kFloat64) == UINT64_MAX);
  CHECK(min_output_bytes(big, Format::kJson, DType::kFloat64) == UINT64_MAX);
}
