#pragma once
/// `posenc model`: every position mechanism a model uses, where, and with which numbers, as
/// the model's own (transformers) code builds them. A plain struct, so that another reader (a
/// GGUF file) can fill the same report.
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "posenc/models/family.hpp"
#include "posenc/params.hpp"

namespace posenc::rope {
struct RopeGgufSource;
}

namespace posenc::models {

struct MechanismWeights;

/// One mechanism and the layers (or stack) that use it.
struct MechanismUse {
  Mechanism kind = Mechanism::kRope;
  std::string where;                  ///< for people: "layers 0-4, 6-10 (sliding_attention)", "encoder"
  std::string layer_type;             ///< "sliding_attention", "full_attention", "encoder", "decoder", ""
  std::vector<std::int64_t> layers;   ///< 0-based layers (empty: every layer, or see `where`)
  /// The numbers, under the stable keys docs/formats.md lists per kind.
  std::vector<std::pair<std::string, ParamValue>> values;
  std::vector<std::string> notes;
  /// The posenc command that shows this mechanism's table or report.
  std::string command;
  /// Where each setting came from, for a GGUF file: {"base", "GGUF gemma3.rope.freq_base_swa"},
  /// {"heads", "llama.cpp default: ..."} (empty for a config.json, whose defaults are listed in
  /// ModelReport::defaults).
  std::vector<std::pair<std::string, std::string>> sources = {};
  /// The mechanism read from the trained weights (model_weights.hpp), null when none were read.
  std::shared_ptr<MechanismWeights> weights = {};
};

/// A field the config left out, and the class default it took.
struct DefaultedField {
  std::string field;   ///< "text_config.head_dim"
  std::string value;   ///< as JSON text
  std::string source;  ///< "class default (Gemma3TextConfig)"
};

struct ModelReport {
  std::string source;                ///< the file read
  std::string input = "hf-config";   ///< what was read: "hf-config" or "gguf"
  std::string convention = "hf";     ///< whose code the numbers reproduce: "hf" (transformers), "ggml" (llama.cpp)
  std::string model_type;
  std::string family;                ///< "Gemma 3" ("" when posenc does not know the model_type)
  std::string config_class;          ///< "Gemma3TextConfig"
  std::int64_t num_layers = 0;       ///< 0 = not known
  std::vector<std::string> layer_types;  ///< one per layer; empty when every layer is alike
  std::vector<MechanismUse> mechanisms;
  std::vector<DefaultedField> defaults;
  /// For a model_type posenc does not know: the position-related fields the file states (source
  /// "stated by the file"), and no mechanism: posenc does not guess what the model's code does.
  std::vector<DefaultedField> stated;
  std::vector<std::string> notes;
  /// What was read from a .gguf file (version, byte order, architecture, keys); null for a config.
  std::shared_ptr<const rope::RopeGgufSource> gguf;
  /// The weights read (a .safetensors file, an index or the .gguf), "" when none were.
  std::string weights_source = {};
};

/// Reads a config.json (or model folder), or a llama.cpp .gguf file (recognised by its magic
/// bytes, whatever its name: see model_gguf.hpp). Throws Error for unreadable files, a model_type
/// posenc does not know that has no RoPE fields either, and bad fields (naming them).
ModelReport read_model(const std::string& path);
ModelReport parse_model(const std::string& json_text, const std::string& file);

}  // namespace posenc::models
