// Positions of speech and vision encoders (see encoder_families.hpp), read from transformers at
// decba1d2 (main of 2026-08-19, the commit of data/families/families.json):
//  - models/wav2vec2/modeling_wav2vec2.py, models/hubert/modeling_hubert.py: *PositionalConvEmbedding
//    is Conv1d(hidden, hidden, kernel_size=num_conv_pos_embeddings, padding=kernel // 2,
//    groups=num_conv_pos_embedding_groups) with weight norm (HuBERT: BatchNorm1d instead when
//    conv_pos_batch_norm), *SamePadLayer dropping the last frame when the kernel is even, GELU; the
//    result is added to the features before the first layer (both encoder variants);
//  - models/pixtral/modeling_pixtral.py: PixtralRotaryEmbedding, freqs = 1 / θ^(arange(0, d, 2) / d)
//    in float32, rows take freqs[::2], columns freqs[1::2], max_patches_per_side = image_size //
//    patch_size, cat(f, f) with rotate_half; position id row · max_width + column;
//  - models/dinov3_vit/modeling_dinov3_vit.py: DINOv3ViTRopePositionEmbedding, inv_freq = 1 /
//    θ^arange(0, 1, 4 / head_dim) (float32), get_patches_center_coordinates ((i + 0.5) / n, then
//    2c − 1), angles 2π · c · inv_freq flattened [rows | columns] and tiled twice (rotate_half);
//    apply_rotary_pos_emb leaves the class and register tokens unrotated.
#include "encoder_families.hpp"

#include <fmt/format.h>

#include <cmath>
#include <numbers>

#include "model_internal.hpp"
#include "posenc/error.hpp"

