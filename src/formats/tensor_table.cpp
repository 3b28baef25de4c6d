// A tensor of a checkpoint as a Table read on demand (see tensor_table.hpp): rows map to a
// contiguous range of elements, read through the tensor's reader on the writer's threads.
#include "posenc/formats/tensor_table.hpp"

#include <fmt/format.h>

#include "posenc/formats/safetensors.hpp"
#include "safetensors_internal.hpp"

namespace posenc::formats {

namespace {

class TensorSourceTable final : public Table {
 public:
  TensorSourceTable(TableInfo info, std::unique_ptr<st_detail::TensorInputSource> src, std::uint64_t first)
      : Table(std::move(info)), src_(std::move(src)), first_(first) {}
  void fill(std::size_t first, std::size_t count, std::span<double> out) const override {
    src_->read(first_ + static_cast<std::uint64_t>(first) * cols(), out.first(count * cols()));
  }
  void fill_f32(std::size_t first, std::size_t count, std::span<float> out) const override {
    src_->read(first_ + static_cast<std::uint64_t>(first) * cols(), out.first(count * cols()));
  }

 private:
  std::unique_ptr<st_detail::TensorInputSource> src_;
  std::uint64_t first_;  // element of the table's row 0
};

}  // namespace

std::unique_ptr<Table> open_tensor_table(const std::string& input, const ReadOptions& opts,
                                         std::vector<std::string>* notes) {
  const auto [file, tensor] = split_tensor_input(input);
  if (file.empty()) return nullptr;
  auto src = st_detail::open_tensor_input(file, tensor, input);
  const std::size_t rows = src->rest.empty() ? 1 : static_cast<std::size_t>(src->rest[0]);
  const std::size_t cols = src->rest.size() == 2 ? static_cast<std::size_t>(src->rest[1]) : 1;
  TableInfo info;
  std::size_t first = 0, end = rows;
  if (!opts.rows.empty()) {
    std::tie(first, end) = row_slice(opts.rows, rows);
    if (notes != nullptr) notes->push_back(fmt::format("--rows {}: rows {} … {} of {}", opts.rows, first, end - 1, input));
  }
  info.shape = {end - first, cols};
  info.first_position = first;
  const std::uint64_t at = src->first + static_cast<std::uint64_t>(first) * cols;
  return std::make_unique<TensorSourceTable>(std::move(info), std::move(src), at);
}

}  // namespace posenc::formats
