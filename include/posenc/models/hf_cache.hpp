#pragma once
/// Finding a model in the local Hugging Face hub cache (no network), as huggingface_hub lays
/// it out: CACHE/models--ORG--NAME/refs/REVISION holds a commit hash and
/// CACHE/models--ORG--NAME/snapshots/HASH/ holds the files.
/// CACHE is $HF_HUB_CACHE, else $HF_HOME/hub, else $XDG_CACHE_HOME/huggingface/hub, else
/// ~/.cache/huggingface/hub (huggingface_hub's constants.py).
#include <string>
#include <string_view>
#include <vector>

namespace posenc::models {

/// True when `text` has the form of a hub model id: NAME or ORG/NAME, optionally @REVISION
/// (letters, digits, '-', '_', '.'; no leading '.' or '-').
bool looks_like_model_id(const std::string& text);

/// The hub cache folder the environment names (see above), and in `how` which variable
/// decided ("HF_HUB_CACHE", "HF_HOME", "XDG_CACHE_HOME" or "HOME").
std::string hf_cache_dir(std::string* how = nullptr);

/// The snapshot folder of model `id` ("ORG/NAME" or "ORG/NAME@REVISION"; REVISION a branch or
/// tag under refs/, or a commit hash under snapshots/; default "main"). Throws Error with one
/// line that names the id, every place looked at and how to fetch it, e.g.
/// `model 'org/x' is not in the Hugging Face cache (looked in /root/.cache/huggingface/hub/models--org--x: no such folder; cache from HOME; set HF_HUB_CACHE or HF_HOME, or run: huggingface-cli download org/x config.json)`.
std::string find_cached_model(const std::string& id);

/// The config.json a model argument names (for --hf-config and the like, named `option` in
/// messages): a file as given; a folder's config.json; else, for text of a model id's form that
/// is no path on disk, the config.json of its snapshot in the Hugging Face cache. Throws Error:
/// "--hf-config 'x/': the folder holds no config.json", or find_cached_model's message.
std::string resolve_model_config(const std::string& arg, std::string_view option);

}  // namespace posenc::models
