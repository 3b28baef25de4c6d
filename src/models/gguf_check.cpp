// config.json against the GGUF converted from it (see gguf_check.hpp). The converter's rules:
// llama.cpp convert_hf_to_gguf.py / conversion/*.py (ggml-org/llama.cpp @ 81ff7abe, via
// ../shared/reference/gguf.md §3-4); the issues cited are where each mistake was seen.
#include "posenc/models/gguf_check.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "posenc/models/llama_arch.hpp"
#include "posenc/models/rope_gguf.hpp"
#include "posenc/error.hpp"
#include "../rope/rope_internal.hpp"

namespace posenc::models {

using namespace rope;  // settings are read into rope's RopeConfig
namespace {

bool from_key(const RopeConfig& c, const std::string& name) {
  for (const auto& s : c.sources)
    if (s.name == name) return s.source.starts_with("GGUF");
  return false;
}

float f32(double v) { return static_cast<float>(v); }

std::string num(double v) { return fmt::format("{}", v); }

class Checker {
 public:
  Checker(const RopeConfig& hf, const RopeConfig& gg, GgufCheck& out) : a_(hf), b_(gg), g_(*gg.gguf), out_(out) {}

  void add(std::string what, std::string where, std::string expected, std::string found, std::string cause,
           bool error = true) {
    out_.findings.push_back({std::move(what), std::move(where), std::move(expected), std::move(found), std::move(cause), error});
  }
  std::string key(const std::string& suffix) const { return g_.architecture + "." + suffix; }

  void architecture() {
    const LlamaArch* exp = llama_arch_for_model_type(a_.model_type);
    if (exp == nullptr) {
      add("architecture", "general.architecture", a_.model_type.empty() ? "(no model_type)" : "model_type " + a_.model_type,
          g_.architecture, "model_type not in posenc's table of llama.cpp's converter: the key checks assume the generic "
          "writer", false);
      return;
    }
    out_.expected_architecture = std::string(exp->name);
    if (exp->name != g_.architecture)
      add("architecture", "general.architecture", std::string(exp->name), g_.architecture,
          fmt::format("llama.cpp's converter makes '{}' of model_type {}: the file was converted from another model", exp->name,
                      a_.model_type));
  }

  void base() {
    if (f32(a_.base) == f32(b_.base)) return;
    if (!from_key(b_, "base"))
      add("rope.freq_base", key("rope.freq_base"), num(f32(a_.base)), "absent: llama.cpp uses 10000",
          "base never written: the converters of gemma, gemma2, gptneox (rotary_emb_base), stablelm, phi2 and falcon "
          "write no rope.freq_base (CodeLlama's 1e6: ggml-org/llama.cpp#2768, fixed by #2773)");
    else
      add("rope.freq_base", key("rope.freq_base"), num(f32(a_.base)), num(b_.base),
          "rope_theta differs: converted from another revision of the config, or edited after conversion");
  }

  void shape() {
    if (a_.head_dim != b_.head_dim)
      add("head size", key("attention.key_length"), num(static_cast<double>(a_.head_dim)),
          fmt::format("{}{}", b_.head_dim, from_key(b_, "dim") ? "" : " (n_embd / n_head: no key_length)"),
          "head_dim ≠ hidden_size / num_attention_heads without attention.key_length (Mistral Nemo before "
          "ggml-org/llama.cpp#8604: \"wrong shape\", #8577)");
    if (a_.rotary_dim != b_.rotary_dim)
      add("rotary width", key("rope.dimension_count"), num(static_cast<double>(a_.rotary_dim)),
          num(static_cast<double>(b_.rotary_dim)),
          "partial rotary: the converters compute int(pct·n_embd)//n_head (phi2, phi3) or int(pct·head_dim) (gptneox, "
          "stablelm), transformers int(head_dim·partial_rotary_factor); Persimmon wrote head_dim (ggml-org/llama.cpp#5460)");
    if (a_.max_position_embeddings > 0 && a_.max_position_embeddings != g_.n_ctx_train)
      add("context length", key("context_length"), num(static_cast<double>(a_.max_position_embeddings)),
          num(static_cast<double>(g_.n_ctx_train)),
          "by the converter's rule for some architectures (Command-R model_max_length, Falcon 2048, BLOOM seq_length, "
          "T5 512, Gemma 3 131072); it sets llama.cpp's default -c and the LongRoPE switch",
          false);
  }

  void original_length() {
    const std::int64_t want = a_.original_length();
    if (want <= 0 || want == g_.n_ctx_orig) return;
    add("original context", key("rope.scaling.original_context_length"), num(static_cast<double>(want)),
        from_key(b_, "original-max-position-embeddings") ? num(static_cast<double>(g_.n_ctx_orig))
                                                         : fmt::format("absent: n_ctx_train {} is used", g_.n_ctx_orig),
        "original_context_length left out or wrong: it moves YaRN's correction range and the LongRoPE switch point");
  }

