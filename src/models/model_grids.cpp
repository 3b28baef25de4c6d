// The trained 2-D patch grids of vision towers (ViT, DINOv2, CLIP, SigLIP), CLIP's text table and
// Reformer's axial table (built from two factors over a 2-D grid of positions),
// as config-level mechanisms (issue 28 item 4): the grid side is image_size // patch_size per axis
// (ViTPatchEmbeddings: num_patches = (image_size[1] // patch_size[1]) * (image_size[0] //
// patch_size[0])); ViT, DINOv2 and CLIP put a class-token row first (num_positions = num_patches
// + 1), SigLIP does not (SiglipVisionEmbeddings: num_positions = num_patches).
#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "model_grids.hpp"
#include "posenc/error.hpp"

namespace posenc::models::detail {
namespace {

using nlohmann::json;

/// An image_size / patch_size field: an integer, or [height, width].
std::array<std::int64_t, 2> size_pair(const json& cfg, const std::string& prefix, const char* key, std::int64_t fallback,
                                      const std::string& file) {
  auto it = cfg.find(key);
  if (it == cfg.end() || it->is_null()) return {fallback, fallback};
  const auto ok = [](const json& v) {
    return v.is_number_integer() && v.get<std::int64_t>() >= 1 && v.get<std::int64_t>() <= (std::int64_t{1} << 20);
  };
  if (ok(*it)) return {it->get<std::int64_t>(), it->get<std::int64_t>()};
  if (it->is_array() && it->size() == 2 && ok((*it)[0]) && ok((*it)[1]))
    return {(*it)[0].get<std::int64_t>(), (*it)[1].get<std::int64_t>()};
  throw Error(fmt::format("{}: \"{}{}\" must be an integer within [1, 1048576] or a list [height, width] of them (got {})",
                          file, prefix, key, it->dump()));
}

std::int64_t width_of(const json& cfg, std::int64_t fallback) {
  auto it = cfg.find("hidden_size");
  return it != cfg.end() && it->is_number_integer() && it->get<std::int64_t>() > 0 ? it->get<std::int64_t>() : fallback;
}

struct Tower {
  std::string model_type;
  bool class_token = true;
  std::string weight;
  std::int64_t image = 224, patch = 16, hidden = 768;  // the config class's defaults
};

void add_grid(const json& cfg, const std::string& prefix, const Tower& t, const std::string& file, ModelReport& r,
              const std::string& config_class) {
  for (const auto& [key, value] : {std::pair<const char*, std::int64_t>{"image_size", t.image},
                                   {"patch_size", t.patch}, {"hidden_size", t.hidden}})
    if (!cfg.contains(key) && !prefix.empty())  // the root scope's defaults are listed by prepare_scope
      r.defaults.push_back({prefix + key, std::to_string(value), fmt::format("class default ({})", config_class)});
  const auto image = size_pair(cfg, prefix, "image_size", t.image, file);
  const auto patch = size_pair(cfg, prefix, "patch_size", t.patch, file);
  const std::int64_t rows = image[0] / patch[0], cols = image[1] / patch[1];
  if (rows < 1 || cols < 1)
    throw Error(fmt::format("{}: \"{}image_size\" ({}x{}) is smaller than \"{}patch_size\" ({}x{}): no patch", file,
                            prefix, image[0], image[1], prefix, patch[0], patch[1]));
  MechanismUse m{Mechanism::kLearnedGrid, prefix.empty() ? "embeddings" : "vision tower embeddings", "", {}, {}, {}, ""};
  const std::int64_t patches = rows * cols;
  m.values = {{"grid_rows", rows},
              {"grid_cols", cols},
              {"class_token", t.class_token},
              {"patches", patches},
              {"rows", patches + (t.class_token ? 1 : 0)},
              {"width", width_of(cfg, t.hidden)},
              {"image_size", std::vector<std::int64_t>{image[0], image[1]}},
              {"patch_size", std::vector<std::int64_t>{patch[0], patch[1]}},
              {"weight", t.weight}};
  m.notes.push_back(t.class_token
                        ? fmt::format("row 0 is the class token's; rows 1..{} are the {}x{} patches, row-major (y, x): "
                                      "patch (y, x) takes row 1 + y·{} + x",
                                      patches, rows, cols, cols)
                        : fmt::format("no class-token row: rows 0..{} are the {}x{} patches, row-major (y, x): patch (y, "
                                      "x) takes row y·{} + x",
                                      patches - 1, rows, cols, cols));
  m.notes.push_back("another image size resizes the patch grid (bicubic, align_corners=False, class row kept) when "
                    "interpolate_pos_encoding is set");
  r.mechanisms.push_back(std::move(m));
}

/// A list field of exactly two integers within [1, 2^20] (axial_pos_shape, axial_pos_embds_dim).
std::array<std::int64_t, 2> axial_pair(const HfScope& s, const std::string& file, const char* key) {
  const json& v = (*s.cfg)[key];  // present: a family default fills it
  const auto ok = [](const json& x) {
    return x.is_number_integer() && x.get<std::int64_t>() >= 1 && x.get<std::int64_t>() <= (std::int64_t{1} << 20);
  };
  if (!v.is_array() || v.size() != 2 || !ok(v[0]) || !ok(v[1]))
    throw Error(fmt::format("{}: \"{}{}\" must be a list of two integers within [1, 1048576] (posenc reads Reformer's "
                            "axial table over two axes, as AxialPositionEmbeddings indexes it; got {})",
                            file, s.prefix, key, v.dump()));
  return {v[0].get<std::int64_t>(), v[1].get<std::int64_t>()};
}

// Reformer (models/reformer/modeling_reformer.py @ huggingface/transformers 20926db3). With
// axial_pos_embds (the default), AxialPositionEmbeddings holds weights.0 [ax0, 1, d0] and
// weights.1 [1, ax1, d1]; forward broadcasts both to axial_pos_shape, concatenates them on the
// last axis and reshapes to ax0·ax1 rows: position t = i0·ax1 + i1 reads concat(weights.0[i0],
// weights.1[i1]). It raises when d0 + d1 != hidden_size, and in evaluation when a sequence is
// longer than ax0·ax1; ReformerEmbeddings raises past max_position_embeddings. Without
// axial_pos_embds: PositionEmbeddings, nn.Embedding(max_position_embeddings, hidden_size), row t.
void add_reformer(const HfScope& s, const std::string& file, ModelReport& r) {
  const auto max_pos = checked_int(s, file, "max_position_embeddings", 1, std::int64_t{1} << 31, 4096);
  const auto hidden = checked_int(s, file, "hidden_size", 1, std::int64_t{1} << 31, 256);
  MechanismUse m{Mechanism::kLearned, "embeddings", "", {}, {}, {}, ""};
  if (!bool_field(*s.cfg, "axial_pos_embds", true)) {
    m.values = {{"rows", max_pos}, {"positions", max_pos}, {"width", hidden}, {"offset", std::int64_t{0}},
                {"weight", std::string("reformer.embeddings.position_embeddings.embedding.weight")}};
    m.notes.push_back("axial_pos_embds false: PositionEmbeddings, a learned table of max_position_embeddings rows");
    r.mechanisms.push_back(std::move(m));
    return;
  }
  const auto shape = axial_pair(s, file, "axial_pos_shape");
  const auto dims = axial_pair(s, file, "axial_pos_embds_dim");
  if (dims[0] + dims[1] != hidden)
    throw Error(fmt::format("{}: \"{}axial_pos_embds_dim\" [{}, {}] sums to {}, not hidden_size {} "
                            "(AxialPositionEmbeddings refuses such a config)",
                            file, s.prefix, dims[0], dims[1], dims[0] + dims[1], hidden));
  const std::int64_t rows = shape[0] * shape[1];
  m.values = {{"rows", rows},
              {"positions", std::min(rows, max_pos)},
              {"width", hidden},
              {"offset", std::int64_t{0}},
              {"weight", std::string("reformer.embeddings.position_embeddings.weights.0")},
              {"axial_pos_shape", std::vector<std::int64_t>{shape[0], shape[1]}},
              {"axial_pos_embds_dim", std::vector<std::int64_t>{dims[0], dims[1]}}};
  m.notes.push_back(fmt::format("AxialPositionEmbeddings: two trained factors, weights.0 [{}, 1, {}] and weights.1 [1, "
                                "{}, {}], broadcast over axial_pos_shape and concatenated: position t = i0·{} + i1 takes "
                                "concat(weights.0[i0], weights.1[i1]), {} positions from {} + {} stored values",
                                shape[0], dims[0], shape[1], dims[1], shape[1], rows, shape[0] * dims[0],
                                shape[1] * dims[1]));
  if (max_pos < rows)
    m.notes.push_back(fmt::format("max_position_embeddings {} stops inputs before the table's {} rows", max_pos, rows));
  if (max_pos > rows)
    m.notes.push_back(fmt::format("axial_pos_shape [{}, {}] builds {} positions: a longer input is refused although "
                                  "max_position_embeddings is {}",
                                  shape[0], shape[1], rows, max_pos));
  r.mechanisms.push_back(std::move(m));
}

}  // namespace

void add_grid_mechanisms(const json& root, const HfScope& s, const std::string& file, ModelReport& r) {
  if (s.family == nullptr) return;
  const std::string type(s.family->model_type);
  if (type == "reformer") add_reformer(s, file, r);
  if (type == "vit") add_grid(*s.cfg, s.prefix, {type, true, "vit.embeddings.position_embeddings", 224, 16, 768}, file, r, "");
  if (type == "dinov2")
    add_grid(*s.cfg, s.prefix, {type, true, "embeddings.position_embeddings", 224, 14, 768}, file, r, "");
  if (type == "clip_vision_model")
    add_grid(*s.cfg, s.prefix, {type, true, "vision_model.embeddings.position_embedding.weight", 224, 32, 768}, file, r,
             "");
  if (type == "siglip_vision_model")
    add_grid(*s.cfg, s.prefix, {type, false, "vision_model.embeddings.position_embedding.weight", 224, 16, 768}, file,
             r, "");
  if (type == "clip") {
    // CLIPTextEmbeddings: position_ids = arange(max_position_embeddings), row t for position t.
    const auto rows = checked_int(s, file, "max_position_embeddings", 1, std::int64_t{1} << 31, 77);
    MechanismUse m{Mechanism::kLearned, "text tower embeddings", "", {}, {}, {}, ""};
    m.values = {{"rows", rows}, {"positions", rows}, {"width", width_of(*s.cfg, 512)}, {"offset", std::int64_t{0}},
                {"weight", std::string("text_model.embeddings.position_embedding.weight")}};
    m.command = fmt::format("posenc generate learned --hf-config {}", shell_word(file));
    r.mechanisms.push_back(std::move(m));
    if (auto v = root.find("vision_config"); v != root.end() && v->is_object())
      add_grid(*v, "vision_config.", {"clip_vision_model", true, "vision_model.embeddings.position_embedding.weight", 224,
                                      32, 768},
               file, r, "CLIPVisionConfig");
  }
}

}  // namespace posenc::models::detail
