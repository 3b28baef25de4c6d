#pragma once
/// Where a model's config.json is: the one place that turns what a user typed after
/// --hf-config or `posenc model` into a file (a later reader can add Hugging Face cache ids).
#include <string>
#include <string_view>

namespace posenc::models {

/// `path` itself when it is a file; `path/config.json` when it is a folder holding one.
/// Throws Error naming `option` and what is accepted for a folder without config.json or a
/// path that does not exist, e.g. "--hf-config 'x/': the folder holds no config.json (give a
/// config.json or a model folder)".
std::string resolve_config_path(const std::string& path, std::string_view option = "--hf-config");

}  // namespace posenc::models
