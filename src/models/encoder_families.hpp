#pragma once
// The position mechanisms of speech and vision encoders that have no table posenc tabulates
// (internal): Wav2Vec2 and HuBERT's convolutional positions, the 2-D rotary embeddings of the
// Pixtral and DINOv3 ViT vision towers.
#include <string>

#include "hf_scope.hpp"
#include "posenc/models/model_report.hpp"

namespace posenc::models::detail {

/// Adds the mechanism of a wav2vec2, hubert, pixtral or dinov3_vit scope to `r` (nothing for
/// another family). Error naming the field for a value the model class could not use.
void add_encoder_mechanisms(const HfScope& s, const std::string& file, ModelReport& r);

}  // namespace posenc::models::detail
