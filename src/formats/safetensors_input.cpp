// `--input FILE.safetensors:NAME` (or a folder or index, :NAME[i] for a slice): one tensor as a
// table (see safetensors.hpp).
#include <fmt/format.h>

#include <charconv>
#include <filesystem>

#include "posenc/error.hpp"
#include "posenc/formats/gguf.hpp"
#include "posenc/formats/gguf_tensors.hpp"
#include "posenc/formats/safetensors.hpp"
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

/// The selected values as a table: a 2-D rest is rows × columns, a 1-D one a column, a scalar 1×1.
NpyArray selection_table(const Selection& s, std::vector<double> v) {
  const std::size_t rows = s.rest.empty() ? 1 : static_cast<std::size_t>(s.rest[0]);
  const std::size_t cols = s.rest.size() == 2 ? static_cast<std::size_t>(s.rest[1]) : 1;
  NpyArray a;
  for (const std::uint64_t d : s.rest) a.shape.push_back(static_cast<std::size_t>(d));
  a.values = Matrix(rows, cols, std::move(v));
  return a;
}

/// FILE.gguf:NAME[i…]: one tensor of a llama.cpp file, dequantised (gguf_tensors.hpp), shape in
/// PyTorch order; the same selector rules as a safetensors tensor.
NpyArray read_gguf_tensor_table(const std::string& path, const std::string& name, const std::string& input) {
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
    throw Error(fmt::format("--input '{}': no tensor {} in '{}'{} ('posenc tensors {}' lists its {})", printable(input),
                            st_detail::st_quoted(base), path, did_you_mean(base, names), path,
                            counted(static_cast<std::int64_t>(names.size()), "tensor", "tensors")));
  }
  GgufTensorData d;
  try {
    d = read_gguf_tensor(f, *t);
  } catch (const Error& e) {
    throw Error(fmt::format("--input {}", e.what()));
  }
  const Selection s = select_table(std::vector<std::uint64_t>(d.shape.begin(), d.shape.end()), idx, input, path, t->name);
  return selection_table(s, std::vector<double>(d.values.begin() + static_cast<std::ptrdiff_t>(s.first),
                                                d.values.begin() + static_cast<std::ptrdiff_t>(s.first + s.count)));
}

}  // namespace

NpyArray read_tensor_table(const std::string& path, const std::string& name, const std::string& input) {
  if (is_gguf_path(path)) return read_gguf_tensor_table(path, name, input);
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
    throw Error(fmt::format("--input '{}': no tensor {} in '{}'{} ('posenc tensors {}' lists its {})", printable(input),
                            st_detail::st_quoted(base), path, did_you_mean(base, names), path,
                            counted(static_cast<std::int64_t>(names.size()), "tensor", "tensors")));
  }
  const Selection s = select_table(t->shape, idx, input, path, t->name);
  std::vector<double> v;
  try {
    v = st_detail::read_elements(c, *t, s.first, s.count);  // only the selection's bytes
  } catch (const Error& e) {
    throw Error(fmt::format("--input {}", e.what()));
  }
  return selection_table(s, std::move(v));
}

}  // namespace posenc::formats
