#include "posenc/models/rope_sides.hpp"

#include <tuple>

#include "posenc/rope/rope.hpp"

namespace posenc::models {

bool same_rope_settings(const rope::RopeConfig& a, const rope::RopeConfig& b) {
  const auto head = [](const rope::RopeConfig& c) {
    return std::tie(c.head_dim, c.rotary_dim, c.layout, c.convention, c.precision, c.apply_attention_factor);
  };
  if (head(a) != head(b)) return false;
  const auto fa = rope::compute_frequencies(a), fb = rope::compute_frequencies(b);
  const auto recipe = [](const rope::RopeFrequencies& f) {
    return std::tie(f.inv_freq, f.attention_factor, f.ggml_theta_scale, f.ggml_freq_scale, f.ggml_ext_factor,
                    f.ggml_corr_dims[0], f.ggml_corr_dims[1], f.ggml_attn_factor, f.ggml_freq_factors);
  };
  return recipe(fa) == recipe(fb);
}

std::string rope_diff_warning(const rope::RopeConfig& a, const rope::RopeConfig& b) {
  if (!same_rope_settings(a, b)) return "";
  // e.g. two configs with the same RoPE, or --convention-a hf --convention-b hf
  return "rope diff: both sides resolve to the same settings, so they agree by construction "
         "(nothing was compared that could differ)";
}

}  // namespace posenc::models
