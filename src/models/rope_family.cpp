// What a model family adds to the RoPE settings read from its config.json (see hf_scope.hpp).
#include <fmt/format.h>

#include "hf_scope.hpp"
#include "posenc/models/rope_settings.hpp"

namespace posenc::models::detail {

void apply_family(const HfScope& s, rope::RopeConfig& c) {
  using rope::RopeLayout;
  if (c.model_type.empty()) c.model_type = s.model_type;
  set_llama_arch_facts(c);
  if (s.family == nullptr) return;
  const Family& f = *s.family;
  if (s.assumed)
    c.notes.push_back(fmt::format("model_type '{}' is not one posenc knows: read as {} ({}) because of "
                                  "--assume-family {}: its class defaults, rotation and layer rules",
                                  s.model_type, f.model_type, f.name, f.model_type));
  // Every setting read from a defaulted field names the class, not the file.
  for (auto& st : c.sources) {
    for (const auto& key : s.defaulted) {
      const std::string quoted = fmt::format("\"{}{}\"", s.prefix, key);
      if (st.field == quoted) {
        st.source = class_default_source(f);
      } else if (st.field.find(quoted) != std::string::npos) {
        st.source += fmt::format(" ({} {})", key, class_default_source(f));
      }
    }
  }
  if (f.rotation == Rotation::kNone) return;
  c.model_layout = f.rotation == Rotation::kInterleaved ? RopeLayout::kInterleaved : RopeLayout::kHalf;
  c.model_layout_source = fmt::format("model class ({}: transformers {} rotates {})", f.name, f.source,
                                      f.rotation == Rotation::kInterleaved ? "adjacent pairs" : "with rotate_half");
  if (f.hf_table != Rotation::kNone && f.hf_table != f.rotation) {
    c.hf_table_layout = f.hf_table == Rotation::kInterleaved ? RopeLayout::kInterleaved : RopeLayout::kHalf;
  }
}

}  // namespace posenc::models::detail
