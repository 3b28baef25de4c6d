// `--input FILE.safetensors:NAME` (or a folder or index, :NAME[i] for a slice): one tensor as a
// table (see safetensors.hpp).
#include <fmt/format.h>

#include <charconv>
#include <filesystem>

#include "posenc/error.hpp"
#include "posenc/formats/gguf.hpp"
#include "posenc/formats/gguf_tensors.hpp"
#include "posenc/formats/safetensors.hpp"
#include "posenc/memory.hpp"
#include "posenc/text.hpp"
#include "safetensors_internal.hpp"

namespace posenc::formats {

namespace {

bool st_name_is_checkpoint(const std::string& prefix) {
  const auto lower = [](std::string s) {
    for (char& ch : s) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    return s;
  };
  const std::string l = lower(prefix);
  const auto ends = [&](std::string_view suf) { return l.size() >= suf.size() && l.compare(l.size() - suf.size(), suf.size(), suf) == 0; };
  if (ends(".safetensors") || ends(".safetensors.index.json") || ends(".gguf")) return true;
  // PyTorch checkpoints too, so that FILE.bin:NAME gets the conversion command.
  if (ends(".bin") || ends(".pt") || ends(".pth") || ends(".ckpt")) return true;
  std::error_code ec;
  return !prefix.empty() && std::filesystem::is_directory(prefix, ec);
}

std::string st_shape_text(const std::vector<std::uint64_t>& shape) {
  std::string s = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

/// "x[0, 3]" -> {"x", {0, 3}}; indices may count from the end (-1 is the last).
bool parse_selector(const std::string& text, std::string& base, std::vector<std::int64_t>& idx) {
  const auto open = text.rfind('[');
  if (open == std::string::npos || open == 0 || text.back() != ']') return false;
  base = text.substr(0, open);
  std::string inner = text.substr(open + 1, text.size() - open - 2);
  std::size_t start = 0;
  while (start <= inner.size()) {
    auto comma = inner.find(',', start);
    if (comma == std::string::npos) comma = inner.size();
    std::string part = inner.substr(start, comma - start);
    while (!part.empty() && part.front() == ' ') part.erase(part.begin());
    while (!part.empty() && part.back() == ' ') part.pop_back();
    std::int64_t v = 0;
    const auto [p, ec] = std::from_chars(part.data(), part.data() + part.size(), v);
    if (part.empty() || ec != std::errc() || p != part.data() + part.size()) return false;
    idx.push_back(v);
    start = comma + 1;
  }
  return !idx.empty();
}

std::string selector_hint(const std::string& path, const std::string& name, const std::vector<std::uint64_t>& shape) {
  const std::size_t drop = shape.size() - 2;
  std::string zeros;
  for (std::size_t i = 0; i < drop; ++i) zeros += i ? ",0" : "0";
  const std::vector<std::uint64_t> rest(shape.end() - 2, shape.end());
  return fmt::format("select a 2-D slice of its first {} with NAME[{}], e.g. --input '{}:{}[{}]' (a {} table)",
                     drop == 1 ? "axis" : fmt::format("{} axes", drop), drop == 1 ? "i" : drop == 2 ? "i,j" : "i,j,k",
                     path, printable(name), zeros, st_shape_text(rest));
}

}  // namespace

std::pair<std::string, std::string> split_tensor_input(const std::string& input) {
  std::error_code ec;
  if (input.find(':') == std::string::npos || std::filesystem::exists(input, ec)) return {};  // a file named a:b.csv
  for (std::size_t i = input.find(':'); i != std::string::npos; i = input.find(':', i + 1)) {
    const std::string prefix = input.substr(0, i);
    if (st_name_is_checkpoint(prefix)) return {prefix, input.substr(i + 1)};
  }
  return {};
}

namespace {

/// What NAME[i…] selects of a tensor of `shape`: the first element and the count of the 2-D (or
/// smaller) rest, and its shape. Throws naming --input for too many indices, an index outside its
/// axis, a rest of more than two axes (with the selector to use) and an empty tensor.
struct Selection {
  std::uint64_t first = 0, count = 1;
  std::vector<std::uint64_t> rest;
};

Selection select_table(const std::vector<std::uint64_t>& shape, const std::vector<std::int64_t>& idx,
                       const std::string& input, const std::string& path, const std::string& name) {
  const std::string quoted = st_detail::st_quoted(name);
  if (idx.size() > shape.size())
    throw Error(fmt::format("--input '{}': tensor {} has {} axes ({}), fewer than the {} indices given",
                            printable(input), quoted, shape.size(), st_shape_text(shape), idx.size()));
  Selection s;
  for (std::size_t a = 0; a < idx.size(); ++a) {
    const auto n = static_cast<std::int64_t>(shape[a]);
    const std::int64_t i = idx[a] < 0 ? idx[a] + n : idx[a];
    if (i < 0 || i >= n)
      throw Error(fmt::format("--input '{}': index {} is outside axis {} of tensor {} (size {}; shape {})",
                              printable(input), idx[a], a, quoted, n, st_shape_text(shape)));
    s.first = s.first * shape[a] + static_cast<std::uint64_t>(i);
  }
  s.rest.assign(shape.begin() + static_cast<std::ptrdiff_t>(idx.size()), shape.end());
  if (s.rest.size() > 2)
    throw Error(fmt::format("--input '{}': tensor {} is {}-D {}{}, and posenc reads 2-D tables (rows = positions): {}",
                            printable(input), quoted, shape.size(), st_shape_text(shape),
                            idx.empty() ? "" : fmt::format(" ({} after the selection)", st_shape_text(s.rest)),
                            selector_hint(path, name, shape)));
  for (const std::uint64_t d : s.rest) s.count *= d;
  if (s.count == 0)
    throw Error(fmt::format("--input '{}': tensor {} holds no values (shape {})", printable(input), quoted,
                            st_shape_text(shape)));
  s.first *= s.count;
  return s;
}

class StInputSource final : public st_detail::TensorInputSource {
 public:
  StInputSource(StCheckpoint c, const StTensor& t) : c_(std::move(c)), reader_(c_, t) {}
  void read(std::uint64_t at, std::span<float> out) const override { reader_.read(at, out); }
  void read(std::uint64_t at, std::span<double> out) const override { reader_.read(at, out); }

