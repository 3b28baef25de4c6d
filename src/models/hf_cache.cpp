#include "posenc/models/hf_cache.hpp"

#include <fmt/format.h>

#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <system_error>

#include "posenc/error.hpp"

namespace posenc::models {
namespace {

namespace fs = std::filesystem;

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v == nullptr ? std::string() : std::string(v);
}

bool is_dir(const fs::path& p) {
  std::error_code ec;
  return fs::is_directory(p, ec);
}

bool valid_part(const std::string& s) {
  if (s.empty() || s.size() > 96 || s.front() == '.' || s.front() == '-' || s == "..") return false;
  for (const char ch : s)
    if (!(std::isalnum(static_cast<unsigned char>(ch)) || ch == '-' || ch == '_' || ch == '.')) return false;
  return true;
}

}  // namespace

bool looks_like_model_id(const std::string& text) {
  std::string id = text;
  if (const auto at = id.find('@'); at != std::string::npos) {
    if (!valid_part(id.substr(at + 1))) return false;
    id = id.substr(0, at);
  }
  const auto slash = id.find('/');
  if (slash == std::string::npos) return valid_part(id);
  return valid_part(id.substr(0, slash)) && valid_part(id.substr(slash + 1));
}

std::string hf_cache_dir(std::string* how) {
  std::string var = "HOME", dir = (fs::path(env("HOME")) / ".cache" / "huggingface" / "hub").string();
  if (const auto v = env("HF_HUB_CACHE"); !v.empty()) {
    var = "HF_HUB_CACHE", dir = v;
  } else if (const auto h = env("HF_HOME"); !h.empty()) {
    var = "HF_HOME", dir = (fs::path(h) / "hub").string();
  } else if (const auto x = env("XDG_CACHE_HOME"); !x.empty()) {
    var = "XDG_CACHE_HOME", dir = (fs::path(x) / "huggingface" / "hub").string();
  }
  if (how != nullptr) *how = var;
  return dir;
}

std::string find_cached_model(const std::string& id_text) {
  std::string id = id_text, revision = "main";
  if (const auto at = id.find('@'); at != std::string::npos) {
    revision = id.substr(at + 1);
    id = id.substr(0, at);
  }
  std::string how;
  const fs::path cache = hf_cache_dir(&how);
  std::string folder = "models--" + id;
  for (std::size_t p = folder.find('/'); p != std::string::npos; p = folder.find('/')) folder.replace(p, 1, "--");
  const fs::path repo = cache / folder;
  const auto fail = [&](const std::string& what) {
    return Error(fmt::format("model '{}' is not in the Hugging Face cache (looked in {}: {}; cache from {}; set HF_HUB_CACHE "
                             "or HF_HOME, or run: huggingface-cli download {} config.json)",
                             id_text, repo.string(), what, how, id));
  };
  if (!is_dir(repo)) throw fail("no such folder");
  // A revision is a ref (branch or tag: refs/NAME holds the commit) or a commit hash itself.
  std::string commit = revision;
  if (std::ifstream ref(repo / "refs" / revision); ref) {
    std::getline(ref, commit);
    while (!commit.empty() && std::isspace(static_cast<unsigned char>(commit.back()))) commit.pop_back();
  } else if (!is_dir(repo / "snapshots" / revision)) {
    throw fail(fmt::format("no refs/{} and no snapshots/{}", revision, revision));
  }
  const fs::path snapshot = repo / "snapshots" / commit;
  if (commit.empty() || !valid_part(commit) || !is_dir(snapshot))
    throw fail(fmt::format("refs/{} names snapshot '{}', which is not there", revision, commit));
  return snapshot.string();
}

std::string resolve_model_config(const std::string& arg, std::string_view option) {
  std::error_code ec;
  const fs::path p(arg);
  if (fs::is_directory(p, ec)) {
    if (!fs::exists(p / "config.json", ec))
      throw Error(fmt::format("{} '{}': the folder holds no config.json", option, arg));
    return (p / "config.json").string();
  }
  // A file name (config.json, model.gguf, ...) is never taken for a model id.
  const std::string ext = p.extension().string();
  const bool file_name = ext == ".json" || ext == ".gguf" || ext == ".npy" || ext == ".csv";
  if (fs::exists(p, ec) || file_name || !looks_like_model_id(arg)) return arg;
  try {
    return (fs::path(find_cached_model(arg)) / "config.json").string();
  } catch (const Error& e) {
    throw Error(fmt::format("{} '{}': no such file or folder, and {}", option, arg, e.what()));
  }
}

}  // namespace posenc::models
