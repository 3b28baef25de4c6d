// config.json against the GGUF converted from it (see gguf_check.hpp). The converter's rules:
// llama.cpp convert_hf_to_gguf.py / conversion/*.py (ggml-org/llama.cpp @ 81ff7abe, via
// ../shared/reference/gguf.md §3-4); the issues cited are where each mistake was seen.
#include "posenc/models/gguf_check.hpp"
#include "gguf_check_internal.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <climits>
#include <cmath>
#include <cstdint>
#include <set>

#include "posenc/models/llama_arch.hpp"
#include "posenc/models/rope_gguf.hpp"
#include "posenc/error.hpp"
#include "../rope/rope_internal.hpp"

namespace posenc::models {

using namespace rope;  // settings are read into rope's RopeConfig
using detail::GgufKeyChecker;

void detail::GgufKeyChecker::architecture() {
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

void detail::GgufKeyChecker::loads() {
  for (const auto& why : g_.load_errors)
    add("load", g_.path, "a file llama.cpp loads", "refused", why);
}

void detail::GgufKeyChecker::base() {
  if (gguf_f32(a_.base) == gguf_f32(b_.base)) return;
  if (!gguf_from_key(b_, "base")) {
    // ../shared/reference/gguf.md §3: only these converters write no rope.freq_base.
    static const std::set<std::string> kNoBase = {"gemma", "gemma2", "gptneox", "stablelm", "phi2", "falcon"};
    add("rope.freq_base", key("rope.freq_base"), gguf_num(gguf_f32(a_.base)), "absent: llama.cpp uses 10000",
        kNoBase.count(g_.architecture) != 0
            ? fmt::format("base never written: llama.cpp's converter for {} writes no rope.freq_base{}, so a "
                          "rope_theta other than 10000 is lost",
                          g_.architecture, g_.architecture == "gptneox" ? " (rotary_emb_base is dropped)" : "")
            : fmt::format("base never written although llama.cpp's converter for {} writes rope_theta as "
                          "rope.freq_base: an older converter (CodeLlama's 1e6 was dropped, ggml-org/llama.cpp#2768, "
                          "fixed by #2773) or another tool wrote the file",
                          g_.architecture));
  }
  else
    add("rope.freq_base", key("rope.freq_base"), gguf_num(gguf_f32(a_.base)), gguf_num(b_.base),
        "rope_theta differs: converted from another revision of the config, or edited after conversion");
}

void detail::GgufKeyChecker::shape() {
  if (a_.head_dim != b_.head_dim)
    add("head size", key("attention.key_length"), gguf_num(static_cast<double>(a_.head_dim)),
        fmt::format("{}{}", b_.head_dim, gguf_from_key(b_, "dim") ? "" : " (n_embd / n_head: no key_length)"),
        "head_dim ≠ hidden_size / num_attention_heads without attention.key_length (Mistral Nemo before "
        "ggml-org/llama.cpp#8604: \"wrong shape\", #8577)");
  if (a_.rotary_dim != b_.rotary_dim)
    add("rotary width", key("rope.dimension_count"), gguf_num(static_cast<double>(a_.rotary_dim)),
        gguf_num(static_cast<double>(b_.rotary_dim)),
        "partial rotary: the converters compute int(pct·n_embd)//n_head (phi2, phi3) or int(pct·head_dim) (gptneox, "
        "stablelm), transformers int(head_dim·partial_rotary_factor); Persimmon wrote head_dim (ggml-org/llama.cpp#5460)");
  if (a_.max_position_embeddings > 0 && a_.max_position_embeddings != g_.n_ctx_train) {
    // ../shared/reference/gguf.md §3: command-r writes model_max_length, falcon 2048; every other
    // RoPE architecture writes the first of max_position_embeddings, n_ctx, n_positions, ...
    // (conversion/base.py), so a different value is a finding there.
    const std::string& an = g_.architecture;
    const bool by_rule = an == "command-r" || an == "falcon";
    add("context length", key("context_length"), gguf_num(static_cast<double>(a_.max_position_embeddings)),
        gguf_num(static_cast<double>(g_.n_ctx_train)),
        by_rule ? fmt::format("by the converter's rule for {} ({}); it sets llama.cpp's default -c", an,
                              an == "falcon" ? "context_length hard-coded 2048" : "context_length = model_max_length")
                : fmt::format("llama.cpp's converter for {} writes max_position_embeddings as context_length: the "
                              "file was edited or converted from another config; it sets llama.cpp's default -c "
                              "(n_ctx_train){}",
                              an, gguf_from_key(b_, "original-max-position-embeddings")
                                      ? std::string()
                                      : " and, without rope.scaling.original_context_length, the YaRN/LongRoPE "
                                        "original context"),
        !by_rule);
  }
}

void detail::GgufKeyChecker::original_length() {
  const std::int64_t want = a_.original_length();
  if (want <= 0 || want == g_.n_ctx_orig) return;
  add("original context", key("rope.scaling.original_context_length"), gguf_num(static_cast<double>(want)),
      gguf_from_key(b_, "original-max-position-embeddings") ? gguf_num(static_cast<double>(g_.n_ctx_orig))
                                                       : fmt::format("absent: n_ctx_train {} is used", g_.n_ctx_orig),
      "original_context_length left out or wrong: it moves YaRN's correction range and the LongRoPE switch point");
}

void detail::GgufKeyChecker::factor_key(const char* method) {
  const double want = rope::detail::required_factor(a_);
  if (!b_.factor || gguf_f32(*b_.factor) != gguf_f32(want))
    add("rope.scaling.factor", key("rope.scaling.factor"), gguf_num(gguf_f32(want)), b_.factor ? gguf_num(*b_.factor) : "absent (1)",
        fmt::format("{} factor lost or changed", method));
}

void detail::GgufKeyChecker::scaling() {
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


GgufEffect detail::gguf_effect_at(const RopeConfig& hf, const RopeConfig& gg, std::int64_t context) {
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
  e.logit_a = fa.logit_scale, e.logit_b = fb.logit_scale;
  e.list_a = fa.longrope_list, e.list_b = fb.longrope_list;
  return e;
}

bool GgufCheck::ok() const {
  for (const auto& f : findings)
    if (f.error) return false;
  return true;
}

GgufCheck check_gguf_conversion(const RopeConfig& hf, const RopeConfig& gguf, std::int64_t max_model_len, double tol,
                                const ParamMap* side_a) {
  if (!gguf.gguf) throw Error("rope diff: side b must be a .gguf file for the conversion check");
  GgufCheck out;
  out.tol = tol;
  GgufKeyChecker k(hf, gguf, out);
  k.loads();
  k.architecture();
  k.base();
  k.shape();
  k.scaling();
  // Effect: within and above the original context.
  const std::int64_t orig = std::max<std::int64_t>(1, hf.original_length());
  const std::int64_t above =
      max_model_len > 0 ? max_model_len : std::max(hf.max_position_embeddings, orig * 2);
  std::vector<std::int64_t> contexts;
  for (std::int64_t ctx : {orig, above}) {
    if (!out.effects.empty() && out.effects.back().context == ctx) continue;
    contexts.push_back(ctx);
    GgufEffect e = detail::gguf_effect_at(hf, gguf, ctx);
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
    if (!(std::abs(e.logit_b - e.logit_a) <= tol * std::abs(e.logit_a)))
      k.add("logit scale", where, fmt::format("{} (transformers)", e.logit_a), fmt::format("{} (llama.cpp)", e.logit_b),
            gguf.gguf->architecture == "deepseek2"
                ? "llama.cpp's deepseek2 graph scales kq by mscale² with mscale from yarn_log_multiplier ÷ 0.1 "
                  "(src/models/deepseek2.cpp, ggml-org/llama.cpp#17945)"
                : cause);
    if (e.list_a != e.list_b)
      k.add("LongRoPE list", where, e.list_a + " (transformers: by sequence length)",
            e.list_b + " (llama.cpp: by the allocated context -c)",
            "llama.cpp picks the list once per context, transformers per sequence (ggml-org/llama.cpp#24823)", false);
    out.effects.push_back(e);
  }
  detail::check_gguf_layers(hf, gguf, contexts, side_a, out);
  return out;
}

}  // namespace posenc::models
