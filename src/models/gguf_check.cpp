// config.json against the GGUF converted from it (see gguf_check.hpp). The converter's rules:
// llama.cpp convert_hf_to_gguf.py / conversion/*.py (ggml-org/llama.cpp @ 81ff7abe, via
// ../shared/reference/gguf.md §3-4); the issues cited are where each mistake was seen.
#include "posenc/models/gguf_check.hpp"

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
namespace {

bool from_key(const RopeConfig& c, const std::string& name) {
  for (const auto& s : c.sources)
    if (s.name == name) return s.source.starts_with("GGUF");
  return false;
}

float f32(double v) { return static_cast<float>(v); }

std::string num(double v) { return fmt::format("{}", v); }

/// A float32 value in its shortest float32 spelling (0.1, not 0.10000000149011612).
std::string num_f32(double v) { return fmt::format("{}", static_cast<float>(v)); }

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

  void loads() {
    for (const auto& why : g_.load_errors)
      add("load", g_.path, "a file llama.cpp loads", "refused", why);
  }

  void base() {
    if (f32(a_.base) == f32(b_.base)) return;
    if (!from_key(b_, "base")) {
      // ../shared/reference/gguf.md §3: only these converters write no rope.freq_base.
      static const std::set<std::string> kNoBase = {"gemma", "gemma2", "gptneox", "stablelm", "phi2", "falcon"};
      add("rope.freq_base", key("rope.freq_base"), num(f32(a_.base)), "absent: llama.cpp uses 10000",
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
    if (a_.max_position_embeddings > 0 && a_.max_position_embeddings != g_.n_ctx_train) {
      // ../shared/reference/gguf.md §3: command-r writes model_max_length, falcon 2048; every other
      // RoPE architecture writes the first of max_position_embeddings, n_ctx, n_positions, ...
      // (conversion/base.py), so a different value is a finding there.
      const std::string& an = g_.architecture;
      const bool by_rule = an == "command-r" || an == "falcon";
      add("context length", key("context_length"), num(static_cast<double>(a_.max_position_embeddings)),
          num(static_cast<double>(g_.n_ctx_train)),
          by_rule ? fmt::format("by the converter's rule for {} ({}); it sets llama.cpp's default -c", an,
                                an == "falcon" ? "context_length hard-coded 2048" : "context_length = model_max_length")
                  : fmt::format("llama.cpp's converter for {} writes max_position_embeddings as context_length: the "
                                "file was edited or converted from another config; it sets llama.cpp's default -c "
                                "(n_ctx_train){}",
                                an, from_key(b_, "original-max-position-embeddings")
                                        ? std::string()
                                        : " and, without rope.scaling.original_context_length, the YaRN/LongRoPE "
                                          "original context"),
          !by_rule);
    }
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
    yarn_log_multiplier();
    const bool reads_betas = g_.architecture == "grok" || g_.architecture == "mistral3";
    for (const auto& [name, v, dflt] : {std::tuple{"beta_fast", a_.beta_fast, 32.0}, std::tuple{"beta_slow", a_.beta_slow, 1.0}})
      if (v && *v != 0 && *v != dflt && !reads_betas)
        add(name, key(std::string("rope.scaling.yarn_") + name), num(*v), fmt::format("{} (llama.cpp default)", dflt),
            fmt::format("non-default {} is not read by llama.cpp for architecture {} (only grok and mistral3 read the "
                        "betas)",
                        name, g_.architecture));
  }

  /// deepseek2 reads yarn_log_multiplier as 0.1·mscale_all_dim (÷ 0.1 on load), mistral3 as
  /// mscale_all_dim (../shared/reference/gguf.md §3; conversion/deepseek.py, llama-model.cpp,
  /// [TAG_DEEPSEEK2_YARN_LOG_MUL_FIX], ggml-org/llama.cpp#17945). The converter writes the key
  /// only when the config has mscale_all_dim.
  void yarn_log_multiplier() {
    const std::string& an = g_.architecture;
    if (an != "deepseek2" && an != "mistral3") return;
    const double unit = an == "deepseek2" ? 0.1 : 1.0;  // stored = unit · mscale_all_dim
    const std::string k = key("rope.scaling.yarn_log_multiplier");
    std::string stored = "absent";
    for (const auto& kv : g_.keys)
      if (kv.key == k) stored = kv.value;
    const auto want = a_.mscale_all_dim;
    const auto found = b_.mscale_all_dim;  // already ÷ 0.1 for deepseek2
    if (!want && !found) return;
    if (want && found && std::abs(f32(*want) - f32(*found)) <= 1e-6f * std::max(1.0f, std::abs(f32(*want)))) return;
    const std::string expected = want ? fmt::format("{} ({}mscale_all_dim {})", num_f32(unit * *want),
                                                    an == "deepseek2" ? "0.1·" : "", *want)
                                      : std::string("absent (the config has no mscale_all_dim)");
    std::string cause;
    if (want && found && an == "deepseek2" && std::abs(*found - *want / unit) <= 1e-5 * std::abs(*want / unit))
      cause = fmt::format("the key holds mscale_all_dim itself where deepseek2 stores 0.1·mscale_all_dim: llama.cpp "
                          "divides it by 0.1 on load and reads mscale_all_dim = {}, so kq_scale's mscale² and the "
                          "YaRN ratio change ([TAG_DEEPSEEK2_YARN_LOG_MUL_FIX], ggml-org/llama.cpp#17945)",
                          num_f32(*found));
    else if (want && !found)
      cause = "yarn_log_multiplier not written: llama.cpp drops mscale_all_dim from the YaRN attention factor and the "
              "softmax scale (ggml-org/llama.cpp#17945)";
    else
      cause = fmt::format("yarn_log_multiplier ≠ {}mscale_all_dim of the config: llama.cpp reads mscale_all_dim = {} "
                          "(ggml-org/llama.cpp#17945, #22612)",
                          an == "deepseek2" ? "0.1·" : "", found ? num_f32(*found) : std::string("0"));
    add("rope.scaling.yarn_log_multiplier", k, expected, stored, cause);
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
    if (a_.long_factor != a_.short_factor && lists_match(a_.long_factor, b_.short_factor) &&
        lists_match(a_.short_factor, b_.long_factor)) {
      add("rope_factors_long/short.weight", "tensors rope_factors_long.weight and rope_factors_short.weight",
          "long = config long_factor, short = config short_factor",
          "long = config short_factor, short = config long_factor",
          "long and short lists swapped in conversion: llama.cpp uses the short list beyond the original context and "
          "the long one within it");
      return;
    }
    const std::string cause =
        g_.architecture == "phi3"
            ? "stale LongRoPE lists: Phi-3's factors changed upstream (su → longrope, ggml-org/llama.cpp#8262): "
              "convert again"
            : "the lists differ from the config's long_factor/short_factor: converted from another revision of the "
              "config or another model";
    compare_list("rope_factors_long.weight", a_.long_factor, b_.long_factor, cause);
    compare_list("rope_factors_short.weight", a_.short_factor, b_.short_factor, cause);
  }

  void compare_list(const std::string& name, const std::vector<double>& want, const std::vector<double>& found,
                    const std::string& cause) {
    if (want.size() != found.size()) {
      add(name, "tensor " + name, fmt::format("{} values", want.size()), fmt::format("{} values", found.size()),
          "length ≠ rotary_dim/2: " + cause);
      return;
    }
    // As float32, within kFactorUlps units in the last place (see gguf_check.hpp); beyond that a
    // finding only when inv_freq moves by more than --tol (θ_i / factor_i: relative change
    // |x − w| / |x|), else a note.
    std::size_t first = want.size(), n = 0;
    double worst = 0;
    for (std::size_t j = 0; j < want.size(); ++j)
      if (ulps_apart(f32(want[j]), f32(found[j])) > kFactorUlps) {
        if (first == want.size()) first = j;
        ++n;
        const double x = f32(found[j]), w = f32(want[j]);
        worst = std::max(worst, !(x != 0) ? INFINITY : std::abs(x - w) / std::abs(x));
      }
    if (n == 0) return;
    const bool moves = !(worst <= out_.tol);
    add(name, fmt::format("tensor {}[{}] (first of {} values more than {} float32 ulps off)", name, first, n, kFactorUlps),
        num(f32(want[first])), num(found[first]),
        moves ? cause
              : fmt::format("within --tol {}: inv_freq moves by at most {:.3g} relative, positions unchanged", out_.tol,
                            worst),
        moves);
  }

  static std::int64_t ulps_apart(float a, float b) {
    if (std::isnan(a) || std::isnan(b)) return INT64_MAX;
    const auto ordered = [](float v) {  // float bits in the order of the values
      const auto i = static_cast<std::int64_t>(std::bit_cast<std::int32_t>(v));
      return i < 0 ? std::int64_t{INT32_MIN} - i : i;
    };
    return std::abs(ordered(a) - ordered(b));
  }

  static bool lists_match(const std::vector<double>& a, const std::vector<double>& b) {
    if (a.size() != b.size() || a.empty()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
      if (ulps_apart(f32(a[i]), f32(b[i])) > kFactorUlps) return false;
    return true;
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
  e.logit_a = fa.logit_scale, e.logit_b = fb.logit_scale;
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
  k.loads();
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
  return out;
}

}  // namespace posenc::models
