// `posenc model` with weights (see model_weights.hpp): finds each mechanism's stored tensor in a
// safetensors checkpoint next to the config, or in the .gguf itself, and applies the family's row
// rule (model_weights_rules.cpp).
#include "posenc/models/model_weights.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <memory>

#include "model_weights_internal.hpp"
#include "posenc/error.hpp"
#include "posenc/formats/gguf.hpp"
#include "posenc/formats/gguf_tensors.hpp"
#include "posenc/formats/safetensors.hpp"

namespace posenc::models {
namespace detail {

const StoredTensor* StoredWeights::find(const std::string& key, std::string* ambiguous) const {
  // The key as the config's class saves it ("model.decoder.embed_positions.weight"), else ever
  // shorter suffixes of it down to two components ("wpe.weight": openai-community/gpt2 saves
  // its names without "transformer."); a suffix two tensors end with is not taken.
  std::string_view k = key;
  while (true) {
    const StoredTensor* hit = nullptr;
    int count = 0;
    for (const auto& t : tensors)
      if (t.name == k || (t.name.size() > k.size() && t.name.ends_with(k) && t.name[t.name.size() - k.size() - 1] == '.')) {
        hit = hit == nullptr ? &t : hit;
        ++count;
      }
    if (count == 1) return hit;
    if (count > 1) {
      if (ambiguous != nullptr) *ambiguous = std::string(k);
      return nullptr;
    }
    const auto dot = k.find('.');
    if (dot == std::string_view::npos || k.find('.', dot + 1) == std::string_view::npos) return nullptr;
    k = k.substr(dot + 1);
  }
}

namespace {

bool holds_safetensors(const std::filesystem::path& dir) {
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(dir, ec)) {
    const std::string name = e.path().filename().string();
    if (name.ends_with(".safetensors") || name.ends_with(".safetensors.index.json")) return true;
  }
  return false;
}

StoredWeights safetensors_weights(const std::string& dir) {
  auto c = std::make_shared<formats::StCheckpoint>(formats::open_safetensors(dir));
  StoredWeights w;
  w.source = c->index_path.empty() ? (c->files.empty() ? dir : c->files.front().path) : c->index_path;
  for (const auto& t : c->tensors) {
    const formats::StTensor* tp = &t;
    w.tensors.push_back({t.name, std::string(formats::to_string(t.dtype)), t.shape,
                         [c, tp] { return formats::read_tensor(*c, *tp); }});
  }
  return w;
}

StoredWeights gguf_weights(const std::string& path) {
  auto f = std::make_shared<formats::GgufFile>(formats::read_gguf(path));
  StoredWeights w;
  w.source = path;
  w.gguf = f;
  for (const auto& t : f->tensors) {
    const formats::GgufTensorInfo* tp = &t;
    std::vector<std::uint64_t> shape(t.dims.rbegin(), t.dims.rend());
    w.tensors.push_back({t.name, formats::ggml_type_name(t.type), shape, [f, tp] {
                           const auto d = formats::read_gguf_tensor(*f, *tp);
                           return std::vector<double>(d.values.begin(), d.values.end());
                         }});
  }
  return w;
}

}  // namespace
}  // namespace detail

void attach_weights(ModelReport& r, const std::string& path) {
  detail::StoredWeights w;
  if (r.input == "gguf") {
    w = detail::gguf_weights(path);
  } else {
    std::filesystem::path dir(path);
    std::error_code ec;
    if (!std::filesystem::is_directory(dir, ec)) dir = dir.parent_path();
    if (dir.empty()) dir = ".";
    if (!detail::holds_safetensors(dir)) return;
    w = detail::safetensors_weights(dir.string());
  }
  if (w.tensors.empty()) return;
  bool any = false;
  for (auto& m : r.mechanisms) any = detail::attach_mechanism_weights(r, m, w) || any;
  if (any) r.weights_source = w.source;
}

}  // namespace posenc::models
