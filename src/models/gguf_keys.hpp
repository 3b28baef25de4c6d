#pragma once
// The keys of one architecture in a GGUF file ("{arch}.rope.freq_base"), read with the checks
// every models/ reader of GGUF keys shares: a number or a count in range, else Error naming the
// key and its byte offset. Private to src/models (model_gguf.cpp, gguf_layers.cpp).
#include <fmt/format.h>

#include <cmath>
#include <cstdint>
#include <optional>
#include <string>

#include "posenc/error.hpp"
#include "posenc/formats/gguf.hpp"

namespace posenc::models::detail {

class GgufKeys {
 public:
  GgufKeys(const formats::GgufFile& f, std::string arch) : f_(f), arch_(std::move(arch)) {}
  std::string key(const std::string& suffix) const { return arch_ + "." + suffix; }
  const formats::GgufKv* get(const std::string& suffix) const { return f_.find(key(suffix)); }
  /// A numeric key's value (nullopt when absent); Error naming the key and its byte offset otherwise.
  std::optional<double> number(const std::string& suffix) const {
    const formats::GgufKv* kv = get(suffix);
    if (kv == nullptr) return std::nullopt;
    if (!kv->value.is_numeric() || kv->value.type == formats::GgufType::kBool)
      throw Error(fmt::format("{}: byte {}: key {} must be a number (got {})", f_.name, kv->offset, kv->key,
                              kv->value.type_text()));
    return kv->value.number;
  }
  /// A count key within [lo, hi] (nullopt when absent).
  std::optional<std::int64_t> count(const std::string& suffix, std::int64_t lo, std::int64_t hi) const {
    const auto v = number(suffix);
    if (!v) return std::nullopt;
    if (!(*v >= static_cast<double>(lo) && *v <= static_cast<double>(hi)) || std::floor(*v) != *v)
      throw Error(fmt::format("{}: byte {}: key {} must be an integer within [{}, {}] (got {})", f_.name,
                              get(suffix)->offset, key(suffix), lo, hi, *v));
    return static_cast<std::int64_t>(*v);
  }
  std::string from(const std::string& suffix) const { return "GGUF " + key(suffix); }
  const std::string& name() const { return f_.name; }

 private:
  const formats::GgufFile& f_;
  std::string arch_;
};

}  // namespace posenc::models::detail