 private:
  StCheckpoint c_;
  StTensorReader reader_;
};

class GgufInputSource final : public st_detail::TensorInputSource {
 public:
  GgufInputSource(GgufFile f, std::size_t tensor) : f_(std::move(f)), reader_(f_, f_.tensors[tensor]) {}
  void read(std::uint64_t at, std::span<float> out) const override { reader_.read(at, out); }
  void read(std::uint64_t at, std::span<double> out) const override {
    thread_local std::vector<float> buf;
    constexpr std::size_t kStep = 16384;
    buf.resize(std::min(kStep, out.size()));
    for (std::size_t done = 0; done < out.size(); done += kStep) {
      const std::size_t n = std::min(kStep, out.size() - done);
      reader_.read(at + done, std::span<float>(buf.data(), n));
      std::copy(buf.begin(), buf.begin() + static_cast<std::ptrdiff_t>(n), out.begin() + static_cast<std::ptrdiff_t>(done));
    }
  }

 private:
  GgufFile f_;
  GgufTensorReader reader_;
};

[[noreturn]] void no_such_tensor(const std::string& input, const std::string& path, const std::string& base,
                                 std::vector<std::string> names) {
  throw Error(fmt::format("--input '{}': no tensor {} in '{}'{} ('posenc tensors {}' lists its {})", printable(input),
                          st_detail::st_quoted(base), path, did_you_mean(base, names), path,
                          counted(static_cast<std::int64_t>(names.size()), "tensor", "tensors")));
}

/// FILE.gguf:NAME[i…]: one tensor of a llama.cpp file (its values dequantised as
/// gguf_tensors.hpp says), shape in PyTorch order; the same selector rules as a safetensors
/// tensor.
std::unique_ptr<st_detail::TensorInputSource> open_gguf_input(const std::string& path, const std::string& name,
                                                              const std::string& input) {
  GgufFile f;
  try {
    f = read_gguf(path);
  } catch (const Error& e) {
    throw Error(fmt::format("--input {}", e.what()));
  }
  std::string base = name;
  std::vector<std::int64_t> idx;
  const GgufTensorInfo* t = f.tensor(name);
  if (t == nullptr && parse_selector(name, base, idx)) t = f.tensor(base);
  if (t == nullptr) {
    std::vector<std::string> names;
    for (const auto& x : f.tensors) names.push_back(x.name);
    no_such_tensor(input, path, base, std::move(names));
  }
  std::vector<std::uint64_t> shape(t->dims.rbegin(), t->dims.rend());  // PyTorch order
  const Selection s = select_table(shape, idx, input, path, t->name);
  const std::size_t at = static_cast<std::size_t>(t - f.tensors.data());
  std::unique_ptr<GgufInputSource> src;
  try {
    src = std::make_unique<GgufInputSource>(std::move(f), at);
  } catch (const Error& e) {
    throw Error(fmt::format("--input {}", e.what()));
  }
  src->first = s.first, src->count = s.count, src->rest = s.rest;
  return src;
}

}  // namespace

namespace st_detail {

std::unique_ptr<TensorInputSource> open_tensor_input(const std::string& path, const std::string& name,
                                                     const std::string& input) {
  if (is_gguf_path(path)) return open_gguf_input(path, name, input);
  StCheckpoint c;
  try {
    c = open_safetensors(path);
  } catch (const Error& e) {
    throw Error(fmt::format("--input {}", e.what()));
  }
  const StTensor* t = c.find(name);
  std::string base = name;
  std::vector<std::int64_t> idx;
  if (t == nullptr && parse_selector(name, base, idx)) t = c.find(base);
  if (t == nullptr) {
    std::vector<std::string> names;
    for (const auto& x : c.tensors) names.push_back(x.name);
    no_such_tensor(input, path, base, std::move(names));
  }
  const Selection s = select_table(t->shape, idx, input, path, t->name);
  const StTensor tensor = *t;
  std::unique_ptr<StInputSource> src;
  try {
    src = std::make_unique<StInputSource>(std::move(c), tensor);
  } catch (const Error& e) {
    throw Error(fmt::format("--input {}", e.what()));
  }
  src->first = s.first, src->count = s.count, src->rest = s.rest;
  return src;
}

}  // namespace st_detail

NpyArray read_tensor_table(const std::string& path, const std::string& name, const std::string& input) {
  const auto src = st_detail::open_tensor_input(path, name, input);
  check_memory(src->count, sizeof(double), fmt::format("tensor '{}' ({} values)", name, src->count));
  std::vector<double> v(static_cast<std::size_t>(src->count));
  try {
    src->read(src->first, std::span<double>(v));
  } catch (const Error& e) {
    throw Error(fmt::format("--input {}", e.what()));
  }
  NpyArray a;
  const std::size_t rows = src->rest.empty() ? 1 : static_cast<std::size_t>(src->rest[0]);
  const std::size_t cols = src->rest.size() == 2 ? static_cast<std::size_t>(src->rest[1]) : 1;
  for (const std::uint64_t d : src->rest) a.shape.push_back(static_cast<std::size_t>(d));
  a.values = Matrix(rows, cols, std::move(v));
  return a;
}

}  // namespace posenc::formats
