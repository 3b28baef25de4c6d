// `posenc model FILE.gguf` (see model_gguf.hpp): what llama.cpp uses for a GGUF file. The rope of
// the full-attention layers is models::gguf_rope_config's; this file adds what varies per
// layer (sliding-window bases, layers without RoPE) and the mechanisms without RoPE (ALiBi, T5
// buckets, learned tables), as llama.cpp's load_hparams and model graphs decide them.
#include "posenc/models/model_gguf.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>

#include "model_internal.hpp"
#include "posenc/models/llama_arch.hpp"
#include "posenc/rope/rope_config.hpp"
#include "gguf_keys.hpp"
#include "posenc/error.hpp"
#include "posenc/formats/gguf.hpp"
#include "posenc/models/gguf_layers.hpp"
#include "posenc/models/layers.hpp"

namespace posenc::models {
namespace {

using rope::RopeConfig;
using formats::GgufType;

using GgufKeys = detail::GgufKeys;

/// ggml_soft_max_ext's ALiBi slopes (ggml-cpu ops.cpp, float32): n = 2^floor(log2 heads),
/// m0 = 2^(-max_bias/n), m1 = 2^(-max_bias/2/n); head h < n: m0^(h+1), else m1^(2(h-n)+1).
std::vector<double> ggml_alibi_slopes(std::int64_t heads, float max_bias) {
  const auto n = static_cast<std::int64_t>(1) << static_cast<int>(std::floor(std::log2(static_cast<double>(heads))));
  const float m0 = std::pow(2.0f, -max_bias / static_cast<float>(n));
  const float m1 = std::pow(2.0f, -(max_bias / 2.0f) / static_cast<float>(n));
  std::vector<double> s;
  for (std::int64_t h = 0; h < heads; ++h)
    s.push_back(h < n ? std::pow(m0, static_cast<float>(h + 1)) : std::pow(m1, static_cast<float>(2 * (h - n) + 1)));
  return s;
}

void add_alibi(const GgufKeys& k, const std::string& arch, std::int64_t n_layer, ModelReport& r) {
  double bias = 8;
  std::string bias_source = fmt::format("llama.cpp: max_bias 8 hard-coded for {}", arch);
  if (arch == "mpt" || arch == "jais") {
    const auto b = k.number("attention.max_alibi_bias");
    bias = b.value_or(0.0);
    bias_source = b ? k.from("attention.max_alibi_bias")
                    : fmt::format("llama.cpp default: f_max_alibi_bias = 0 (no {})", k.key("attention.max_alibi_bias"));
    if (!(bias > 0)) {
      r.notes.push_back(fmt::format("{} = {}: llama.cpp runs this {} model without ALiBi, so without any position "
                                    "information (a conversion of a config with \"alibi\": false)",
                                    k.key("attention.max_alibi_bias"), bias, arch));
      return;
    }
  }
  const auto heads = k.count("attention.head_count", 1, 65536);
  if (!heads) throw Error(fmt::format("{}: no {} (ALiBi needs the head count)", r.source, k.key("attention.head_count")));
  MechanismUse m{Mechanism::kAlibi, "every layer", "", {}, {}, {}, ""};
  m.values = {{"heads", *heads}, {"slopes", ggml_alibi_slopes(*heads, static_cast<float>(bias))},
              {"codebase", std::string("ggml")}, {"alibi_bias_max", bias}};
  m.sources = {{"heads", k.from("attention.head_count")}, {"alibi_bias_max", bias_source},
               {"slopes", "ggml_soft_max_ext: m0^(h+1) for h < 2^floor(log2 heads), then odd powers of m1 (float32)"}};
  m.notes.push_back("ggml adds slope·(key position) to the logits (the causal form up to a per-row constant)");
  m.command = fmt::format("posenc generate alibi --heads {} --form causal", *heads);
  (void)n_layer;
  r.mechanisms.push_back(std::move(m));
}

void add_t5(const GgufKeys& k, const std::string& arch, ModelReport& r) {
  const auto buckets = k.count("attention.relative_buckets_count", 2, 1 << 20);
  if (!buckets)
    throw Error(fmt::format("{}: no {} (llama.cpp requires it for {})", r.source,
                            k.key("attention.relative_buckets_count"), arch));
  for (const bool decoder : {false, true}) {
    if (decoder && arch == "t5encoder") break;
    const std::string stack = decoder ? "decoder" : "encoder";
    MechanismUse m{Mechanism::kT5, stack, stack, {}, {}, {}, ""};
    const std::int64_t nb = decoder ? *buckets : *buckets / 2;
    m.values = {{"num_buckets", *buckets}, {"max_distance", std::int64_t{128}}, {"bidirectional", !decoder},
                {"max_exact", nb / 2}};
    m.sources = {{"num_buckets", k.from("attention.relative_buckets_count")},
                 {"max_distance", "llama.cpp: 128 hard-coded (llama_relative_position_bucket); the file cannot hold "
                                  "relative_attention_max_distance"}};
    m.notes.push_back("the bias table is in layer 0 of the stack (enc.blk.0 / dec.blk.0 attn_rel_b), shared by every layer");
    m.command = fmt::format("posenc generate t5 --buckets {} --max-distance 128{}", *buckets, decoder ? " --causal" : "");
    r.mechanisms.push_back(std::move(m));
  }
}

void add_learned(const formats::GgufFile& f, const GgufKeys& k, const std::string& arch, ModelReport& r) {
  const auto ctx = k.count("context_length", 1, std::int64_t{1} << 31);
  const auto width = k.count("embedding_length", 1, std::int64_t{1} << 31);
  if (!ctx || !width)
    throw Error(fmt::format("{}: no {} (llama.cpp requires it)", r.source,
                            k.key(ctx ? "embedding_length" : "context_length")));
  MechanismUse m{Mechanism::kLearned, "embeddings", "", {}, {}, {}, ""};
  std::int64_t rows = *ctx;
  std::string rows_source = k.from("context_length") + " (llama.cpp creates position_embd {n_embd, n_ctx_train})";
  if (const formats::GgufTensorInfo* t = f.tensor("position_embd.weight"); t != nullptr && t->dims.size() == 2) {
    rows = static_cast<std::int64_t>(t->dims[1]);
    rows_source = fmt::format("GGUF tensor position_embd.weight {}[{}, {}]", formats::ggml_type_name(t->type), t->dims[0],
                              t->dims[1]);
  }
  m.values = {{"rows", rows}, {"positions", rows}, {"width", *width}, {"offset", std::int64_t{0}},
              {"weight", std::string("position_embd.weight")}};
  m.sources = {{"rows", rows_source}, {"width", k.from("embedding_length")}};
  m.notes.push_back(fmt::format("llama.cpp {} adds row t of position_embd.weight to the token embedding of position t",
                                arch));
  m.notes.push_back(f.tensor("position_embd.weight") != nullptr
                        ? "the trained table is in this file: dump it to .npy and pass it with 'posenc generate --input "
                          "table.npy'"
                        : "this file holds no tensors (vocab-only): the trained values are in the full model file");
  m.command = fmt::format("posenc generate learned --max-len {} --dim {}", rows, *width);
  r.mechanisms.push_back(std::move(m));
}

/// ggml's M-RoPE: which position each pair follows (0 t, 1 h, 2 w, 3 e); sector = pair % sum.
void add_mrope(const GgufKeys& k, const std::string& rope_type, const RopeConfig& c, ModelReport& r) {
  const formats::GgufKv* kv = k.get("rope.dimension_sections");
  if (kv == nullptr) return;
  if (kv->value.type != GgufType::kArray || !kv->value.elements_kept || kv->value.numbers.size() > 4)
    throw Error(fmt::format("{}: byte {}: key {} must be an array of at most 4 integers (got {})", r.source, kv->offset,
                            kv->key, kv->value.type_text()));
  std::vector<std::int64_t> sec;
  for (double v : kv->value.numbers) {
    if (!(v >= 0 && v <= 65536) || std::floor(v) != v)
      throw Error(fmt::format("{}: byte {}: key {} must hold integers within [0, 65536] (got {})", r.source, kv->offset,
                              kv->key, kv->value.to_text()));
    sec.push_back(static_cast<std::int64_t>(v));
  }
  sec.resize(4, 0);
  const std::int64_t sum = sec[0] + sec[1] + sec[2] + sec[3];
  const bool interleaved = rope_type == "IMROPE";
  const std::int64_t pairs = c.rotary_dim / 2;
  std::vector<std::int64_t> axis(static_cast<std::size_t>(pairs), 0);
  for (std::int64_t i = 0; i < pairs && sum > 0; ++i) {
    const std::int64_t s = i % sum;
    std::int64_t a = 3;
    if (interleaved) {
      if (s % 3 == 1 && s < 3 * sec[1]) a = 1;
      else if (s % 3 == 2 && s < 3 * sec[2]) a = 2;
      else if (s % 3 == 0 && s < 3 * sec[0]) a = 0;
    } else {
      a = s < sec[0] ? 0 : s < sec[0] + sec[1] ? 1 : s < sec[0] + sec[1] + sec[2] ? 2 : 3;
    }
    axis[static_cast<std::size_t>(i)] = a;
  }
  std::int64_t counts[4] = {0, 0, 0, 0};
  for (auto a : axis) ++counts[a];
  MechanismUse m{Mechanism::kMrope, "every rope layer", "", {}, {}, {}, ""};
  m.values = {{"mrope_section", sec}, {"interleaved", interleaved}, {"pair_axis", axis}, {"pairs_t", counts[0]},
              {"pairs_h", counts[1]}, {"pairs_w", counts[2]}, {"pairs_e", counts[3]}};
  m.sources = {{"mrope_section", k.from("rope.dimension_sections")},
               {"interleaved", fmt::format("llama.cpp rope type {}", rope_type)}};
  if (sum != pairs) m.notes.push_back(fmt::format("sections sum to {}, not n_rot/2 = {}", sum, pairs));
  m.notes.push_back("pair_axis: 0 = temporal (t), 1 = height (h), 2 = width (w), 3 = the fourth position (e); ggml: "
                    "sector = pair % sum(sections); text tokens use the same position on every axis");
  r.mechanisms.push_back(std::move(m));
}

void add_mla(const GgufKeys& k, const RopeConfig& c, ModelReport& r) {
  const auto mla = k.count("attention.key_length_mla", 1, 65536);
  const std::int64_t rope = c.rotary_dim;
  const std::int64_t q_head = mla.value_or(c.head_dim);
  double mscale = 1;
  if (c.scaling == rope::RopeScaling::kYarn && c.factor && *c.factor > 1 && c.mscale_all_dim)
    mscale = 1.0 + 0.1 * *c.mscale_all_dim * std::log(*c.factor);
  MechanismUse m{Mechanism::kMla, "every layer", "", {}, {}, {}, ""};
  m.values = {{"qk_rope_head_dim", rope}, {"qk_nope_head_dim", q_head - rope}, {"q_head_dim", q_head},
              {"softmax_scale", mscale * mscale / std::sqrt(static_cast<double>(q_head))}, {"softmax_mscale", mscale}};
  m.sources = {{"qk_rope_head_dim", k.from("rope.dimension_count")},
               {"q_head_dim", mla ? k.from("attention.key_length_mla")
                                  : fmt::format("no {}: the head size", k.key("attention.key_length_mla"))},
               {"softmax_mscale", "llama.cpp deepseek2 graph: 1 + 0.1·mscale_all_dim·ln(factor) (yarn), else 1"}};
  m.notes.push_back(fmt::format("only n_rot = {} of each {}-dim query/key head rotate", rope, q_head));
  r.mechanisms.push_back(std::move(m));
}

MechanismUse gguf_rope_use(const RopeConfig& c, const std::vector<std::int64_t>& layers, std::int64_t n_layer,
                           const std::string& type, const std::string& path) {
  MechanismUse m = detail::rope_use(c, layers, n_layer, type, "posenc rope --gguf " + path);
  for (const auto& s : c.sources) m.sources.emplace_back(s.name, s.source);
  return m;
}

void add_rope(const formats::GgufFile& f, const GgufKeys& k, const std::string& arch, const std::string& rope_type,
              const models::GgufTensorReader& read, std::int64_t n_layer, ModelReport& r) {
  RopeConfig c = models::gguf_rope_config(f, read);
  rope::finalize_rope_config(c, c.rotary_dim);
  r.gguf = c.gguf;
  const GgufLayers g = gguf_layers(f, c);
  const std::vector<std::int64_t>& nope = g.no_rope_layers;
  if (!g.layer_types.empty()) r.layer_types = g.layer_types;
  if (g.ropes.size() == 1 && g.ropes.front().layer_type.empty()) {
    r.mechanisms.push_back(gguf_rope_use(c, g.ropes.front().layers, n_layer, "", f.name));
  } else {
    std::erase_if(c.notes, [](const std::string& n) { return n.starts_with("sliding-window layers use base"); });
    for (const auto& rope : g.ropes) {
      if (rope.layer_type != "sliding_attention") continue;
      c.notes.push_back(fmt::format("sliding-window layers ({} of {}): see the sliding_attention rope", rope.layers.size(),
                                    n_layer));
    }
    for (const auto& rope : g.ropes) {
      MechanismUse use = gguf_rope_use(rope.layer_type == "sliding_attention" ? rope.rope : c, rope.layers, n_layer,
                                       rope.layer_type, f.name);
      if (rope.layer_type == "sliding_attention") {
        use.values.emplace_back("sliding_window", g.window);
        use.sources.emplace_back("sliding_window", g.sliding_window ? k.from("attention.sliding_window")
                                                                    : fmt::format("llama.cpp default n_swa = {} for {} (no key)",
                                                                                  g.window, arch));
        use.sources.emplace_back("layers", g.sliding_rule);
      }
      r.mechanisms.push_back(std::move(use));
    }
  }
  if (!nope.empty()) {
    MechanismUse m{Mechanism::kNope, detail::where_of(nope, n_layer, ""), "", nope, {}, {}, ""};
    m.values = {{"layers_without_rope", static_cast<std::int64_t>(nope.size())}};
    m.sources = {{"layers", g.no_rope_source}};
    if (arch == "llama4") {
      // llama4 graph: on NoPE layers q *= log(floor((pos + offset) / floor_scale) + 1) · scale + 1.
      const double floor_scale = 8192, attn_scale = 0.1;
      std::vector<double> at, t;
      for (double p : {0.0, floor_scale - 1, 16 * floor_scale - 1, 128 * floor_scale - 1}) {
        at.push_back(p);
        t.push_back(std::log(std::floor((p + 1.0) / floor_scale) + 1.0) * attn_scale + 1.0);
      }
      m.values.emplace_back("attn_temperature_tuning", true);
      m.values.emplace_back("floor_scale", floor_scale);
      m.values.emplace_back("attn_scale", attn_scale);
      m.values.emplace_back("temperature_positions", at);
      m.values.emplace_back("temperature", t);
      m.sources.emplace_back("floor_scale", "llama.cpp: n_attn_temp_floor_scale = 8192 for llama4 (no key)");
      m.sources.emplace_back("attn_scale", "llama.cpp: f_attn_temp_scale = 0.1, f_attn_temp_offset = 1 (no key)");
      m.notes.push_back("query temperature on NoPE layers: log(floor((position + 1) / floor_scale) + 1) · attn_scale + 1");
    }
    r.mechanisms.push_back(std::move(m));
  }
  if (arch == "deepseek2") add_mla(k, c, r);
  add_mrope(k, rope_type, c, r);
}

}  // namespace

ModelReport gguf_model(const formats::GgufFile& f, const models::GgufTensorReader& read) {
  auto g = models::gguf_header_source(f);
  ModelReport r;
  r.source = f.name;
  r.input = "gguf";
  r.convention = "ggml";
  r.model_type = g->architecture;
  const GgufKeys k(f, g->architecture);
  if (const auto* a = models::find_llama_arch(g->architecture); a != nullptr && !a->model_types.empty()) {
    const std::string first(a->model_types.substr(0, a->model_types.find(' ')));
    if (const Family* fam = find_family(first)) r.family = std::string(fam->name);
  }
  const auto n_layer = k.count("block_count", 1, detail::kMaxLayers);
  if (!n_layer) throw Error(fmt::format("{}: no {} (llama.cpp requires it)", f.name, k.key("block_count")));
  r.num_layers = *n_layer;
  const std::string& arch = g->architecture;
  const std::string_view other = models::llama_non_rope_position(arch, *n_layer);
  if (other == "alibi") {
    add_alibi(k, arch, *n_layer, r);
    if (arch == "baichuan") r.notes.push_back("baichuan with 40 layers (13B): llama.cpp uses ALiBi (max_bias 8), not RoPE");
  } else if (other == "t5") {
    add_t5(k, arch, r);
  } else if (other == "learned") {
    add_learned(f, k, arch, r);
  } else if (g->rope_type == "NONE") {
    throw Error(fmt::format("{}: llama.cpp runs architecture '{}' without position encoding (rope type NONE, no ALiBi, "
                            "no relative buckets, no position table): posenc has nothing to report",
                            f.name, arch));
  } else {
    add_rope(f, k, arch, g->rope_type, read, *n_layer, r);
  }
  if (!r.gguf) {
    if (const auto ctx = k.count("context_length", 1, std::int64_t{1} << 40)) g->n_ctx_train = g->n_ctx_orig = *ctx;
    g->scaling_type = "none";
    for (const auto& n : g->notes) r.notes.push_back(n);
    r.gguf = g;
  }
  return r;
}

ModelReport read_gguf_model(const std::string& path) {
  const formats::GgufFile f = formats::read_gguf(path);
  return gguf_model(f, [&](const formats::GgufTensorInfo& t) { return formats::read_gguf_f32(f, t); });
}

}  // namespace posenc::models
