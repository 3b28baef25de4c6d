// Index columns (pandas', posenc's, --index-col, --no-index), posenc's long form and
// --delimiter. The CSV texts are what pandas 1.5's to_csv and posenc's writers produce.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "posenc/error.hpp"
#include "posenc/formats/readers.hpp"

using posenc::formats::parse_csv_table;
using posenc::formats::ReadOptions;

namespace {

std::string csv_layout_error_of(const std::string& text, const ReadOptions& opts = {}) {
  try {
    parse_csv_table(text, "x.csv", opts);
  } catch (const posenc::Error& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

TEST_CASE("pd.read_csv(posenc csv).to_csv(): pandas' index and posenc's position are both labels", "[readers][csv]") {
  // pd.read_csv("pe.csv").to_csv("re.csv") of a 3 x 2 posenc table
  const auto t = parse_csv_table(",position,dim0,dim1\n0,0,0.5,1\n1,1,0.25,2\n2,2,0.125,3\n", "re.csv");
  REQUIRE(t.values.cols() == 2);
  CHECK(t.values(2, 0) == 0.125);
  CHECK(t.values(2, 1) == 3);
  CHECK(t.index_name == "position");
  CHECK(t.column_names == std::vector<std::string>{"dim0", "dim1"});
  REQUIRE(t.notes.size() == 1);
  CHECK(t.notes[0] ==
        "--input 're.csv': took column 1 (pandas' unnamed index, 0..2) and column 2 ('position', 0..2) as the index "
        "(position labels), not as data; --no-index reads them as data");
  // saved twice: read_csv names the index "Unnamed: 0"
  const auto t2 = parse_csv_table(",Unnamed: 0,position,a\n0,0,5,1\n1,1,6,2\n", "re2.csv");
  REQUIRE(t2.values.cols() == 1);
  CHECK(t2.first_position == 5);  // the last index column's labels
  // posenc's own file: no note
  CHECK(parse_csv_table("position,a\n0,1\n1,2\n", "pe.csv").notes.empty());
}

TEST_CASE("an index column that is not consecutive positions is refused, or read as --index-col / --no-index say",
          "[readers][csv]") {
  // df.iloc[::2].to_csv(): every 2nd position
  const std::string half = ",position,a\n0,0,1\n2,2,3\n4,4,5\n";
  CHECK(csv_layout_error_of(half) ==
        "--input 'x.csv': column 1 (pandas' unnamed index) is an index, but its labels are not consecutive positions "
        "(0 then 2), and posenc reads rows as consecutive positions: give --index-col 0 (0-based, as pandas' "
        "index_col) to take it as labels anyway, or --no-index to read it as data");
  CHECK(csv_layout_error_of("position,a\n0,1\n2,3\n") ==
        "--input 'x.csv': column 1 ('position') is an index, but its labels are not consecutive positions (0 then 2), "
        "and posenc reads rows as consecutive positions: give --index-col 0 (0-based, as pandas' index_col) to take "
        "it as labels anyway, or --no-index to read it as data");
  CHECK(csv_layout_error_of(",a\n0.5,1\n1.5,2\n") ==
        "--input 'x.csv': column 1 (pandas' unnamed index) is an index, but its first label 0.5 is not a position (an "
        "integer >= 0), and posenc reads rows as consecutive positions: give --index-col 0 (0-based, as pandas' "
        "index_col) to take it as labels anyway, or --no-index to read it as data");
  ReadOptions none;
  none.index = ReadOptions::Index::kNone;
  const auto all = parse_csv_table(half, "x.csv", none);
  REQUIRE(all.values.cols() == 3);
  CHECK(all.values(2, 0) == 4);
  CHECK(all.column_names == std::vector<std::string>{"dim0", "position", "a"});
  ReadOptions col;
  col.index = ReadOptions::Index::kColumn;
  col.index_column = "0";
  const auto by_number = parse_csv_table(half, "x.csv", col);
  REQUIRE(by_number.values.cols() == 2);  // pandas' index_col=0: the other columns are data
  CHECK(by_number.values(1, 0) == 2);
  CHECK(by_number.first_position == 0);
  REQUIRE(by_number.notes.size() == 1);
  col.index_column = "a";
  const auto by_name = parse_csv_table("position,a,b\n0,7,1\n1,8,2\n", "x.csv", col);
  CHECK(by_name.values.cols() == 2);
  CHECK(by_name.values(0, 0) == 0);  // 'position' is data now
  CHECK(by_name.first_position == 7);
  CHECK(by_name.index_name == "a");
  col.index_column = "9";
  CHECK(csv_layout_error_of(half, col) ==
        "--input 'x.csv': --index-col '9' names no column: give a number 0..2 or one of '', 'position', 'a'");
  col.index_column = "z";
  CHECK(csv_layout_error_of("1,2\n3,4\n", col) ==
        "--input 'x.csv': --index-col 'z' names no column: give a number 0..1 (the file has no header)");
}

TEST_CASE("posenc's long form is read as the array it is, or refused past max_axes", "[readers][csv]") {
  // posenc generate alibi --heads 2 --len 2: head,i,j,bias for a 2 x 2 x 2 array
  const std::string al = "head,i,j,bias\n0,0,0,0\n0,0,1,-0.25\n0,1,0,-0.25\n0,1,1,0\n"
                         "1,0,0,0\n1,0,1,-0.0625\n1,1,0,-0.0625\n1,1,1,0\n";
  ReadOptions three;
  three.max_axes = 3;
  const auto t = parse_csv_table(al, "al.csv", three);
  CHECK(t.shape == std::vector<std::size_t>{2, 2, 2});
  CHECK(t.axis_names == std::vector<std::string>{"head", "i", "j"});
  CHECK(t.value_name == "bias");
  REQUIRE(t.values.rows() == 4);
  REQUIRE(t.values.cols() == 2);
  CHECK(t.values(2, 1) == -0.0625);  // head 1, i = 0, j = 1
  CHECK(csv_layout_error_of(al) == "--input 'x.csv': posenc's long form of a 2 x 2 x 2 array (head, i, j -> bias): this command "
                        "takes 2-D tables (rows = positions); check and generate read 3-D arrays");
  // a missing row, a row out of order, or a non-integer index: a plain 4-column table
  CHECK(parse_csv_table("head,i,j,bias\n0,0,0,0\n0,0,1,1\n0,1,1,2\n", "x.csv", three).values.cols() == 4);
  CHECK(parse_csv_table("a,b,c,v\n0,0,1,0\n0,0,0,1\n", "x.csv", three).values.cols() == 4);
  CHECK(parse_csv_table("a,b,c,v\n0,0,0.5,0\n", "x.csv", three).values.cols() == 4);
  // without a header it is data
  CHECK(parse_csv_table("0,0,0,1\n0,0,1,2\n", "x.csv", three).values.cols() == 4);
}

TEST_CASE("csv delimiter semicolon and tab, and a file split by another says which to give", "[readers][csv]") {
  ReadOptions semi;
  semi.delimiter = ';';
  const auto t = parse_csv_table(";position;a\n0;0;1.5\n1;1;2.5\n", "s.csv", semi);
  REQUIRE(t.values.cols() == 1);
  CHECK(t.values(1, 0) == 2.5);
  ReadOptions tab;
  tab.delimiter = '\t';
  CHECK(parse_csv_table("a\tb\n1\t2\n", "t.csv", tab).values(0, 1) == 2);
  CHECK(csv_layout_error_of("a;b\n1;2\n") ==
        "--input 'x.csv': line 2, column 1: '1;2' is not a number (the cells are split at ',': give --delimiter ';' "
        "if the file separates them with ';')");
  CHECK(csv_layout_error_of("1\t2\n3\t4\n") ==
        "--input 'x.csv': line 2, column 1: '3\\x094' is not a number (the cells are split at ',': give --delimiter tab "
        "if the file separates them with tab)");
}
