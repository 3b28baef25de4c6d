#pragma once
/// `generate`, `decay`, `similarity`, `check` and `project` with `--hf-config`: which scheme a
/// model's position mechanism is, and the values of that scheme's flags that reproduce the
/// model's own code (ALiBi heads and variant, T5 buckets per stack, sinusoidal convention and
/// first position, learned table size). Reads the same report as `posenc model`.
#include <string>
#include <utility>
#include <vector>

#include "posenc/params.hpp"

namespace posenc::models {

struct ModelScheme {
  std::string scheme;  ///< "rope", "alibi", "t5", "sinusoidal" or "learned"
  /// The scheme's flags as the model sets them (flag name without "--", value); empty for rope,
  /// which reads the config itself.
  std::vector<std::pair<std::string, ParamValue>> values;
  std::string summary;             ///< "FILE: model_type 'bloom' (BLOOM) alibi (every layer)"
  std::vector<std::string> notes;  ///< for stderr: what the model does besides
};

/// The scheme of the model at `path` (a config.json, a model folder or a cached model id; a
/// llama.cpp .gguf gives rope only). `requested` is the scheme the user named ("": the model's
/// first mechanism posenc can tabulate). `t5_mode` ("", "bidirectional", "causal") picks the T5
/// stack (encoder, decoder). Throws Error in one line for a scheme the model does not use, naming
/// what it uses and 'posenc model PATH'.
ModelScheme scheme_of_model(const std::string& path, const std::string& requested, const std::string& t5_mode);

/// scheme_of_model with the flags the user typed for the scheme (`given`: only those set by the
/// user count): T5's `mode` picks the stack; the other schemes' flags override the model's later.
ModelScheme scheme_of_model(const std::string& path, const std::string& requested, const ParamMap& given);

/// An example of `--hf-config` for a scheme a model config sets ("bloom-560m/ --len 64" for
/// alibi), "" for a scheme no model config sets (the --help footers of generate and the others).
std::string hf_config_example(const std::string& scheme);

/// scheme_of_model on config.json text already read from `file` (`path`: what the user typed,
/// named in messages).
ModelScheme scheme_of_config(const std::string& json_text, const std::string& file, const std::string& path,
                             const std::string& requested, const std::string& t5_mode);

}  // namespace posenc::models
