#pragma once
/// Every model_type of transformers, read from its sources by tools/families/extract.py
/// (data/families/families.json; docs/models.md): the config class, the modeling file and the
/// position mechanisms and rotation its code holds. posenc uses it to say what a model type
/// outside its own families table (family.hpp) is, never to guess numbers from it.
#include <string>
#include <string_view>

namespace posenc::models {

struct TransformersFamily {
  std::string_view model_type;     ///< "vit"
  std::string_view config_class;   ///< "ViTConfig"
  std::string_view modeling_file;  ///< "models/vit/modeling_vit.py"
  /// The mechanism names the table gives, comma separated: learned, sinusoidal, rope, nope,
  /// relative_buckets, alibi, conv, mamba, linear_attention, conv_mixer, recurrent, none, ...
  std::string_view mechanisms;
  std::string_view rotation;  ///< "half", "adjacent", "interleave", "none", "unknown"
};

/// The entry of `model_type`, or nullptr when transformers has no such model_type (remote code).
const TransformersFamily* find_transformers_family(std::string_view model_type);

/// "decba1d2…", "5.16.0.dev0": the transformers commit and version the table was read from.
std::string_view transformers_commit();
std::string_view transformers_version();

/// One sentence for messages: "transformers 5.16.0.dev0 (decba1d2) reads it as ViTConfig, whose
/// code (models/vit/modeling_vit.py) holds: learned", or that transformers has no such model_type.
std::string transformers_family_note(std::string_view model_type);

}  // namespace posenc::models
