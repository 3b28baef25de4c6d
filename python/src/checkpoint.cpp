// posenc.open(path): a safetensors checkpoint (file, index or folder) or a GGUF file; names,
// metadata and tensors in PyTorch shape order: F32 and F16 as read-only views of the mapped
// file, the other dtypes decoded into float32.
#include "checkpoint.hpp"

#include <fmt/format.h>

#include <cstring>

#include "arrays.hpp"
#include "posenc/error.hpp"
#include "posenc/formats/gguf.hpp"
#include "posenc/formats/gguf_tensors.hpp"
#include "posenc/formats/mapped_file.hpp"
#include "posenc/formats/safetensors.hpp"
#include "posenc/text.hpp"

namespace py = pybind11;

namespace posenc::python {

struct Checkpoint::Impl {
  std::optional<formats::StCheckpoint> st;
  std::optional<formats::GgufFile> gguf;
  // Each file mapped on the first view of one of its tensors (safetensors: by file index).
  std::vector<std::shared_ptr<const formats::MappedFile>> maps;
};

namespace {

// What a view of the mapped file needs: where the tensor's bytes are, their numpy dtype.
struct ViewPlan {
  std::size_t file = 0;  // which map
  std::string path;
  std::uint64_t offset = 0, bytes = 0;
  std::string dtype;  // "<f4", ">f2", ...
  std::size_t item = 0;
};

py::object mapped_view(std::shared_ptr<const formats::MappedFile> map, const ViewPlan& v,
                       const std::vector<std::size_t>& shape, std::string& copy_reason) {
  const unsigned char* p = map->range(v.offset, v.bytes);
  const py::dtype dt(v.dtype);
  const std::vector<py::ssize_t> dims(shape.begin(), shape.end());
  py::array a;
  if (reinterpret_cast<std::uintptr_t>(p) % v.item == 0) {
    // The array's base is a capsule holding the mapping: it lives while any view of it does.
    auto* keep = new std::shared_ptr<const formats::MappedFile>(std::move(map));
    py::capsule owner(keep, "posenc.MappedFile",
                      [](PyObject* c) {
                        delete static_cast<std::shared_ptr<const formats::MappedFile>*>(
                            PyCapsule_GetPointer(c, "posenc.MappedFile"));
                      });
    a = py::array(dt, dims, {}, p, owner);
  } else {  // numpy refuses no misaligned view, but every read of one is slow: a copy, said so
    copy_reason = fmt::format("copy: byte {} of {} is not a multiple of {} (the {}'s size)", v.offset, v.path, v.item,
                              v.item == 4 ? "float32" : "float16");
    a = py::array(dt, dims);
    std::memcpy(a.mutable_data(), p, static_cast<std::size_t>(v.bytes));
  }
  a.attr("setflags")(py::arg("write") = false);
  return a;
}

}  // namespace

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

py::tuple Checkpoint::tensor(const std::string& name) const {
  std::vector<std::size_t> shape = this->shape(name);
  std::string copy_reason;
  // F32 and F16: views of the mapped file.
  std::optional<ViewPlan> view;
  if (impl_->gguf) {
    const auto& info = gguf_tensor(name);
    if (info.type == 0 || info.type == 1) {  // ggml F32, F16
      const char order = impl_->gguf->big_endian ? '>' : '<';
      view = ViewPlan{0, impl_->gguf->name, impl_->gguf->data_offset + info.offset, info.bytes,
                      std::string(1, order) + (info.type == 0 ? "f4" : "f2"), info.type == 0 ? 4u : 2u};
    }
  } else {
    const auto& t = st_tensor(name);
    if (t.dtype == formats::StDtype::kF32 || t.dtype == formats::StDtype::kF16) {
      const auto& file = impl_->st->files[t.file];
      view = ViewPlan{t.file, file.path, file.data_offset + t.begin, t.bytes(),
                      t.dtype == formats::StDtype::kF32 ? "<f4" : "<f2", t.dtype == formats::StDtype::kF32 ? 4u : 2u};
    }
  }
  if (view) {
    if (impl_->maps.size() <= view->file) impl_->maps.resize(view->file + 1);
    auto& map = impl_->maps[view->file];
    if (!map) {
      py::gil_scoped_release release;
      map = formats::MappedFile::open(view->path);
    }
    py::object a = mapped_view(map, *view, shape, copy_reason);
    return py::make_tuple(a, copy_reason.empty() ? py::object(py::none()) : py::object(py::str(copy_reason)));
  }
  // BF16, FP8, integers and ggml's block types: decoded into float32.
  std::vector<float> values;
  if (impl_->gguf) {
    const auto& info = gguf_tensor(name);
    py::gil_scoped_release release;
    formats::GgufTensorData data = formats::read_gguf_tensor(*impl_->gguf, info);
    shape = std::move(data.shape);
    values = std::move(data.values);
  } else {
    const auto& t = st_tensor(name);
    py::gil_scoped_release release;
    values = formats::read_tensor_f32(*impl_->st, t);
  }
  copy_reason = fmt::format("copy: {} decoded to float32", dtype(name));
  return py::make_tuple(owned_array(std::move(values), shape, /*writeable=*/false), py::str(copy_reason));
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
