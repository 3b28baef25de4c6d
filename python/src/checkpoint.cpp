// posenc.open(path): a safetensors checkpoint (file, index or folder) or a GGUF file; names,
// metadata and tensors in PyTorch shape order as float32.
#include "checkpoint.hpp"

#include <fmt/format.h>

#include "arrays.hpp"
#include "posenc/error.hpp"
#include "posenc/formats/gguf.hpp"
#include "posenc/formats/gguf_tensors.hpp"
#include "posenc/formats/safetensors.hpp"
#include "posenc/text.hpp"

namespace py = pybind11;

namespace posenc::python {

struct Checkpoint::Impl {
  std::optional<formats::StCheckpoint> st;
  std::optional<formats::GgufFile> gguf;
};

Checkpoint::Checkpoint(const std::string& path) : impl_(std::make_shared<Impl>()) {
  py::gil_scoped_release release;
  if (formats::is_gguf_path(path)) {
    impl_->gguf = formats::read_gguf(path);
  } else {
    impl_->st = formats::open_safetensors(path);
  }
}

std::string Checkpoint::format() const { return impl_->gguf ? "gguf" : "safetensors"; }

std::vector<std::string> Checkpoint::keys() const {
  std::vector<std::string> out;
  if (impl_->gguf) {
    for (const auto& t : impl_->gguf->tensors) out.push_back(t.name);
  } else {
    for (const auto& t : impl_->st->tensors) out.push_back(t.name);
  }
  return out;
}

py::dict Checkpoint::metadata() const {
  py::dict d;
  if (impl_->st) {
    for (const auto& file : impl_->st->files)  // each file's __metadata__ (shards repeat the same)
      for (const auto& [k, v] : file.metadata) d[py::str(k)] = py::str(v);
    return d;
  }
  for (const auto& kv : impl_->gguf->kvs) {
    const auto& v = kv.value;
    py::object o;
    if (v.type == formats::GgufType::kString) {
      o = py::str(v.text);
    } else if (v.type == formats::GgufType::kBool) {
      o = py::bool_(v.uinteger != 0);
    } else if (v.is_numeric()) {
      o = (v.type == formats::GgufType::kF32 || v.type == formats::GgufType::kF64) ? py::object(py::float_(v.number))
          : (v.integer < 0)                                                       ? py::object(py::int_(v.integer))
                                                                                  : py::object(py::int_(v.uinteger));
    } else if (v.elements_kept && v.numbers.size() == v.count) {
      std::vector<double> copy = v.numbers;
      const std::size_t n = copy.size();
      o = owned_array(std::move(copy), {n});
    } else {
      o = py::str(v.to_text());  // string arrays, long arrays: as `posenc model` prints them
    }
    d[py::str(kv.key)] = o;
  }
  return d;
}

std::string Checkpoint::dtype(const std::string& name) const {
  if (impl_->gguf) return formats::ggml_type_name(gguf_tensor(name).type);
  return std::string(formats::to_string(st_tensor(name).dtype));
}

std::vector<std::size_t> Checkpoint::shape(const std::string& name) const {
  if (impl_->gguf) {
    const auto& dims = gguf_tensor(name).dims;
    return {dims.rbegin(), dims.rend()};
  }
  const auto& s = st_tensor(name).shape;
  return {s.begin(), s.end()};
}

py::array Checkpoint::tensor(const std::string& name) const {
  std::vector<std::size_t> shape;
  std::vector<float> values;
  if (impl_->gguf) {
    const auto& info = gguf_tensor(name);
    py::gil_scoped_release release;
    formats::GgufTensorData data = formats::read_gguf_tensor(*impl_->gguf, info);
    shape = std::move(data.shape);
    values = std::move(data.values);
  } else {
    const auto& t = st_tensor(name);
    shape.assign(t.shape.begin(), t.shape.end());
    py::gil_scoped_release release;
    values = formats::read_tensor_f32(*impl_->st, t);
  }
  return owned_array(std::move(values), shape, /*writeable=*/false);
}

const formats::StTensor& Checkpoint::st_tensor(const std::string& name) const {
  if (const auto* t = impl_->st->find(name)) return *t;
  throw Error(fmt::format("{}: no tensor '{}'{}", impl_->st->path, printable(name), did_you_mean(name, keys())));
}

const formats::GgufTensorInfo& Checkpoint::gguf_tensor(const std::string& name) const {
  if (const auto* t = impl_->gguf->tensor(name)) return *t;
  throw Error(fmt::format("{}: no tensor '{}'{}", impl_->gguf->name, printable(name), did_you_mean(name, keys())));
}

}  // namespace posenc::python
