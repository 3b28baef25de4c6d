#pragma once
/// A table of numbers produced in blocks of rows, so that huge tables can be
/// streamed to a writer in bounded memory. Encodings, analyses and user files
/// all end up as a Table; writers and renderers only consume Tables.
#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "posenc/matrix.hpp"
#include "posenc/params.hpp"

namespace posenc {

/// What a table is: echoed in JSON, used for CSV headers and figure labels.
struct TableInfo {
  std::string scheme;                     ///< "sinusoidal", "input", "alibi", ...
  std::vector<std::pair<std::string, ParamValue>> params;   ///< every parameter, defaults included
  std::vector<std::pair<std::string, ParamValue>> results;  ///< derived values (e.g. "max_drift")
  std::vector<std::size_t> shape;         ///< {N, D} or {H, N, M}
  std::vector<std::string> axis_names;    ///< one per axis: {"position", "dim"}, {"head", "i", "j"}
  std::vector<std::string> column_names;  ///< names of the last axis (CSV header); empty = dim0, dim1, ...
  std::string value_name = "value";       ///< what a cell holds: "value", "bias", "bucket"
  std::string title;                      ///< one-line human title for figures
  std::size_t first_position = 0;        ///< label of row 0 (fairseq starts at padding_idx+1)
  /// Remarks on what the table is, printed by the CLI as "posenc: note: ..." on stderr (not part
  /// of the output: the echoed params alone replay the same table).
  std::vector<std::string> notes = {};
};

class Table {
 public:
  explicit Table(TableInfo info) : info_(std::move(info)) {}
  virtual ~Table() = default;
  Table(const Table&) = delete;
  Table& operator=(const Table&) = delete;

  const TableInfo& info() const { return info_; }
  TableInfo& info() { return info_; }
  /// Rows of the table flattened to 2-D: product of every axis but the last.
  std::size_t rows() const;
  /// Length of the last axis.
  std::size_t cols() const;

  /// Writes flattened rows [first, first + count) into `out` (count × cols values, row-major).
  virtual void fill(std::size_t first, std::size_t count, std::span<double> out) const = 0;

  /// Same rows as float32, for float32 output. Default: fill() then round each value to
  /// float (out-of-range finite values become ±inf). Tables with a fast float path override
  /// it; their values stay within 1e-6 of fill()'s.
  virtual void fill_f32(std::size_t first, std::size_t count, std::span<float> out) const;

  /// The whole table in memory (for analyses and small outputs).
  Matrix to_matrix() const;

 private:
  TableInfo info_;
};

/// A Table whose values are already in memory.
class MatrixTable : public Table {
 public:
  MatrixTable(TableInfo info, Matrix m);
  void fill(std::size_t first, std::size_t count, std::span<double> out) const override;
  const Matrix& matrix() const { return m_; }

 private:
  Matrix m_;
};

/// Rounds to float without the undefined behaviour of casting an out-of-range double
/// (finite values beyond float's range become ±inf).
float to_f32(double v);

/// A Table computed row by row: fn(position_row_index, out_row); optionally fn32 computes a
/// float32 row directly (a fast path within 1e-6 of fn's values).
class RowFunctionTable : public Table {
 public:
  template <class F>
  RowFunctionTable(TableInfo info, F fn) : Table(std::move(info)), fn_(std::make_shared<Holder<F, double>>(std::move(fn))) {}
  template <class F, class F32>
  RowFunctionTable(TableInfo info, F fn, F32 fn32)
      : Table(std::move(info)),
        fn_(std::make_shared<Holder<F, double>>(std::move(fn))),
        fn32_(std::make_shared<Holder<F32, float>>(std::move(fn32))) {}
  void fill(std::size_t first, std::size_t count, std::span<double> out) const override;
  void fill_f32(std::size_t first, std::size_t count, std::span<float> out) const override;

 private:
  template <class T>
  struct Base {
    virtual ~Base() = default;
    virtual void row(std::size_t r, std::span<T> out) const = 0;
  };
  template <class F, class T>
  struct Holder : Base<T> {
    explicit Holder(F f) : f_(std::move(f)) {}
    void row(std::size_t r, std::span<T> out) const override { f_(r, out); }
    F f_;
  };
  std::shared_ptr<const Base<double>> fn_;
  std::shared_ptr<const Base<float>> fn32_;  // may be null
};

}  // namespace posenc