  void factor_key(const char* method) {
    const double want = rope::detail::required_factor(a_);
    if (!b_.factor || f32(*b_.factor) != f32(want))
      add("rope.scaling.factor", key("rope.scaling.factor"), num(f32(want)), b_.factor ? num(*b_.factor) : "absent (1)",
          fmt::format("{} factor lost or changed", method));
  }

  void scaling() {
    const auto type_found = std::string(to_string(b_.scaling)) + (b_.gguf_freq_factors.empty() ? "" : " + rope_freqs.weight");
    switch (a_.scaling) {
      case RopeScaling::kNone:
        if (b_.scaling != RopeScaling::kNone || !b_.gguf_freq_factors.empty())
          add("rope.scaling.type", key("rope.scaling.type"), "none", type_found,
              "the file scales frequencies the config does not (converted from another config?)");
        return;
      case RopeScaling::kLinear:
        if (b_.scaling != RopeScaling::kLinear)
          add("rope.scaling.type", key("rope.scaling.type"), "linear", type_found,
              "scaling dropped: architectures whose converter bypasses the generic writer lose it (e.g. Qwen3-MoE, "
              "ggml-org/llama.cpp#13322; centralised in #18013)");
        else
          factor_key("linear");
        return;
      case RopeScaling::kDynamic:
        add("rope.scaling.type", key("rope.scaling.type"), "dynamic", type_found,
            "dynamic NTK cannot be stored in a GGUF: the converter writes nothing and llama.cpp runs unscaled "
            "frequencies past the original context (feature request ggml-org/llama.cpp#8361, closed unimplemented)");
        return;
      case RopeScaling::kYarn: yarn(type_found); return;
      case RopeScaling::kLlama3: llama3(); return;
      case RopeScaling::kLongrope: longrope(); return;
      default:
        add("rope.scaling.type", key("rope.scaling.type"), std::string(to_string(a_.scaling)), type_found,
            "llama.cpp has no such scaling");
    }
  }

  void yarn(const std::string& type_found) {
    if (b_.scaling != RopeScaling::kYarn) {
      add("rope.scaling.type", key("rope.scaling.type"), "yarn", type_found,
          "YaRN keys lost: architectures that bypass the generic writer, a yarn block without factor (nothing written), "
          "or a published config without the block (Qwen2.5: ggml-org/llama.cpp#10698)");
      return;
    }
    factor_key("yarn");
    original_length();
    if (a_.truncate && !*a_.truncate)
      add("truncate", "(no GGUF key)", "false", "llama.cpp always rounds the correction range",
          "truncate: false cannot be stored (gpt-oss; vllm-project/vllm#28244 and sgl-project/sglang#14270 had to "
          "add it)");
    const bool reads_betas = g_.architecture == "grok" || g_.architecture == "mistral3";
    for (const auto& [name, v, dflt] : {std::tuple{"beta_fast", a_.beta_fast, 32.0}, std::tuple{"beta_slow", a_.beta_slow, 1.0}})
      if (v && *v != 0 && *v != dflt && !reads_betas)
        add(name, key(std::string("rope.scaling.yarn_") + name), num(*v), fmt::format("{} (llama.cpp default)", dflt),
            fmt::format("non-default {} is not read by llama.cpp for architecture {} (only grok and mistral3 read the "
                        "betas)",
                        name, g_.architecture));
  }

  void llama3() {
    if (b_.gguf_freq_factors.empty()) {
      add("rope_freqs.weight", "tensor rope_freqs.weight", "llama3 factors (F32, rotary_dim/2 values)", "absent",
          "llama3 scaling lost: conversions before ggml-org/llama.cpp#8676 (2024-07-24) wrote no rope_freqs; older "
          "runtimes then fail with 'wrong number of tensors' (#8761)");
      return;
    }
    // The converter reads the top-level original_max_position_embeddings, default 8192 (llama.py).
    const auto ctx = a_.top_level_original_max_position_embeddings > 0 ? a_.top_level_original_max_position_embeddings
                                                                        : std::int64_t{8192};
    const auto want = rope::detail::gguf_llama3_factors(a_, ctx);
    compare_list("rope_freqs.weight", want, b_.gguf_freq_factors,
                 "wrong llama3 factors: the first revision of ggml-org/llama.cpp#8676 stored frequencies, and "
                 "1/(1−s)·factor + s was corrected to 1/((1−s)/factor + s) in review");
  }

  void longrope() {
    if (b_.scaling != RopeScaling::kLongrope) {
      add("rope_factors_long/short.weight", "tensors", "longrope lists", std::string(to_string(b_.scaling)),
          "LongRoPE lists lost in conversion");
      return;
    }
    original_length();
    compare_list("rope_factors_long.weight", a_.long_factor, b_.long_factor,
                 "stale LongRoPE lists: Phi-3's factors changed upstream (su → longrope, ggml-org/llama.cpp#8262): "
                 "convert again");
    compare_list("rope_factors_short.weight", a_.short_factor, b_.short_factor,
                 "stale LongRoPE lists: Phi-3's factors changed upstream (su → longrope, ggml-org/llama.cpp#8262): "
                 "convert again");
  }

