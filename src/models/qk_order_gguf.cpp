// The GGUF-only checks of the order check (qk_order.hpp; weights.md §3.6): the stored rope
// tensors against the file's own keys.
#include <fmt/format.h>

#include <cmath>

#include "posenc/error.hpp"
#include "posenc/formats/gguf.hpp"
#include "posenc/models/qk_order.hpp"
#include "posenc/models/llama_arch.hpp"
#include "posenc/models/qk_weights.hpp"

namespace posenc::models {

QkOrderReport check_gguf_rope_tensors(const std::string& gguf) {
  if (!formats::is_gguf_path(gguf)) throw Error(fmt::format("--config-b '{}' is not a GGUF file", gguf));
  const formats::GgufFile f = formats::read_gguf(gguf);
  const formats::GgufKv* arch = f.find("general.architecture");
  if (!arch || arch->value.type != formats::GgufType::kString)
    throw Error(fmt::format("'{}': key 'general.architecture' is absent, so the rope keys cannot be found", gguf));
  QkOrderReport r;
  r.gguf_path = gguf;
  r.arch = arch->value.text;
  const auto number = [&](const std::string& key, double fallback) {
    const formats::GgufKv* kv = f.find(r.arch + "." + key);
    return kv && kv->value.is_numeric() ? kv->value.number : fallback;
  };
  r.layers = static_cast<std::int64_t>(number("block_count", 0));
  r.heads = static_cast<std::int64_t>(number("attention.head_count", 0));
  r.kv_heads = static_cast<std::int64_t>(number("attention.head_count_kv", static_cast<double>(r.heads)));
  const double embd = number("embedding_length", 0);
  r.head_dim = static_cast<std::int64_t>(number("attention.key_length", r.heads > 0 ? embd / static_cast<double>(r.heads) : 0));
  r.rotary_dim = static_cast<std::int64_t>(number("rope.dimension_count", static_cast<double>(r.head_dim)));
  const LlamaArch* la = find_llama_arch(r.arch);
  r.rope_type = la ? fmt::format("llama.cpp rope type {} of architecture {}", to_string(la->rope), r.arch)
                   : fmt::format("architecture {} (not in llama.cpp's table posenc knows)", r.arch);
  const std::uint64_t pairs = static_cast<std::uint64_t>(r.rotary_dim / 2);
  const std::string dims_key = r.arch + ".rope.dimension_count";
  bool any = false;
  for (const char* name : {"rope_freqs.weight", "rope_factors_long.weight", "rope_factors_short.weight"}) {
    const formats::GgufTensorInfo* t = f.tensor(name);
    if (!t) continue;
    any = true;
    const bool shape_ok = t->dims.size() == 1 && t->dims[0] == pairs;
    r.checks.push_back({fmt::format("{}: {} values for {} = {} ({} pairs)", name, t->elements, dims_key, r.rotary_dim,
                                    pairs),
                        shape_ok});
    if (!shape_ok || t->type != 0) {
      if (t->type != 0)
        r.checks.push_back({fmt::format("{}: type {} (the converter writes F32)", name, formats::ggml_type_name(t->type)),
                            false});
      continue;
    }
    const std::vector<float> v = formats::read_gguf_f32(f, *t);
    std::size_t bad = 0;
    for (const float x : v) bad += !(std::isfinite(x) && x > 0);
    r.checks.push_back({fmt::format("{}: every value finite and positive{}", name,
                                    bad == 0 ? std::string() : fmt::format(" ({} are not)", bad)),
                        bad == 0});
    if (std::string_view(name) == "rope_freqs.weight") {
      // llama3 divisors: 1 at the high frequencies, the factor at the low ones, never below 1
      // (LlamaModel.generate_extra_tensors), and not decreasing with the pair index.
      bool monotone = true, at_least_one = true;
      for (std::size_t i = 0; i < v.size(); ++i) {
        at_least_one = at_least_one && v[i] >= 1.0f;
        if (i > 0 && v[i] < v[i - 1]) monotone = false;
      }
      r.checks.push_back({fmt::format("rope_freqs.weight: divisors ≥ 1 and not decreasing with the pair (llama3 rule: "
                                      "first {}, last {})",
                                      v.empty() ? 0.0f : v.front(), v.empty() ? 0.0f : v.back()),
                          monotone && at_least_one});
    }
  }
  if (!any)
    r.notes.push_back("the file stores no rope_freqs or rope_factors_* tensor; the q/k row order needs the Hugging Face "
                      "folder: give it with --config-a");
  r.notes.push_back("without --config-a the q/k row order is not checked (it needs the Hugging Face weights)");
  return r;
}

}  // namespace posenc::models
