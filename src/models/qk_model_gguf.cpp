// A GGUF file's q/k geometry (qk_weights.hpp): the {arch}.* keys for the head counts and the
// rope, llama.cpp's rope type of the architecture for the pairing of the stored rows.
#include <fmt/format.h>

#include "posenc/error.hpp"
#include "posenc/models/llama_arch.hpp"
#include "posenc/models/qk_weights.hpp"
#include "qk_files.hpp"

namespace posenc::models {
namespace {

/// A numeric key (an array whose elements are all equal counts as that value), or `fallback`.
double qk_gguf_number(const formats::GgufFile& f, const std::string& key, double fallback, bool required) {
  const formats::GgufKv* kv = f.find(key);
  if (!kv) {
    if (required)
      throw Error(fmt::format("'{}': key '{}' is absent, so the q/k head layout cannot be determined", f.name, key));
    return fallback;
  }
  if (kv->value.is_numeric()) return kv->value.number;
  if (kv->value.type == formats::GgufType::kArray && kv->value.elements_kept && !kv->value.numbers.empty()) {
    for (const double v : kv->value.numbers)
      if (v != kv->value.numbers.front())
        throw Error(fmt::format("'{}': key '{}' differs between layers ({}): posenc usage needs one value", f.name, key,
                                kv->value.to_text()));
    return kv->value.numbers.front();
  }
  throw Error(fmt::format("'{}': key '{}' must be a number (got {})", f.name, key, kv->value.type_text()));
}

}  // namespace

QkModel open_gguf_qk_model(const std::string& path) {
  auto files = std::make_shared<QkFiles>();
  files->gguf = formats::read_gguf(path);
  const formats::GgufFile& g = *files->gguf;
  const formats::GgufKv* arch_kv = g.find("general.architecture");
  if (!arch_kv || arch_kv->value.type != formats::GgufType::kString)
    throw Error(fmt::format("'{}': key 'general.architecture' is absent, so the model's rope type is unknown", path));
  const std::string arch = arch_kv->value.text;
  const LlamaArch* la = find_llama_arch(arch);
  if (!la)
    throw Error(fmt::format("'{}': architecture '{}' is not in llama.cpp's table posenc knows, so the pairing of its "
                            "q/k rows is unknown",
                            path, arch));
  if (la->rope == LlamaRopeType::kNone)
    throw Error(fmt::format("'{}': llama.cpp runs architecture '{}' without RoPE (rope type NONE): no pairs to analyse",
                            path, arch));
  QkModel m;
  m.path = path;
  m.gguf = true;
  m.files = files;
  m.model_type = arch;
  const auto key = [&](const char* k) { return arch + "." + k; };
  m.layers = static_cast<std::int64_t>(qk_gguf_number(g, key("block_count"), 0, true));
  m.heads = static_cast<std::int64_t>(qk_gguf_number(g, key("attention.head_count"), 0, true));
  m.kv_heads = static_cast<std::int64_t>(qk_gguf_number(g, key("attention.head_count_kv"), static_cast<double>(m.heads), false));
  m.hidden = static_cast<std::int64_t>(qk_gguf_number(g, key("embedding_length"), 0, true));
  if (m.heads <= 0 || m.kv_heads <= 0 || m.heads % m.kv_heads != 0 || m.layers <= 0)
    throw Error(fmt::format("'{}': {} {} is not a multiple of {} {} (or a count is 0)", path, key("attention.head_count"),
                            m.heads, key("attention.head_count_kv"), m.kv_heads));
  // Without attention.key_length: attn_q's rows per head (llama.cpp's default, n_embd / n_head,
  // is wrong for models whose heads are not hidden / heads wide).
  std::int64_t q_rows_per_head = m.hidden / m.heads;
  if (const formats::GgufTensorInfo* q = g.tensor("blk.0.attn_q.weight"); q && q->dims.size() == 2)
    q_rows_per_head = static_cast<std::int64_t>(q->dims[1]) / m.heads;
  m.head_dim = static_cast<std::int64_t>(qk_gguf_number(g, key("attention.key_length"), static_cast<double>(q_rows_per_head), false));
  m.rotary_dim = static_cast<std::int64_t>(qk_gguf_number(g, key("rope.dimension_count"), static_cast<double>(m.head_dim), false));
  m.base = qk_gguf_number(g, key("rope.freq_base"), 10000.0, false);
  const double orig = qk_gguf_number(g, key("rope.scaling.original_context_length"), 0, false);
  const double ctx = qk_gguf_number(g, key("context_length"), 0, false);
  m.train_len = static_cast<std::int64_t>(orig > 0 ? orig : ctx);
  m.train_len_source = orig > 0 ? key("rope.scaling.original_context_length") : key("context_length");
  m.layout = rope_type_is_half(la->rope) ? rope::RopeLayout::kHalf : rope::RopeLayout::kInterleaved;
  m.layout_source = fmt::format("llama.cpp rope type {} of architecture {}", to_string(la->rope), arch);
  m.layer_base.assign(static_cast<std::size_t>(m.layers), m.base);
  m.notes.push_back("GGUF: every layer is analysed with " + key("rope.freq_base") +
                    " (per-layer bases and NoPE layers of a GGUF are not read)");

  QkFiles& f = *files;
  const std::string b = "blk.{}.";
  f.norm = b + "attn_norm.weight";  // the converter stores Gemma's 1 + γ already
  if (g.tensor("blk.0.attn_kv_a_mqa.weight")) {
    f.mla = true;
    f.mla_lora = g.tensor("blk.0.attn_q_a.weight") != nullptr;
    f.q = b + (f.mla_lora ? "attn_q_b.weight" : "attn_q.weight");
    f.q_a = b + "attn_q_a.weight";
    f.q_a_norm = b + "attn_q_a_norm.weight";
    f.k = b + "attn_kv_a_mqa.weight";
    f.kv_lora_rank = static_cast<std::int64_t>(qk_gguf_number(g, key("attention.kv_lora_rank"), 0, true));
    m.kv_heads = 1;
    m.qk_source = "MLA: attn_q(_b) rope rows, attn_kv_a_mqa rope rows";
  } else if (g.tensor("blk.0.attn_q.weight")) {
    f.q = b + "attn_q.weight";
    f.k = b + "attn_k.weight";
    f.q_norm = b + "attn_q_norm.weight";
    f.k_norm = b + "attn_k_norm.weight";
    m.qk_source = "attn_q / attn_k";
  } else if (g.tensor("blk.0.attn_qkv.weight")) {
    f.kind = QkFiles::Kind::kFusedBlocks;
    f.q = b + "attn_qkv.weight";
    m.qk_source = "attn_qkv split as [q | k | v]";
  } else {
    throw Error(fmt::format("'{}': no blk.0.attn_q, attn_qkv or attn_kv_a_mqa tensor: the q/k projections were not "
                            "found; list the tensors with 'posenc tensors {}'",
                            path, path));
  }
  m.gain_source = "attn_norm.weight";
  return m;
}

}  // namespace posenc::models
