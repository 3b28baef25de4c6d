// `posenc tensors`: the tensors of a safetensors checkpoint or a GGUF file (see tensor_list.hpp).
#include "posenc/formats/tensor_list.hpp"

#include <fnmatch.h>

#include <algorithm>
#include <filesystem>

#include "posenc/formats/gguf.hpp"
#include "posenc/formats/safetensors.hpp"

namespace posenc::formats {

namespace {

bool tensor_kept(const std::string& glob, const std::string& name) {
  return glob.empty() || ::fnmatch(glob.c_str(), name.c_str(), 0) == 0;
}

void add_listing_metadata(TensorListing& l, const std::vector<std::pair<std::string, std::string>>& kv) {
  for (const auto& p : kv)
    if (std::find(l.metadata.begin(), l.metadata.end(), p) == l.metadata.end()) l.metadata.push_back(p);
}

TensorListing list_gguf(const std::string& path, const std::string& glob) {
  const GgufFile g = read_gguf(path);
  TensorListing l;
  l.path = path;
  l.format = "gguf";
  l.file_names.push_back(std::filesystem::path(path).filename().string());
  for (const auto& kv : g.kvs) l.metadata.emplace_back(kv.key, kv.value.to_text());
  l.tensors.reserve(g.tensors.size());
  for (const auto& t : g.tensors) {
    ++l.total;
    l.total_bytes += t.bytes;
    if (!tensor_kept(glob, t.name)) continue;
    // ggml's ne[0] is the innermost (fastest) axis: PyTorch's last.
    l.tensors.push_back({t.name, ggml_type_name(t.type), {t.dims.rbegin(), t.dims.rend()}, t.bytes, 0});
  }
  return l;
}

}  // namespace

TensorListing list_tensors(const std::string& path, const std::string& glob) {
  if (is_gguf_path(path)) return list_gguf(path, glob);
  StCheckpoint c = open_safetensors(path);
  TensorListing l;
  l.path = path;
  l.format = "safetensors";
  l.files = c.files.size();
  add_listing_metadata(l, c.index_metadata);
  for (const auto& f : c.files) {
    add_listing_metadata(l, f.metadata);
    l.file_names.push_back(std::filesystem::path(f.path).filename().string());
  }
  l.tensors.reserve(c.tensors.size());
  for (auto& t : c.tensors) {
    ++l.total;
    l.total_bytes += t.bytes();
    if (!tensor_kept(glob, t.name)) continue;
    l.tensors.push_back({std::move(t.name), std::string(to_string(t.dtype)), std::move(t.shape), t.bytes(), t.file});
  }
  return l;
}

}  // namespace posenc::formats
