#include "gguf_json.hpp"

namespace posenc::reports::detail {

nlohmann::json gguf_source_json(const rope::RopeGgufSource& g) {
  nlohmann::json keys = nlohmann::json::array();
  for (const auto& k : g.keys) keys.push_back({{"key", k.key}, {"type", k.type}, {"value", k.value}});
  return {{"path", g.path}, {"version", g.version}, {"byte_order", g.big_endian ? "big" : "little"},
          {"architecture", g.architecture}, {"rope_type", g.rope_type}, {"n_ctx_train", g.n_ctx_train},
          {"n_ctx_orig", g.n_ctx_orig}, {"scaling_type", g.scaling_type}, {"freq_scale", g.freq_scale},
          {"keys", keys}, {"tensors", g.tensors}, {"notes", g.notes}};
}

}  // namespace posenc::reports::detail