namespace posenc::models::detail {
namespace {

constexpr std::int64_t kEncoderMaxWidth = std::int64_t{1} << 24;

std::int64_t encoder_int(const HfScope& s, const std::string& file, const char* key, std::int64_t lo, std::int64_t hi,
                         std::int64_t fallback) {
  return checked_int(s, file, key, lo, hi, fallback);
}

void add_conv_positions(const HfScope& s, const std::string& file, ModelReport& r) {
  const bool hubert = s.family->model_type == "hubert";
  const auto kernel = encoder_int(s, file, "num_conv_pos_embeddings", 1, 1 << 20, 128);
  const auto groups = encoder_int(s, file, "num_conv_pos_embedding_groups", 1, kEncoderMaxWidth, 16);
  const auto hidden = encoder_int(s, file, "hidden_size", 1, kEncoderMaxWidth, 768);
  if (hidden % groups != 0)
    throw Error(fmt::format("{}: \"{}hidden_size\" {} is not a multiple of \"{}num_conv_pos_embedding_groups\" {} "
                            "(Conv1d needs its channels split evenly into groups)",
                            file, s.prefix, hidden, s.prefix, groups));
  const bool batch_norm = hubert && bool_field(*s.cfg, "conv_pos_batch_norm", false);
  MechanismUse m{Mechanism::kConvolutional, "embeddings (added before layer 0)", "", {}, {}, {}, ""};
  m.values = {{"kernel", kernel},
              {"groups", groups},
              {"channels", hidden},
              {"channels_per_group", hidden / groups},
              {"padding", kernel / 2},
              {"trimmed_frames", std::int64_t{kernel % 2 == 0 ? 1 : 0}},
              {"frames_before", kernel / 2},
              {"frames_after", kernel - 1 - kernel / 2},
              {"normalisation", std::string(batch_norm ? "batch_norm" : "weight_norm")}};
  m.notes.push_back(fmt::format("{}PositionalConvEmbedding: Conv1d({}, {}, kernel_size={}, padding={}, groups={}){}, "
                                "{}then GELU; added to the features before the first layer",
                                hubert ? "Hubert" : "Wav2Vec2", hidden, hidden, kernel, kernel / 2, groups,
                                batch_norm ? " after BatchNorm1d (conv_pos_batch_norm)" : " with weight norm",
                                kernel % 2 == 0 ? "the last frame dropped (even kernel, SamePadLayer), " : ""));
  m.notes.push_back(fmt::format("each frame's position signal comes from the {} frames before it and {} after it: "
                                "relative, learned, and content-dependent; there is no position table to tabulate "
                                "(the trained kernel is the checkpoint's encoder.pos_conv_embed.conv)",
                                kernel / 2, kernel - 1 - kernel / 2));
  r.mechanisms.push_back(std::move(m));
}

/// The rope_theta of a PixtralVisionConfig: rope_parameters.rope_theta, else rope_theta, else
/// RotaryEmbeddingConfigMixin.default_theta (10000); Error for a rope_type other than default.
double pixtral_theta(const HfScope& s, const std::string& file, std::string& from) {
  double theta = 10000.0;
  from = "RotaryEmbeddingConfigMixin.default_theta (no rope_theta in the file)";
  if (auto t = s.cfg->find("rope_theta"); t != s.cfg->end() && t->is_number()) {
    theta = t->get<double>();
    from = "rope_theta";
  }
  if (auto p = s.cfg->find("rope_parameters"); p != s.cfg->end() && p->is_object()) {
    const std::string type = p->contains("rope_type") && (*p)["rope_type"].is_string()
                                 ? (*p)["rope_type"].get<std::string>()
                                 : p->contains("type") && (*p)["type"].is_string() ? (*p)["type"].get<std::string>()
                                                                                    : "default";
    if (type != "default")
      throw Error(fmt::format("{}: \"{}rope_parameters.rope_type\" is '{}': PixtralRotaryEmbedding supports only "
                              "'default' (transformers raises ValueError)",
                              file, s.prefix, type));
    if (auto t = p->find("rope_theta"); t != p->end() && t->is_number()) {
      theta = t->get<double>();
      from = "rope_parameters.rope_theta";
    }
  }
  if (!(theta > 1.0) || !std::isfinite(theta))
    throw Error(fmt::format("{}: the vision rope theta must be a number above 1 (got {} from {})", file, theta, from));
  return theta;
}

/// float32(1 / float32(θ^e)) with e = float32(num / den): the inverse frequency as torch's
/// float32 tensors hold it.
double encoder_inv_freq(double theta, double num, double den) {
  const float e = static_cast<float>(num) / static_cast<float>(den);
  return static_cast<double>(1.0f / static_cast<float>(std::pow(theta, static_cast<double>(e))));
}

void add_pixtral(const HfScope& s, const std::string& file, ModelReport& r) {
  const auto hidden = encoder_int(s, file, "hidden_size", 1, kEncoderMaxWidth, 1024);
  const auto heads = encoder_int(s, file, "num_attention_heads", 1, 65536, 16);
  // __post_init__ sets head_dim = hidden_size // num_attention_heads; a head_dim in the file is set
  // after it (an extra keyword), so it wins.
  const auto head_dim = encoder_int(s, file, "head_dim", 2, 65536, hidden / heads);
  if (head_dim < 4)
    throw Error(fmt::format("{}: the vision head width {} leaves no pair for the column axis (need at least 4)", file,
                            head_dim));
  const auto image = encoder_int(s, file, "image_size", 1, kEncoderMaxWidth, 1024);
  const auto patch = encoder_int(s, file, "patch_size", 1, kEncoderMaxWidth, 16);
  const auto side = image / patch;
  if (side < 1)
    throw Error(fmt::format("{}: \"{}image_size\" {} is smaller than \"{}patch_size\" {}: no patch", file, s.prefix,
                            image, s.prefix, patch));
  std::string theta_from;
  const double theta = pixtral_theta(s, file, theta_from);
  std::vector<double> rows, cols;
  for (std::int64_t k = 0; 2 * k < head_dim; ++k)
    (k % 2 == 0 ? rows : cols).push_back(encoder_inv_freq(theta, static_cast<double>(2 * k), static_cast<double>(head_dim)));
  MechanismUse m{Mechanism::kAxialRope, "every layer", "", {}, {}, {}, ""};
  m.values = {{"head_dim", head_dim},
              {"image_size", image},
              {"patch_size", patch},
              {"rows", side},
              {"columns", side},
              {"base", theta},
              {"layout", std::string("half")},
              {"positions", std::string("index")},
              {"row_inv_freq", rows},
              {"column_inv_freq", cols}};
  m.notes.push_back(fmt::format("PixtralRotaryEmbedding: one ladder θ^(-2k/d), k < d/2 (θ {} from {}); patch row i "
                                "rotates pairs 0..{} by i·freqs[0::2], column j pairs {}..{} by j·freqs[1::2]; "
                                "cat(f, f) with rotate_half",
                                theta, theta_from, rows.size() - 1, rows.size(), rows.size() + cols.size() - 1));
  m.notes.push_back(fmt::format("an image of H×W pixels has H/{0} rows and W/{0} columns of patches, at most {1} each "
                                "(max_patches_per_side = image_size // patch_size); position id row·{1} + column",
                                patch, side));
  m.notes.push_back("the columns take the odd rungs θ^(-(4k+2)/d) of the shared ladder, not a ladder of their own "
                    "(axial-rope --ladder shared)");
  m.command = fmt::format("posenc generate axial-rope --hf-config {}", shell_word(file));
  r.mechanisms.push_back(std::move(m));
}

void add_dinov3(const HfScope& s, const std::string& file, ModelReport& r) {
  const auto hidden = encoder_int(s, file, "hidden_size", 1, kEncoderMaxWidth, 384);
  const auto heads = encoder_int(s, file, "num_attention_heads", 1, 65536, 6);
  const auto head_dim = hidden / heads;  // DINOv3ViTRopePositionEmbedding: hidden_size // num_attention_heads
  if (head_dim < 4)
    throw Error(fmt::format("{}: the head width {} (hidden_size / num_attention_heads) leaves no rotated pair (need "
                            "at least 4)",
                            file, head_dim));
  const auto image = encoder_int(s, file, "image_size", 1, kEncoderMaxWidth, 224);
  const auto patch = encoder_int(s, file, "patch_size", 1, kEncoderMaxWidth, 16);
  const auto side = image / patch;
  if (side < 1)
    throw Error(fmt::format("{}: \"{}image_size\" {} is smaller than \"{}patch_size\" {}: no patch", file, s.prefix,
                            image, s.prefix, patch));
  const double theta = number_field(*s.cfg, "rope_theta", 100.0);
  if (!(theta > 1.0) || !std::isfinite(theta))
    throw Error(fmt::format("{}: \"{}rope_theta\" must be a number above 1 (got {})", file, s.prefix, theta));
  const auto registers = encoder_int(s, file, "num_register_tokens", 0, kEncoderMaxWidth, 0);
  // torch.arange(0, 1, 4 / head_dim): ceil(head_dim / 4) exponents k · (4 / head_dim).
  std::vector<double> inv_freq;
  const double step = 4.0 / static_cast<double>(head_dim);
  for (std::int64_t k = 0; static_cast<double>(k) * step < 1.0; ++k)
    inv_freq.push_back(encoder_inv_freq(theta, static_cast<double>(k) * step, 1.0));
  std::vector<double> coords;  // get_patches_center_coordinates, float32
  for (std::int64_t i = 0; i < side; ++i) {
    const float c = (static_cast<float>(i) + 0.5f) / static_cast<float>(side);
    coords.push_back(static_cast<double>(2.0f * c - 1.0f));
  }
  MechanismUse m{Mechanism::kAxialRope, "every layer (patch tokens)", "", {}, {}, {}, ""};
  m.values = {{"head_dim", head_dim},
              {"image_size", image},
              {"patch_size", patch},
              {"rows", side},
              {"columns", side},
              {"base", theta},
              {"layout", std::string("half")},
              {"positions", std::string("patch-centres")},
              {"angle_scale", 2.0 * std::numbers::pi},
              {"inv_freq", inv_freq},
              {"coordinates", coords},
              {"unrotated_tokens", 1 + registers}};
  m.notes.push_back(fmt::format("DINOv3ViTRopePositionEmbedding: patch (i, j) of an n×n grid sits at c = 2·(i + 0.5)/n "
                                "- 1 in [-1, 1] (coordinates above for n = image_size/patch_size = {}); angle = 2π·c·"
                                "θ^(-4k/d), k < d/4 = {}: pairs 0..{} follow the row, {}..{} the column; tiled twice "
                                "with rotate_half",
                                side, inv_freq.size(), inv_freq.size() - 1, inv_freq.size(), 2 * inv_freq.size() - 1));
  m.notes.push_back(fmt::format("the grid is the input image's (height/{0} × width/{0} patches, coordinates recomputed "
                                "per image); the class token and the {1} register tokens are not rotated",
                                patch, registers));
  m.notes.push_back("pos_embed_shift, pos_embed_jitter and pos_embed_rescale move the coordinates in training only "
                    "(augment_patches_center_coordinates); inference uses the centres above");
  m.notes.push_back("not tabulated: posenc's axial-rope scheme has index positions 0..n-1 or linspace(-1, 1, n) with a "
                    "linear ladder, not these patch centres with a 2π·θ^(-4k/d) ladder");
  r.mechanisms.push_back(std::move(m));
}

}  // namespace

void add_encoder_mechanisms(const HfScope& s, const std::string& file, ModelReport& r) {
  if (s.family == nullptr) return;
  const std::string_view type = s.family->model_type;
  if (type == "wav2vec2" || type == "hubert") add_conv_positions(s, file, r);
  if (type == "pixtral") add_pixtral(s, file, r);
  if (type == "dinov3_vit") add_dinov3(s, file, r);
}

}  // namespace posenc::models::detail
