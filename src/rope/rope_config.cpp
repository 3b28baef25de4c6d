#include "posenc/rope/rope_config.hpp"

#include <fmt/format.h>

#include <cmath>

#include "posenc/error.hpp"
#include "rope_internal.hpp"

namespace posenc::rope {
namespace {

std::string text_of(const ParamValue& v) { return posenc::to_string(v); }

void check_number(const RopeConfig& c, const char* name, double v, double lo, bool lo_open, const char* rule) {
  if (!std::isfinite(v) || (lo_open ? !(v > lo) : !(v >= lo)))
    throw Error(fmt::format("{} must be {} (got {})", c.label(name), rule, v));
}

/// hf: half (transformers' rotate_half; Llama weights are permuted on conversion). meta:
/// interleaved. ggml: the rope type llama.cpp assigns to the architecture the converter makes
/// of this model_type (llama_arch.hpp): NEOX, MROPE and IMROPE pair (i, i+d/2), NORM (2i, 2i+1).
void set_default_layout(RopeConfig& c) {
  std::string why = fmt::format("default for --convention {}", to_string(c.convention));
  // engines: is_neox_style / traditional=False for these models (DeepSeek's interleaved layout comes from the file)
  c.layout = c.convention == RopeConvention::kHf || is_engine_convention(c.convention) ? RopeLayout::kHalf
                                                                                        : RopeLayout::kInterleaved;
  if (c.convention == RopeConvention::kHf && c.model_layout) {
    c.layout = *c.model_layout;  // the model class's rotation (posenc/models/family.hpp)
    why = c.model_layout_source;
  } else if (c.convention == RopeConvention::kGgml && !c.model_type.empty()) {
    if (c.ggml_model_layout) c.layout = *c.ggml_model_layout;
    why += c.ggml_layout_note;
  }
  c.set_source("layout", std::string(to_string(c.layout)), why);
}

}  // namespace

std::vector<ParamSpec> rope_param_specs() {
  const auto lengths = [](const char* name, const char* help) {
    return ParamSpec{name, help, std::int64_t{0}, {}, 0, static_cast<double>(encodings::kMaxLen)};
  };
  const auto number = [](const char* name, const char* help, double def, double lo = 0) {
    return ParamSpec{name, help, def, {}, lo, 1e300};
  };
  ParamSpec dim = encodings::dim_param(64);
  dim.help = "head dimension (the rotary width unless --rotary-dim / --partial-rotary-factor)";
  dim.min = 2;
  return {
      encodings::len_param(),
      dim,
      number("base", "RoPE base θ (rope_theta)", 10000.0, 1.0),
      {"layout", "pairs (2i,2i+1) or (i,i+d/2); default: half for hf, interleaved for meta, for ggml llama.cpp's rope type of the model_type (NEOX: half)", std::string("half"),
       rope_layout_names()},
      {"table", "what each cell holds: angle, cos, sin, or rotated (R_n·ones: dot products of two rows are the "
                "q = k = ones scores)",
       std::string("cos"), {"angle", "cos", "sin", "rotated"}},
      {"rotary-dim", "rotated width R (even, ≤ --dim); 0 = int(dim × partial-rotary-factor)", std::int64_t{0}, {}, 0,
       static_cast<double>(encodings::kMaxDim)},
      {"partial-rotary-factor", "fraction of the head that rotates (GPT-NeoX rotary_pct, Phi-2)", 1.0, {}, 0, 1},
      {"proportion", "p-RoPE (--scaling proportional): the fastest int(p·dim/2) pairs rotate, the rest keep "
                     "frequency 0 (Gemma 4 global layers: 0.25; 0 = NoPE, 1 = plain RoPE); e.g. --scaling "
                     "proportional --proportion 0.25; default: --partial-rotary-factor",
       1.0, {}, 0, 1},
      {"scaling", "context-extension method (none = transformers' rope_type \"default\")", std::string("none"),
       rope_scaling_choices()},
      [&] { auto f = number("factor", "scaling factor s", 0.0); f.above_min = true; return f; }(),
      lengths("original-max-position-embeddings", "pre-extension context L_orig (0 = not set)"),
      lengths("max-position-embeddings", "context the config declares (0 = not set)"),
      lengths("seq-len", "current sequence length for dynamic and longrope (0 = not set)"),
      lengths("max-model-len", "context the engine is started with: vLLM --max-model-len, TensorRT-LLM max_seq_len "
                               "(0 = the engine's default)"),
      number("beta-fast", "YaRN: rotations where the ramp starts (transformers: 0 means 32)", 32.0),
      number("beta-slow", "YaRN: rotations where the ramp ends (transformers: 0 means 1)", 1.0),
      number("mscale", "YaRN/DeepSeek mscale (0 = not set)", 0.0),
      number("mscale-all-dim", "YaRN/DeepSeek mscale_all_dim (0 = not set)", 0.0),
      number("attention-factor", "explicit cos/sin multiplier (0 = computed by the method)", 0.0),
      {"truncate", "YaRN: round the correction range (transformers default true)", true, {}},
      number("low-freq-factor", "llama3 low_freq_factor", 1.0),
      number("high-freq-factor", "llama3 high_freq_factor", 4.0),
      {"short-factor", "longrope short_factor list (rotary_dim/2 values)", std::vector<double>{}, {}},
      {"long-factor", "longrope long_factor list (rotary_dim/2 values)", std::vector<double>{}, {}},
      {"convention", "whose arithmetic to reproduce: transformers, Meta, ggml or a serving engine (posenc list "
                     "names the release each reproduces)",
       std::string("hf"), rope_convention_names()},
      {"precision", "f32 emulates the references' float32; f64 computes in double", std::string("f32"),
       rope_precision_names()},
      {"apply-attention-factor", "multiply cos/sin by the attention factor, as transformers does", true, {}},
      [] {
        ParamSpec s{"hf-config", "a model's Hugging Face config.json, a model folder holding one, a model id (ORG/NAME) "
                                 "in the local Hugging Face cache, or a llama.cpp .gguf (flags override it)",
                    std::string(), {}};
        s.path = true;
        return s;
      }(),
      [] {
        ParamSpec s{"gguf", "a llama.cpp .gguf model file: the settings llama.cpp uses (header only; flags override it)",
                    std::string(), {}};
        s.path = true;
        return s;
      }(),
      {"assume-family", "with --hf-config: read a model_type posenc does not know as this known family's (e.g. llama: "
                        "RoPE, rotate_half, every layer) instead of refusing it",
       std::string(), {}},
      {"layer-type", "with --hf-config: the rope of these layers (e.g. sliding_attention; default: the full-attention "
                     "rope)", std::string(), {}},
  };
}

void apply_rope_flags(RopeConfig& c, const ParamMap& p, bool file, bool is_gguf) {
  // Settings a config.json can hold come from the file unless the flag is given; the others
  // (layout aside) always come from the flags or their defaults.
  const auto from_flag = [&](const std::string& name) { return p.has(name) && (!file || p.given(name)); };
  const auto record = [&](const std::string& name) {
    c.set_source(name, text_of(p.value(name)), p.given(name) ? "flag --" + name : "default");
  };
  const auto positive = [&](const std::string& name) -> std::optional<double> {
    return p.number(name) > 0 ? std::optional<double>(p.number(name)) : std::nullopt;
  };
  if (from_flag("dim")) c.head_dim = p.integer("dim"), record("dim");
  if (from_flag("base")) c.base = p.number("base"), record("base");
  if (from_flag("partial-rotary-factor")) c.partial_rotary_factor = p.number("partial-rotary-factor"), record("partial-rotary-factor");
  if (from_flag("scaling")) c.scaling = parse_rope_scaling(p.text("scaling")), record("scaling");
  if (p.has("proportion") && p.given("proportion")) {  // p-RoPE's p: the fraction, 0 allowed
    if (c.scaling != RopeScaling::kProportional)
      throw Error(fmt::format("--proportion {} is p-RoPE's fraction: it needs --scaling proportional (got {})",
                              p.number("proportion"), c.method_label()));
    for (const char* other : {"partial-rotary-factor", "rotary-dim"})
      if (p.has(other) && p.given(other))
        throw Error(fmt::format("--proportion {} and --{} are alternatives under proportional: give one",
                                p.number("proportion"), other));
    c.partial_rotary_factor = p.number("proportion");
    c.set_source("partial-rotary-factor", text_of(p.value("proportion")), "flag --proportion");
  }
  if (p.has("factor") && p.given("factor") && !(p.number("factor") > 0))
    throw Error(fmt::format("--factor must be a finite number > 0 (got {})", p.number("factor")));
  if (from_flag("factor") && p.number("factor") > 0) c.factor = p.number("factor"), record("factor");
  if (from_flag("original-max-position-embeddings") && p.integer("original-max-position-embeddings") > 0) {
    c.original_max_position_embeddings = p.integer("original-max-position-embeddings");
    c.top_level_original_max_position_embeddings = c.original_max_position_embeddings;
    record("original-max-position-embeddings");
  }
  if (from_flag("max-position-embeddings") && p.integer("max-position-embeddings") > 0)
    c.max_position_embeddings = p.integer("max-position-embeddings"), record("max-position-embeddings");
  // Optional settings: only a given flag (or the file) sets them; otherwise each method's default.
  for (const auto& [name, out] : {std::pair{"beta-fast", &c.beta_fast}, std::pair{"beta-slow", &c.beta_slow}}) {
    if (p.has(name) && p.given(name)) *out = p.number(name), record(name);
  }
  for (const auto& [name, out] : {std::pair{"mscale", &c.mscale}, std::pair{"mscale-all-dim", &c.mscale_all_dim},
                                  std::pair{"attention-factor", &c.attention_factor}}) {
    if (p.has(name) && p.given(name)) *out = positive(name), record(name);
  }
  if (p.has("truncate") && p.given("truncate")) c.truncate = p.flag("truncate"), record("truncate");
  if (from_flag("low-freq-factor")) c.low_freq_factor = p.number("low-freq-factor"), record("low-freq-factor");
  if (from_flag("high-freq-factor")) c.high_freq_factor = p.number("high-freq-factor"), record("high-freq-factor");
  if (from_flag("short-factor")) c.short_factor = p.list("short-factor"), record("short-factor");
  if (from_flag("long-factor")) c.long_factor = p.list("long-factor"), record("long-factor");
  if (p.has("seq-len")) c.seq_len = p.integer("seq-len"), record("seq-len");
  if (p.has("max-model-len") && p.given("max-model-len"))
    c.max_model_len = p.integer("max-model-len"), record("max-model-len");
  if (p.has("convention") && (p.given("convention") || !is_gguf))  // a GGUF is llama.cpp's unless told otherwise
    c.convention = parse_rope_convention(p.text("convention")), record("convention");
  else if (is_gguf)
    c.set_source("convention", "ggml", "default for a GGUF file");
  if (p.has("precision")) c.precision = parse_rope_precision(p.text("precision")), record("precision");
  if (p.has("apply-attention-factor")) c.apply_attention_factor = p.flag("apply-attention-factor"), record("apply-attention-factor");
  const bool layout_from_file = file && !c.label("layout").starts_with("--");
  if (p.has("layout") && p.given("layout")) {
    c.layout = parse_rope_layout(p.text("layout")), record("layout");
  } else if (!layout_from_file) {
    set_default_layout(c);
  }
  if (p.has("rotary-dim") && p.given("rotary-dim") && p.has("partial-rotary-factor") && p.given("partial-rotary-factor"))
    throw Error(fmt::format("--rotary-dim {} and --partial-rotary-factor {} are alternatives (rotary width = int(dim × "
                            "factor)): give one",
                            p.integer("rotary-dim"), p.number("partial-rotary-factor")));
  std::int64_t rotary = 0;
  if (p.has("rotary-dim") && p.given("rotary-dim")) {
    rotary = p.integer("rotary-dim"), record("rotary-dim");
  } else if (file && !c.label("rotary-dim").starts_with("--")) {
    rotary = c.rotary_dim;  // GPT-J's rotary_dim
  }
  finalize_rope_config(c, rotary);
}

void finalize_rope_config(RopeConfig& c, std::int64_t explicit_rotary_dim) {
  if (c.head_dim < 2 || c.head_dim > encodings::kMaxDim)
    throw Error(fmt::format("{} must be within [2, {}] (got {})", c.label("dim"), encodings::kMaxDim, c.head_dim));
  // p-RoPE's p may be 0 (no pair rotates: NoPE); a rotary width may not.
  const bool p_rope = c.scaling == RopeScaling::kProportional;
  const char* fraction_rule = p_rope ? "in [0, 1]" : "in (0, 1]";
  check_number(c, "partial-rotary-factor", c.partial_rotary_factor, 0.0, !p_rope, fraction_rule);
  if (c.partial_rotary_factor > 1.0)
    throw Error(fmt::format("{} must be {} (got {})", c.label("partial-rotary-factor"), fraction_rule,
                            c.partial_rotary_factor));
  if (c.scaling == RopeScaling::kProportional) {
    // p-RoPE keeps pairs (i, i + head_dim/2) over the whole head and zeroes the tail frequencies.
    if (explicit_rotary_dim > 0) c.partial_rotary_factor = static_cast<double>(explicit_rotary_dim) / static_cast<double>(c.head_dim);
    c.rotary_dim = c.head_dim;
    c.set_source("rotary-dim", fmt::format("{}", c.rotary_dim), "derived: proportional spans the whole head");
  } else if (explicit_rotary_dim > 0) {
    c.rotary_dim = explicit_rotary_dim;
  } else {
    c.rotary_dim = static_cast<std::int64_t>(static_cast<double>(c.head_dim) * c.partial_rotary_factor);
    c.set_source("rotary-dim", fmt::format("{}", c.rotary_dim),
                 c.partial_rotary_factor == 1.0 ? std::string("derived: the whole head")
                                                : fmt::format("derived: int({} × {})", c.head_dim, c.partial_rotary_factor));
  }
  if (explicit_rotary_dim == 0 && c.partial_rotary_factor == 1.0 && c.head_dim % 2 != 0)
    throw Error(fmt::format("{} must be even for rope (got {})", c.label("dim"), c.head_dim));
  if (c.rotary_dim < 2 || c.rotary_dim % 2 != 0 || c.rotary_dim > c.head_dim)
    throw Error(fmt::format("{} must give an even rotary width within [2, {}] (got {})",
                            explicit_rotary_dim > 0          ? c.label("rotary-dim")
                            : c.partial_rotary_factor == 1.0 ? c.label("dim")
                                                             : c.label("partial-rotary-factor"),
                            c.head_dim, c.rotary_dim));
  check_number(c, "base", c.base, 1.0, true, "a finite number > 1");
  if (c.factor) check_number(c, "factor", *c.factor, 0.0, true, "a finite number > 0");
  if (c.factor && *c.factor < 1.0 && c.scaling != RopeScaling::kNone)
    c.notes.push_back(fmt::format("factor {} < 1 compresses frequencies (transformers warns for factor < 1)", *c.factor));
  for (const auto& [name, v] : {std::pair{"beta-fast", c.beta_fast}, std::pair{"beta-slow", c.beta_slow},
                                std::pair{"mscale", c.mscale}, std::pair{"mscale-all-dim", c.mscale_all_dim}}) {
    if (v) check_number(c, name, *v, 0.0, false, "a finite number ≥ 0");
  }
  if (c.attention_factor) check_number(c, "attention-factor", *c.attention_factor, 0.0, true, "a finite number > 0");
  if (c.scaling == RopeScaling::kLlama3) {  // λ_lo = L/low, λ_hi = L/high: both must be finite
    check_number(c, "low-freq-factor", c.low_freq_factor, 0.0, true, "a finite number > 0");
    check_number(c, "high-freq-factor", c.high_freq_factor, 0.0, true, "a finite number > 0");
  }
  // Equal factors are legal (Llama 4 Scout: 1 and 1, a hard step); transformers only warns for
  // high < low too, but then its torch.where order and meta-llama's if-chain give different bands.
  if (c.scaling == RopeScaling::kLlama3 && c.high_freq_factor < c.low_freq_factor)
    throw Error(detail::must_exceed(c, "high-freq-factor", c.high_freq_factor, "low-freq-factor", c.low_freq_factor));
  if (c.scaling == RopeScaling::kLlama3 && c.high_freq_factor == c.low_freq_factor)
    c.notes.push_back(fmt::format("llama3 with low_freq_factor = high_freq_factor = {} (as Llama 4): no blended band; "
                                  "pairs whose wavelength exceeds original / {} are divided by the factor, the others "
                                  "kept",
                                  c.low_freq_factor, c.low_freq_factor));
  if (c.scaling == RopeScaling::kLongrope) {
    const auto n = static_cast<std::size_t>(c.rotary_dim / 2);
    for (const auto& [name, list] : {std::pair{"short-factor", &c.short_factor}, std::pair{"long-factor", &c.long_factor}}) {
      if (list->size() != n)
        throw Error(fmt::format("{} must have rotary_dim/2 = {} values (got {})", c.label(name), n, list->size()));
      for (double v : *list) check_number(c, name, v, 0.0, true, "a list of finite numbers > 0");
    }
  }
  for (const auto& [name, who] : detail::ignored_settings(c))  // shown in the settings list, warned about
    for (auto& s : c.sources)
      if (s.name == name && s.source.find("(ignored") == std::string::npos)
        s.source += fmt::format(" (ignored by {})", to_string(c.scaling));
  if (p_rope && detail::proportional_angles(c) == 0)
    c.notes.push_back("p-RoPE with p = 0: no pair rotates (cos 1, sin 0 at every position): NoPE");
  else if (p_rope && detail::proportional_angles(c) * 2 == static_cast<std::size_t>(c.head_dim))
    c.notes.push_back("p-RoPE with every pair rotating: plain RoPE (exponent over the whole head)");
  if (c.rotary_dim < c.head_dim && c.scaling != RopeScaling::kProportional && c.rotary_dims_trailing)
    c.notes.push_back(fmt::format("partial rotary: dims {}..{} rotate (exponent over {}), dims 0..{} pass through",
                                  c.head_dim - c.rotary_dim, c.head_dim - 1, c.rotary_dim, c.head_dim - c.rotary_dim - 1));
  else if (c.rotary_dim < c.head_dim && c.scaling != RopeScaling::kProportional)
    c.notes.push_back(fmt::format("partial rotary: dims 0..{} rotate (exponent over {}), dims {}..{} pass through",
                                  c.rotary_dim - 1, c.rotary_dim, c.rotary_dim, c.head_dim - 1));
}

}  // namespace posenc::rope
