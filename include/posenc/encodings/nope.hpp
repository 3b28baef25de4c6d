#pragma once
/// NoPE, no positional encoding (Kazemnejad et al. 2023): attention sees positions only
/// through the causal mask. Llama 4 interleaves NoPE layers with RoPE layers
/// (meta-llama/llama-models `models/llama4/model.py` @ a9c89c47: layer i is NoPE when
/// (i + 1) % nope_layer_interval == 0) and scales the queries of its NoPE layers by a
/// temperature that grows with the absolute position t (`attn_temperature_tuning`):
///   s(t) = 1 + attn_scale · ln(⌊(t + 1) / floor_scale⌋ + 1)
/// (transformers `Llama4TextAttention`: log1p(floor((cache_position + 1) / floor_scale)) ·
/// attn_scale + 1, in float32; attn_scale 0.1, floor_scale 8192).
#include <cstdint>

namespace posenc::encodings {

/// s(t) in double, or as float32 tensors compute it (`f32`): the position is rounded to
/// float32 first (exact below 2^24), then each operation rounds.
double nope_temperature(std::int64_t t, double attn_scale, double floor_scale, bool f32);

/// Whether layer `layer` (0-based) is a NoPE layer for `interval` (Llama 4: 4, layers 3, 7, ...).
bool is_nope_layer(std::int64_t layer, std::int64_t interval);

}  // namespace posenc::encodings
