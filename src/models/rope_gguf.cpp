// The RoPE settings llama.cpp uses for a GGUF file (see rope_gguf.hpp). Defaults and key
// handling follow llama.cpp's llama_model_base::load_hparams and llama_context setup
// (ggml-org/llama.cpp @ 81ff7abe50b95fb81cc70a6cdba1eb1a02a48f62, via ../shared/reference/gguf.md §2).
#include "posenc/models/rope_gguf.hpp"
#include "posenc/models/rope_settings.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "posenc/models/llama_arch.hpp"
#include "posenc/encodings/scheme.hpp"
#include "posenc/error.hpp"
#include "posenc/formats/gguf.hpp"

namespace posenc::models {

using namespace rope;  // settings are read into rope's RopeConfig
namespace {

using formats::GgufType;

/// Keys outside `{arch}.rope.*` that decide positions.
const std::set<std::string> kPositionKeys = {
    "context_length", "embedding_length", "block_count", "attention.head_count", "attention.head_count_kv",
    "attention.key_length", "attention.value_length", "attention.key_length_mla", "attention.value_length_mla",
    "attention.sliding_window", "attention.sliding_window_pattern", "attention.max_alibi_bias",
    "attention.relative_buckets_count", "attention.causal"};

class Resolver {
 public:
  Resolver(const formats::GgufFile& f, RopeGgufSource& g) : f_(f), g_(g) {}

  const formats::GgufKv* get(const std::string& suffix) const { return f_.find(g_.architecture + "." + suffix); }
  std::string key(const std::string& suffix) const { return g_.architecture + "." + suffix; }

  /// A numeric key; notes a type llama.cpp would refuse ("key ... has wrong type").
  std::optional<double> number(const std::string& suffix, GgufType want) {
    const formats::GgufKv* kv = get(suffix);
    if (kv == nullptr) return std::nullopt;
    const auto& v = kv->value;
    if (v.type == GgufType::kArray && v.elements_kept && !v.numbers.empty() && suffix == "attention.head_count")
      return v.numbers.front();  // per-layer head counts: llama.cpp's n_head() is layer 0's
    if (!v.is_numeric() || v.type == GgufType::kBool)
      throw Error(fmt::format("{}: byte {}: key {} must be a number (got {})", f_.name, kv->offset, kv->key, v.type_text()));
    if (v.type != want) {
      g_.notes.push_back(fmt::format("{} is stored as {}; llama.cpp requires {} and refuses to load the file (key "
                                     "has wrong type)",
                                     kv->key, formats::to_string(v.type), formats::to_string(want)));
      g_.load_errors.push_back(g_.notes.back());
    }
    return v.number;
  }
  std::int64_t length(const std::string& suffix, const char* what, double hi) {
    const formats::GgufKv* kv = get(suffix);
    const auto v = number(suffix, GgufType::kU32);
    if (v && (!(*v >= 1) || *v > hi || std::floor(*v) != *v))
      throw Error(fmt::format("{}: byte {}: {} must be an integer within [1, {}] ({}; got {})", f_.name, kv->offset,
                              kv->key, static_cast<std::int64_t>(hi), what, *v));
    return v ? static_cast<std::int64_t>(*v) : 0;
  }

 private:
  const formats::GgufFile& f_;
  RopeGgufSource& g_;
};

std::string quoted(const std::string& key) { return fmt::format("\"{}\"", key); }

/// llama_model_rope_type, with the load-time choice of glm4/glm4moe/hunyuan_vl (M-RoPE when
/// the file holds rope.dimension_sections).
LlamaRopeType rope_type_of(const formats::GgufFile& f, const LlamaArch& arch) {
  if (!arch.conditional.empty() && f.find(std::string(arch.name) + ".rope.dimension_sections") != nullptr)
    return LlamaRopeType::kMrope;
  return arch.rope;
}

/// What gguf_rope_config fills as it reads a file: the config, the GGUF record kept with it and
/// the key reader; `from_key` and `by_default` record where a setting came from.
struct GgufRopeReading {
  const formats::GgufFile& f;
  RopeGgufSource& g;
  RopeConfig& c;
  Resolver r;

