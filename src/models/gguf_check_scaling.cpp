// The conversion check's scaling keys and factor tensors: YaRN, llama3's rope_freqs and LongRoPE's
// lists (see gguf_check.hpp). The converter's rules: llama.cpp conversion/*.py (ggml-org/llama.cpp
// @ 81ff7abe, via ../shared/reference/gguf.md §3-4); the issues cited are where each mistake was seen.
#include "gguf_check_internal.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <climits>
#include <cmath>
#include <cstdint>
#include <tuple>

#include "../rope/rope_internal.hpp"

namespace posenc::models {

using namespace rope;  // settings are read into rope's RopeConfig

void detail::GgufKeyChecker::yarn(const std::string& type_found) {
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
      add(name, key(std::string("rope.scaling.yarn_") + name), gguf_num(*v), fmt::format("{} (llama.cpp default)", dflt),
          fmt::format("non-default {} is not read by llama.cpp for architecture {} (only grok and mistral3 read the "
                      "betas)",
                      name, g_.architecture));
}

/// deepseek2 reads yarn_log_multiplier as 0.1·mscale_all_dim (÷ 0.1 on load), mistral3 as
/// mscale_all_dim (../shared/reference/gguf.md §3; conversion/deepseek.py, llama-model.cpp,
/// [TAG_DEEPSEEK2_YARN_LOG_MUL_FIX], ggml-org/llama.cpp#17945). The converter writes the key
/// only when the config has mscale_all_dim.
void detail::GgufKeyChecker::yarn_log_multiplier() {
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
  if (want && found && std::abs(gguf_f32(*want) - gguf_f32(*found)) <= 1e-6f * std::max(1.0f, std::abs(gguf_f32(*want)))) return;
  const std::string expected = want ? fmt::format("{} ({}mscale_all_dim {})", gguf_num_f32(unit * *want),
                                                  an == "deepseek2" ? "0.1·" : "", *want)
                                    : std::string("absent (the config has no mscale_all_dim)");
  std::string cause;
  if (want && found && an == "deepseek2" && std::abs(*found - *want / unit) <= 1e-5 * std::abs(*want / unit))
    cause = fmt::format("the key holds mscale_all_dim itself where deepseek2 stores 0.1·mscale_all_dim: llama.cpp "
                        "divides it by 0.1 on load and reads mscale_all_dim = {}, so kq_scale's mscale² and the "
                        "YaRN ratio change ([TAG_DEEPSEEK2_YARN_LOG_MUL_FIX], ggml-org/llama.cpp#17945)",
                        gguf_num_f32(*found));
  else if (want && !found)
    cause = "yarn_log_multiplier not written: llama.cpp drops mscale_all_dim from the YaRN attention factor and the "
            "softmax scale (ggml-org/llama.cpp#17945)";
  else
    cause = fmt::format("yarn_log_multiplier ≠ {}mscale_all_dim of the config: llama.cpp reads mscale_all_dim = {} "
                        "(ggml-org/llama.cpp#17945, #22612)",
                        an == "deepseek2" ? "0.1·" : "", found ? gguf_num_f32(*found) : std::string("0"));
  add("rope.scaling.yarn_log_multiplier", k, expected, stored, cause);
}

void detail::GgufKeyChecker::llama3() {
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

void detail::GgufKeyChecker::longrope() {
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

void detail::GgufKeyChecker::compare_list(const std::string& name, const std::vector<double>& want, const std::vector<double>& found,
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
    if (ulps_apart(gguf_f32(want[j]), gguf_f32(found[j])) > kFactorUlps) {
      if (first == want.size()) first = j;
      ++n;
      const double x = gguf_f32(found[j]), w = gguf_f32(want[j]);
      worst = std::max(worst, !(x != 0) ? INFINITY : std::abs(x - w) / std::abs(x));
    }
  if (n == 0) return;
  const bool moves = !(worst <= out_.tol);
  add(name, fmt::format("tensor {}[{}] (first of {} values more than {} float32 ulps off)", name, first, n, kFactorUlps),
      gguf_num(gguf_f32(want[first])), gguf_num(found[first]),
      moves ? cause
            : fmt::format("within --tol {}: inv_freq moves by at most {:.3g} relative, positions unchanged", out_.tol,
                          worst),
      moves);
}

std::int64_t detail::GgufKeyChecker::ulps_apart(float a, float b) {
  if (std::isnan(a) || std::isnan(b)) return INT64_MAX;
  const auto ordered = [](float v) {  // float bits in the order of the values
    const auto i = static_cast<std::int64_t>(std::bit_cast<std::int32_t>(v));
    return i < 0 ? std::int64_t{INT32_MIN} - i : i;
  };
  return std::abs(ordered(a) - ordered(b));
}

bool detail::GgufKeyChecker::lists_match(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() != b.size() || a.empty()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (ulps_apart(gguf_f32(a[i]), gguf_f32(b[i])) > kFactorUlps) return false;
  return true;
}

}  // namespace posenc::models
