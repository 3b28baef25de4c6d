#pragma once
// numpy arrays over buffers the library filled: the array's base is a capsule that owns the
// buffer, so no byte is copied and the buffer lives as long as any array or view of it.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstddef>
#include <memory>
#include <vector>

namespace posenc::python {

/// An array of `shape` (row-major) over `data`, which it owns from now on.
template <class T>
pybind11::array owned_array(std::unique_ptr<T[]> data, const std::vector<std::size_t>& shape, bool writeable = true) {
  T* p = data.release();
  pybind11::capsule owner(p, [](void* q) { delete[] static_cast<T*>(q); });
  pybind11::array a(pybind11::dtype::of<T>(), std::vector<pybind11::ssize_t>(shape.begin(), shape.end()), {}, p, owner);
  if (!writeable) a.attr("setflags")(pybind11::arg("write") = false);
  return a;
}

/// Same over a vector's buffer (moved, not copied).
template <class T>
pybind11::array owned_array(std::vector<T>&& values, const std::vector<std::size_t>& shape, bool writeable = true) {
  auto* v = new std::vector<T>(std::move(values));
  pybind11::capsule owner(v, [](void* q) { delete static_cast<std::vector<T>*>(q); });
  pybind11::array a(pybind11::dtype::of<T>(), std::vector<pybind11::ssize_t>(shape.begin(), shape.end()), {}, v->data(), owner);
  if (!writeable) a.attr("setflags")(pybind11::arg("write") = false);
  return a;
}

}  // namespace posenc::python