  GgufRopeReading(const formats::GgufFile& file, RopeGgufSource& source, RopeConfig& config)
      : f(file), g(source), c(config), r(file, source) {}
  void from_key(const std::string& name, const std::string& value, const std::string& suffix) {
    c.set_source(name, value, "GGUF " + r.key(suffix), quoted(r.key(suffix)));
  }
  void by_default(const std::string& name, const std::string& value, const std::string& why) {
    c.set_source(name, value, "llama.cpp default: " + why);
  }
};

/// Refuses an architecture llama.cpp runs without RoPE. The graph decides, not the rope type:
/// starcoder (NORM) and bert (NEOX) add a learned table and never rotate; baichuan 13B uses ALiBi.
void refuse_non_rope_graph(const GgufRopeReading& s, LlamaRopeType rope) {
  const formats::GgufKv* blocks = s.r.get("block_count");
  const std::int64_t n_layer = blocks != nullptr && blocks->value.is_numeric() ? static_cast<std::int64_t>(blocks->value.number) : 0;
  if (const std::string_view other = llama_non_rope_position(s.g.architecture, n_layer); !other.empty()) {
    const std::string what = other == "alibi"  ? "ALiBi"
                             : other == "t5"   ? "T5 relative position buckets"
                                               : "a learned position table (position_embd.weight)";
    throw Error(fmt::format("{}: llama.cpp runs architecture '{}' with {}, not RoPE (rope type {}{}): 'posenc model {}' "
                            "shows it",
                            s.f.name, s.g.architecture, what, to_string(rope),
                            rope == LlamaRopeType::kNone ? "" : ", unused by its graph", s.f.name));
  }
  if (rope == LlamaRopeType::kNone)
    throw Error(fmt::format("{}: llama.cpp runs architecture '{}' without any position encoding (rope type NONE): posenc "
                            "rope has no frequencies to show",
                            s.f.name, s.g.architecture));
}

/// The training context length (llama_model_base::load_hparams requires it).
void read_gguf_context_length(GgufRopeReading& s) {
  s.g.n_ctx_train = s.r.length("context_length", "n_ctx_train", static_cast<double>(encodings::kMaxLen));
  if (s.g.n_ctx_train == 0) throw Error(fmt::format("{}: no {} (llama.cpp requires it)", s.f.name, s.r.key("context_length")));
  s.c.max_position_embeddings = s.g.n_ctx_train;
  s.from_key("max-position-embeddings", fmt::format("{}", s.g.n_ctx_train), "context_length");
}

/// The head size and the rotated dims (llama_model_base::load_hparams): key_length, else
/// n_embd / n_head; rope.dimension_count, else the head size.
void read_gguf_head_dims(GgufRopeReading& s) {
  RopeConfig& c = s.c;
  const std::int64_t n_embd = s.r.length("embedding_length", "n_embd", 1e9);
  if (n_embd == 0) throw Error(fmt::format("{}: no {} (llama.cpp requires it)", s.f.name, s.r.key("embedding_length")));
  const std::int64_t n_head = s.r.length("attention.head_count", "n_head", 1e6);
  std::int64_t head = s.r.length("attention.key_length", "n_embd_head_k", static_cast<double>(encodings::kMaxDim));
  if (head > 0) {
    s.from_key("dim", fmt::format("{}", head), "attention.key_length");
  } else {
    if (n_head == 0) throw Error(fmt::format("{}: no {} and no {}: the head size is unknown", s.f.name,
                                             s.r.key("attention.key_length"), s.r.key("attention.head_count")));
    head = n_embd / n_head;
    s.by_default("dim", fmt::format("{}", head), fmt::format("n_embd / n_head = {} / {} (no {})", n_embd, n_head,
                                                             s.r.key("attention.key_length")));
  }
  std::int64_t n_rot = s.r.length("rope.dimension_count", "n_rot", static_cast<double>(encodings::kMaxDim));
  if (n_rot > 0) {
    s.from_key("rotary-dim", fmt::format("{}", n_rot), "rope.dimension_count");
  } else {
    n_rot = head;
    s.by_default("rotary-dim", fmt::format("{}", n_rot), fmt::format("the head size (no {})", s.r.key("rope.dimension_count")));
  }
  if (n_rot > head)  // not a flag the user gave: name the keys (issue 26 item 15)
    throw Error(fmt::format("{}: {} = {} exceeds the head size {} ({}): llama.cpp rotates at most the whole head",
                            s.f.name, s.r.key("rope.dimension_count"), n_rot, head,
                            s.r.get("attention.key_length") != nullptr
                                ? s.r.key("attention.key_length")
                                : fmt::format("{} / {}", s.r.key("embedding_length"), s.r.key("attention.head_count"))));
  if (s.g.architecture == "deepseek2" && n_rot < head) {  // MLA: key_length holds kv_lora_rank + rope dims
    c.notes.push_back(fmt::format("deepseek2 (MLA): only rope.dimension_count = {} dims of each head rotate; --dim is "
                                  "that part (attention.key_length {} includes the compressed KV)",
                                  n_rot, head));
    // The query head as the graph concatenates it, [nope | rope]: key_length_mla (converters since
    // llama.cpp's MLA rework), else key_length (earlier files, where it is nope + rope): the pair
    // table's dims count from its rotated part (as qk_nope_head_dim does for config.json).
    const std::int64_t mla = s.r.length("attention.key_length_mla", "n_embd_head_k_mla",
                                        static_cast<double>(encodings::kMaxDim));
    const std::int64_t q_head = mla > 0 ? mla : head;
    if (q_head > n_rot) c.rotary_offset = q_head - n_rot;
    head = n_rot;
  }
  c.head_dim = head;
  c.rotary_dim = n_rot;
  c.partial_rotary_factor = static_cast<double>(n_rot) / static_cast<double>(head);
}

/// rope.freq_base, else llama.cpp's 10000.
void read_gguf_base(GgufRopeReading& s) {
  if (auto b = s.r.number("rope.freq_base", GgufType::kF32)) {
    s.c.base = *b;
    s.from_key("base", fmt::format("{}", *b), "rope.freq_base");
  } else {
    s.c.base = 10000.0;
    s.by_default("base", "10000", fmt::format("rope_freq_base_train (no {})", s.r.key("rope.freq_base")));
  }
}

/// The scaling keys as llama.cpp reads them; the key that gave the factor, if any.
struct GgufScalingKeys {
  const formats::GgufKv* type_kv = nullptr;  ///< rope.scaling.type
  std::optional<double> factor;
  std::string factor_key;  ///< rope.scaling.factor, or the older rope.scale_linear
};

/// Reads the scaling type, its factor and the original context length; records llama.cpp's
/// scaling type, freq_scale and n_ctx_orig_yarn on the GGUF record.
GgufScalingKeys read_gguf_scaling_keys(GgufRopeReading& s) {
  const std::string& name = s.f.name;
  RopeGgufSource& g = s.g;
  GgufScalingKeys k;
  k.type_kv = s.r.get("rope.scaling.type");
  const formats::GgufKv* type_kv = k.type_kv;
  if (type_kv != nullptr && type_kv->value.type != GgufType::kString)
    throw Error(fmt::format("{}: byte {}: {} must be a string (got {})", name, type_kv->offset, type_kv->key,
                            type_kv->value.type_text()));
  g.scaling_type = type_kv ? type_kv->value.text : "linear";
  if (g.scaling_type != "none" && g.scaling_type != "linear" && g.scaling_type != "yarn" && g.scaling_type != "longrope")
    throw Error(fmt::format("{}: byte {}: {} = \"{}\": llama.cpp accepts none, linear, yarn or longrope and aborts on "
                            "anything else",
                            name, type_kv->offset, type_kv->key, g.scaling_type));
  k.factor = s.r.number("rope.scaling.factor", GgufType::kF32);
  k.factor_key = "rope.scaling.factor";
  if (!k.factor) k.factor = s.r.number("rope.scale_linear", GgufType::kF32), k.factor_key = "rope.scale_linear";
  if (k.factor && !(std::isfinite(*k.factor) && *k.factor >= 0))
    throw Error(fmt::format("{}: {} must be a finite number ≥ 0 (got {})", name, s.r.key(k.factor_key), *k.factor));
  g.freq_scale = k.factor && *k.factor > 0 && g.scaling_type != "none" ? 1.0 / *k.factor : 1.0;
  const std::int64_t orig = s.r.length("rope.scaling.original_context_length", "n_ctx_orig_yarn", static_cast<double>(encodings::kMaxLen));
  g.n_ctx_orig = orig > 0 ? orig : g.n_ctx_train;
  s.c.original_max_position_embeddings = g.n_ctx_orig;
  if (orig > 0) {
    s.from_key("original-max-position-embeddings", fmt::format("{}", orig), "rope.scaling.original_context_length");
  } else {
    s.by_default("original-max-position-embeddings", fmt::format("{}", g.n_ctx_train),
                 fmt::format("n_ctx_train (no {})", s.r.key("rope.scaling.original_context_length")));
  }
  return k;
}

/// The frequency tensors of the file (empty when absent).
struct GgufFreqTensors {
  std::vector<double> lng;    ///< rope_factors_long.weight
  std::vector<double> sht;    ///< rope_factors_short.weight
  std::vector<double> freqs;  ///< rope_freqs.weight
};

/// Reads the frequency tensors present, listing each on the GGUF record.
GgufFreqTensors read_gguf_freq_tensors(GgufRopeReading& s, const GgufTensorReader& read) {
  const auto tensor = [&](const char* name) -> std::vector<double> {
    const formats::GgufTensorInfo* t = s.f.tensor(name);
    if (t == nullptr) return {};
    const auto v = read(*t);
    s.g.tensors.push_back(fmt::format("{} F32[{}]", name, v.size()));
    return {v.begin(), v.end()};
  };
  GgufFreqTensors t;
  t.lng = tensor("rope_factors_long.weight");
  t.sht = tensor("rope_factors_short.weight");
  t.freqs = tensor("rope_freqs.weight");
  return t;
}

/// The scaling method and its factor from the scaling keys and tensors; true for longrope.
bool set_gguf_scaling(GgufRopeReading& s, const GgufScalingKeys& k, const GgufFreqTensors& t) {
  RopeConfig& c = s.c;
  const RopeGgufSource& g = s.g;
  // phi3 and phimoe load the long/short lists whatever the type; others when it is longrope.
  const bool phi = g.architecture == "phi3" || g.architecture == "phimoe";
  const bool longrope = g.scaling_type == "longrope" || (phi && !t.lng.empty());
  if (longrope) {
    if (t.lng.empty() || t.sht.empty())
      throw Error(fmt::format("{}: scaling longrope needs the tensors rope_factors_long.weight and "
                              "rope_factors_short.weight (found {})",
                              s.f.name, g.tensors.empty() ? std::string("neither") : fmt::format("{}", fmt::join(g.tensors, ", "))));
    c.scaling = RopeScaling::kLongrope;
    c.long_factor = t.lng, c.short_factor = t.sht;
    c.set_source("long-factor", fmt::format("[{} values]", t.lng.size()), "GGUF tensor rope_factors_long.weight");
    c.set_source("short-factor", fmt::format("[{} values]", t.sht.size()), "GGUF tensor rope_factors_short.weight");
    c.set_source("scaling", "longrope", k.type_kv ? "GGUF " + k.type_kv->key : "llama.cpp: phi3 loads rope_factors_long/short");
  } else if (g.scaling_type == "yarn") {
    c.scaling = RopeScaling::kYarn;
    c.factor = 1.0 / g.freq_scale;
    s.from_key("scaling", "yarn", "rope.scaling.type");
  } else if (g.freq_scale != 1.0) {
    c.scaling = RopeScaling::kLinear;
    c.factor = 1.0 / g.freq_scale;
    if (k.type_kv) s.from_key("scaling", "linear", "rope.scaling.type");
    else s.by_default("scaling", "linear", fmt::format("scaling type linear (no {})", s.r.key("rope.scaling.type")));
  } else {
    c.scaling = RopeScaling::kNone;
    c.set_source("scaling", "none", k.factor ? fmt::format("GGUF {} = {}: no scaling", s.r.key(k.factor_key), *k.factor)
                                             : fmt::format("llama.cpp: no {} (freq_scale 1)", s.r.key("rope.scaling.factor")));
  }
  if (c.factor) s.from_key("factor", fmt::format("{}", *c.factor), k.factor_key);
  return longrope;
}

/// rope_freqs.weight (unless longrope) and rope.scaling.attn_factor, used as stored.
void read_gguf_stored_factors(GgufRopeReading& s, const std::vector<double>& freqs, bool longrope) {
  RopeConfig& c = s.c;
  if (!freqs.empty() && !longrope) {
    c.gguf_freq_factors = freqs;
    c.set_source("freq-factors", fmt::format("[{} values]", freqs.size()),
                 "GGUF tensor rope_freqs.weight (θ_i divided by value i; llama3 scaling travels this way)");
  }
  if (auto a = s.r.number("rope.scaling.attn_factor", GgufType::kF32)) {
    c.gguf_attn_factor = *a;
    s.from_key("attn-factor", fmt::format("{}", *a), "rope.scaling.attn_factor");
  }
}

/// YaRN's keys: llama.cpp reads yarn_log_multiplier for deepseek2 (÷ 0.1 on load), deepseek32
/// and mistral3; the betas only for grok and mistral3. Elsewhere they are noted as ignored.
void read_gguf_yarn_keys(GgufRopeReading& s) {
  RopeConfig& c = s.c;
  const std::string& an = s.g.architecture;
  if (auto lm = s.r.number("rope.scaling.yarn_log_multiplier", GgufType::kF32)) {
    if (an == "deepseek2" || an == "deepseek32" || an == "mistral3") {
      c.mscale_all_dim = an == "deepseek2" ? *lm / 0.1 : *lm;
      s.from_key("mscale-all-dim", fmt::format("{}", *c.mscale_all_dim), "rope.scaling.yarn_log_multiplier");
      if (an == "deepseek2") c.mscale = c.mscale_all_dim;
    } else {
      s.g.notes.push_back(fmt::format("{} is ignored by llama.cpp for architecture {}", s.r.key("rope.scaling.yarn_log_multiplier"), an));
    }
  }
  for (const auto& [suffix, name, out] : {std::tuple{"rope.scaling.yarn_beta_fast", "beta-fast", &c.beta_fast},
                                          std::tuple{"rope.scaling.yarn_beta_slow", "beta-slow", &c.beta_slow}}) {
    const auto v = s.r.number(suffix, GgufType::kF32);
    if (!v) continue;
    if (an == "grok" || an == "mistral3") {
      *out = *v;
      s.from_key(name, fmt::format("{}", *v), suffix);
    } else if (*v != (std::string(name) == "beta-fast" ? 32.0 : 1.0)) {
      s.g.notes.push_back(fmt::format("{} = {} is ignored by llama.cpp for architecture {} (it uses {})", s.r.key(suffix), *v,
                                      an, std::string(name) == "beta-fast" ? 32 : 1));
    }
  }
}

/// Refuses a granite model whose rope.scaling.finetuned is false: llama.cpp drops RoPE then.
void refuse_gguf_unfinetuned(const GgufRopeReading& s) {
  const std::string& an = s.g.architecture;
  if (const formats::GgufKv* ft = s.r.get("rope.scaling.finetuned");
      ft != nullptr && ft->value.type == GgufType::kBool && ft->value.uinteger == 0 &&
      (an == "granite" || an == "granitemoe" || an == "granitehybrid"))
    throw Error(fmt::format("{}: {} = false: llama.cpp runs {} without RoPE then", s.f.name, ft->key, an));
}

/// The layout from the rope type, and notes on what this report leaves out: the sliding-window
/// layers' base and M-RoPE's sections.
void set_gguf_layout_and_notes(GgufRopeReading& s, LlamaRopeType rope) {
  RopeConfig& c = s.c;
  c.layout = rope_type_is_half(rope) ? RopeLayout::kHalf : RopeLayout::kInterleaved;
  c.set_source("layout", std::string(to_string(c.layout)),
               fmt::format("llama.cpp rope type {} of architecture {}", s.g.rope_type, s.g.architecture),
               quoted("general.architecture"));
  if (auto swa = s.r.number("rope.freq_base_swa", GgufType::kF32))
    c.notes.push_back(fmt::format("sliding-window layers use base {} ({}); this report shows the full-attention layers",
                                  *swa, s.r.key("rope.freq_base_swa")));
  const formats::GgufKv* sections = s.r.get("rope.dimension_sections");
  // M-RoPE architectures read the sections as a required key (llama-model.cpp, qwen2vl:
  // `ml.get_key_or_arr(LLM_KV_ROPE_DIMENSION_SECTIONS, hparams.rope_sections, 4, true)`); glm4,
  // glm4moe and hunyuan_vl choose M-RoPE only when the key is there.
  if (sections == nullptr && (rope == LlamaRopeType::kMrope || rope == LlamaRopeType::kImrope)) {
    s.g.notes.push_back(fmt::format("no {}: llama.cpp requires it for architecture {} ({} rope) and refuses to load the "
                                    "file (key not found)",
                                    s.r.key("rope.dimension_sections"), s.g.architecture, s.g.rope_type));
    s.g.load_errors.push_back(s.g.notes.back());
  }
  if (sections != nullptr)
    c.notes.push_back(fmt::format("M-RoPE sections {} ({}): for text every section takes the same position, which is "
                                  "plain RoPE",
                                  sections->value.to_text(), s.r.key("rope.dimension_sections")));
}

}  // namespace

std::shared_ptr<RopeGgufSource> gguf_header_source(const formats::GgufFile& f) {
  auto g = std::make_shared<RopeGgufSource>();
  g->path = f.name;
  g->version = f.version;
  g->big_endian = f.big_endian;
  const formats::GgufKv* arch_kv = f.find("general.architecture");
  if (arch_kv == nullptr || arch_kv->value.type != GgufType::kString)
    throw Error(fmt::format("{}: {} (llama.cpp needs it to know the model)", f.name,
                            arch_kv ? fmt::format("general.architecture must be a string (got {})", arch_kv->value.type_text())
                                    : std::string("no general.architecture key")));
  g->architecture = arch_kv->value.text;
  const LlamaArch* arch = find_llama_arch(g->architecture);
  if (arch == nullptr)
    throw Error(fmt::format("{}: general.architecture '{}' is not one of llama.cpp's architectures ('posenc list' has no "
                            "table of them; docs/gguf.md lists the {} posenc knows)",
                            f.name, g->architecture, llama_architectures().size()));
  for (const auto& kv : f.kvs) {
    const std::string prefix = g->architecture + ".";
    if (kv.key == "general.architecture" || kv.key == "general.alignment" ||
        (kv.key.starts_with(prefix) &&
         (kv.key.compare(prefix.size(), 5, "rope.") == 0 || kPositionKeys.count(kv.key.substr(prefix.size())) != 0)))
      g->keys.push_back({kv.key, kv.value.type_text(), kv.value.to_text()});
  }
  g->rope_type = std::string(to_string(rope_type_of(f, *arch)));
  if (f.version == 1) {
    g->notes.push_back("GGUF version 1: llama.cpp refuses it (\"GGUFv1 is no longer supported\", since "
                       "ggml-org/llama.cpp#3901); convert the model again");
    g->load_errors.push_back(g->notes.back());
  }
  if (f.big_endian) {
    g->notes.push_back("big-endian file: llama.cpp on a little-endian host refuses it (endianness mismatch)");
    g->load_errors.push_back(g->notes.back());
  }
  return g;
}

RopeConfig gguf_rope_config(const formats::GgufFile& f, const GgufTensorReader& read) {
  auto g = gguf_header_source(f);
  const std::size_t header_notes = g->notes.size();
  RopeConfig c;
  c.sources.clear();
  c.config_file = f.name;
  c.convention = RopeConvention::kGgml;
  GgufRopeReading s(f, *g, c);
  const LlamaRopeType rope = rope_type_of(f, *find_llama_arch(g->architecture));
  refuse_non_rope_graph(s, rope);
  read_gguf_context_length(s);
  read_gguf_head_dims(s);
  read_gguf_base(s);
  const GgufScalingKeys scaling_keys = read_gguf_scaling_keys(s);
  const GgufFreqTensors tensors = read_gguf_freq_tensors(s, read);
  const bool longrope = set_gguf_scaling(s, scaling_keys, tensors);
  read_gguf_stored_factors(s, tensors.freqs, longrope);
  read_gguf_yarn_keys(s);
  refuse_gguf_unfinetuned(s);
  set_gguf_layout_and_notes(s, rope);
  // The header's notes (version, byte order) last, as before.
  std::rotate(g->notes.begin(), g->notes.begin() + static_cast<std::ptrdiff_t>(header_notes), g->notes.end());
  for (const auto& n : g->notes) c.notes.push_back(n);
  c.gguf = g;
  set_llama_arch_facts(c);
  return c;
}

RopeConfig read_gguf_rope_config(const std::string& path) {
  const formats::GgufFile f = formats::read_gguf(path);
  return gguf_rope_config(f, [&](const formats::GgufTensorInfo& t) { return formats::read_gguf_f32(f, t); });
}

}  // namespace posenc::models
