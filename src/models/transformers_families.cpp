#include "posenc/models/transformers_families.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>

namespace posenc::models {
namespace {

// Sorted by model_type (tools/families/to_cpp.py writes it so).
constexpr TransformersFamily kTransformersFamilies[] = {
#include "transformers_families.inc"
};

}  // namespace

const TransformersFamily* find_transformers_family(std::string_view model_type) {
  const auto* end = std::end(kTransformersFamilies);
  const auto* it = std::lower_bound(std::begin(kTransformersFamilies), end, model_type,
                                    [](const TransformersFamily& f, std::string_view t) { return f.model_type < t; });
  return it != end && it->model_type == model_type ? it : nullptr;
}

std::string_view transformers_commit() { return POSENC_TRANSFORMERS_COMMIT; }
std::string_view transformers_version() { return POSENC_TRANSFORMERS_VERSION; }

std::string transformers_family_note(std::string_view model_type) {
  const std::string_view commit = transformers_commit().substr(0, 8);
  const TransformersFamily* f = find_transformers_family(model_type);
  if (f == nullptr)
    return fmt::format("transformers {} ({}) has no model_type '{}' (remote code, or newer than that commit)",
                       transformers_version(), commit, model_type);
  return fmt::format("transformers {} ({}) reads it as {}, whose code ({}) holds: {}{}", transformers_version(), commit,
                     f->config_class, f->modeling_file, f->mechanisms,
                     f->rotation == "none" || f->rotation == "unknown" ? std::string()
                                                                        : fmt::format(" (rotation {})", f->rotation));
}

}  // namespace posenc::models