  void compare_list(const std::string& name, const std::vector<double>& want, const std::vector<double>& found,
                    const std::string& cause) {
    if (want.size() != found.size()) {
      add(name, "tensor " + name, fmt::format("{} values", want.size()), fmt::format("{} values", found.size()),
          "length ≠ rotary_dim/2: " + cause);
      return;
    }
    // As float32, within one unit in the last place: a writer that evaluates the rule in float32
    // rather than in Python's double differs by that much.
    const auto differ = [&](std::size_t j) {
      const float w = f32(want[j]), x = f32(found[j]);
      return !(std::abs(w - x) <= std::abs(w) * 1.2e-7f);
    };
    for (std::size_t i = 0; i < want.size(); ++i)
      if (differ(i)) {
        std::size_t n = 0;
        for (std::size_t j = 0; j < want.size(); ++j) n += differ(j) ? 1 : 0;
        add(name, fmt::format("tensor {}[{}] (first of {} differing values)", name, i, n), num(f32(want[i])),
            num(found[i]), cause);
        return;
      }
  }

 private:
  const RopeConfig& a_;
  const RopeConfig& b_;
  const RopeGgufSource& g_;
  GgufCheck& out_;
};

GgufEffect effect_at(const RopeConfig& hf, const RopeConfig& gg, std::int64_t context) {
  RopeConfig a = hf, b = gg;
  a.seq_len = context, b.seq_len = context;
  const RopeFrequencies fa = compute_frequencies(a);
  const RopeFrequencies fb = compute_frequencies(b);
  GgufEffect e;
  e.context = context;
  e.pairs = std::min(fa.pairs(), fb.pairs());
  for (std::size_t i = 0; i < e.pairs; ++i) {
    const double d = std::abs(fb.inv_freq[i] - fa.inv_freq[i]) / std::abs(fa.inv_freq[i]);
    if (!(d <= e.max_rel_inv_freq)) e.max_rel_inv_freq = d, e.worst_pair = i;
  }
  e.attention_a = fa.attention_factor, e.attention_b = fb.attention_factor;
  e.list_a = fa.longrope_list, e.list_b = fb.longrope_list;
  return e;
}

}  // namespace

bool GgufCheck::ok() const {
  for (const auto& f : findings)
    if (f.error) return false;
  return true;
}

GgufCheck check_gguf_conversion(const RopeConfig& hf, const RopeConfig& gguf, std::int64_t max_model_len, double tol) {
  if (!gguf.gguf) throw Error("rope diff: side b must be a .gguf file for the conversion check");
  GgufCheck out;
  out.tol = tol;
  Checker k(hf, gguf, out);
  k.architecture();
  k.base();
  k.shape();
  k.scaling();
  // Effect: within and above the original context.
  const std::int64_t orig = std::max<std::int64_t>(1, hf.original_length());
  const std::int64_t above =
      max_model_len > 0 ? max_model_len : std::max(hf.max_position_embeddings, orig * 2);
  for (std::int64_t ctx : {orig, above}) {
    if (!out.effects.empty() && out.effects.back().context == ctx) continue;
    GgufEffect e = effect_at(hf, gguf, ctx);
    const bool freq_bad = !(e.max_rel_inv_freq <= tol);
    const bool attn_bad = !(std::abs(e.attention_b - e.attention_a) <= tol);
    const bool pairs_bad = e.pairs != static_cast<std::size_t>(hf.rotary_dim / 2) ||
                           e.pairs != static_cast<std::size_t>(gguf.rotary_dim / 2);
    const std::string where = fmt::format("context {}", ctx);
    const std::string cause = out.ok() ? "no key finding explains it: compare the settings lists of both sides"
                                       : "follows from the findings above";
    if (freq_bad && !pairs_bad)
      k.add("inv_freq", fmt::format("pair {} at {}", e.worst_pair, where), "transformers (relative difference)",
            fmt::format("llama.cpp differs by {:.3g}, above --tol {}", e.max_rel_inv_freq, tol), cause);
    if (attn_bad)
      k.add("attention factor", where, fmt::format("{} (transformers)", e.attention_a),
            fmt::format("{} (llama.cpp)", e.attention_b),
            hf.attention_factor ? "an explicit attention_factor is recomputed away by llama.cpp (get_mscale; "
                                  "ggml-org/llama.cpp#17945)"
                                : hf.mscale || hf.mscale_all_dim
                                      ? "yarn_log_multiplier means 0.1·mscale_all_dim for deepseek2, mscale_all_dim "
                                        "for mistral3 and nothing elsewhere; mscale is never stored "
                                        "(ggml-org/llama.cpp#17945, #22612)"
                                      : cause);
    if (e.list_a != e.list_b)
      k.add("LongRoPE list", where, e.list_a + " (transformers: by sequence length)",
            e.list_b + " (llama.cpp: by the allocated context -c)",
            "llama.cpp picks the list once per context, transformers per sequence (ggml-org/llama.cpp#24823)", false);
    out.effects.push_back(e);
  }
  return out;
}

}  // namespace posenc::models
