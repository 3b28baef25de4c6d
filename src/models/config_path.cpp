// Resolving what a user typed after --hf-config to a config.json (see config_path.hpp).
#include "posenc/models/config_path.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <system_error>

#include "posenc/error.hpp"
#include "posenc/models/hf_cache.hpp"

namespace posenc::models {

std::string resolve_config_path(const std::string& path, std::string_view option) {
  namespace fs = std::filesystem;
  std::error_code ec;
  // A model id (ORG/NAME) that is no path on disk: its snapshot in the local Hugging Face cache.
  if (!fs::exists(fs::path(path), ec)) return models::resolve_model_config(path, option);
  if (!fs::is_directory(fs::path(path), ec)) return path;  // a file (or not there: the reader says why)
  const fs::path inside = fs::path(path) / "config.json";
  if (!fs::exists(inside, ec))
    throw Error(fmt::format("{} '{}': the folder holds no config.json (give a config.json or a model folder)", option,
                            path));
  return inside.string();
}

}  // namespace posenc::models
