#pragma once
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <memory>
#include <string>
#include <vector>

namespace posenc::formats {
struct StTensor;
struct GgufTensorInfo;
}  // namespace posenc::formats

namespace posenc::python {

/// An opened checkpoint: headers are read at once, tensor data on request.
class Checkpoint {
 public:
  explicit Checkpoint(const std::string& path);
  std::string format() const;  ///< "safetensors" or "gguf"
  std::vector<std::string> keys() const;
  /// safetensors: __metadata__ (text); GGUF: every key, numbers as numbers, arrays as arrays.
  pybind11::dict metadata() const;
  std::string dtype(const std::string& name) const;  ///< as stored: "BF16", "Q8_0", ...
  std::vector<std::size_t> shape(const std::string& name) const;  ///< PyTorch order
  /// (array, copy_reason) in PyTorch order, read-only. F32/F16: a view of the mapped file
  /// (copy_reason None), or a copy when the bytes are not aligned for the dtype (the reason
  /// says so); other dtypes: float32 decoded by the library (its buffer, not copied again).
  pybind11::tuple tensor(const std::string& name) const;

 private:
  struct Impl;
  const formats::StTensor& st_tensor(const std::string& name) const;
  const formats::GgufTensorInfo& gguf_tensor(const std::string& name) const;
  std::shared_ptr<Impl> impl_;
};

}  // namespace posenc::python
