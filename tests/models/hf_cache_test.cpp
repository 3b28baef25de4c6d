#include "posenc/models/hf_cache.hpp"

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <optional>
#include <unistd.h>

#include "../encodings/error_of.hpp"

namespace fs = std::filesystem;
using posenc::models::find_cached_model;
using posenc::models::hf_cache_dir;
using posenc::models::looks_like_model_id;


namespace {

/// Sets an environment variable for one test and puts the old value back.
struct EnvVar {
  std::string name;
  std::optional<std::string> old;
  EnvVar(std::string n, const char* value) : name(std::move(n)) {
    if (const char* v = std::getenv(name.c_str())) old = v;
    if (value != nullptr) ::setenv(name.c_str(), value, 1);
    else ::unsetenv(name.c_str());
  }
  ~EnvVar() {
    if (old) ::setenv(name.c_str(), old->c_str(), 1);
    else ::unsetenv(name.c_str());
  }
};

/// A cache laid out as huggingface_hub writes it: refs/main -> snapshots/<hash>/config.json.
fs::path make_cache(const std::string& folder, const std::string& hash) {
  const fs::path root = fs::temp_directory_path() / ("posenc-hf-" + std::to_string(::getpid()));
  const fs::path repo = root / "hub" / folder;
  fs::create_directories(repo / "refs");
  fs::create_directories(repo / "snapshots" / hash);
  std::ofstream(repo / "refs" / "main") << hash;  // huggingface_hub writes no newline
  std::ofstream(repo / "snapshots" / hash / "config.json") << "{}";
  return root;
}

}  // namespace

TEST_CASE("model ids have huggingface_hub's form", "[hf_cache]") {
  CHECK(looks_like_model_id("meta-llama/Llama-3.1-8B"));
  CHECK(looks_like_model_id("gpt2"));
  CHECK(looks_like_model_id("Qwen/Qwen2.5-7B-Instruct@main"));
  CHECK_FALSE(looks_like_model_id("./config.json/x/y"));
  CHECK_FALSE(looks_like_model_id("a/b/c"));
  CHECK_FALSE(looks_like_model_id("../etc"));
  CHECK_FALSE(looks_like_model_id("/abs/path"));
  CHECK_FALSE(looks_like_model_id(""));
}

TEST_CASE("the cache folder follows HF_HUB_CACHE, then HF_HOME/hub, then XDG_CACHE_HOME, then ~/.cache", "[hf_cache]") {
  EnvVar home("HOME", "/home/u"), xdg("XDG_CACHE_HOME", nullptr), hf_home("HF_HOME", nullptr), hub("HF_HUB_CACHE", nullptr);
  std::string how;
  CHECK(hf_cache_dir(&how) == "/home/u/.cache/huggingface/hub");
  CHECK(how == "HOME");
  {
    EnvVar x("XDG_CACHE_HOME", "/xdg");
    CHECK(hf_cache_dir(&how) == "/xdg/huggingface/hub");
    CHECK(how == "XDG_CACHE_HOME");
    EnvVar h("HF_HOME", "/hf");
    CHECK(hf_cache_dir(&how) == "/hf/hub");
    EnvVar c("HF_HUB_CACHE", "/cache");
    CHECK(hf_cache_dir(&how) == "/cache");
    CHECK(how == "HF_HUB_CACHE");
  }
}

TEST_CASE("a cached model resolves to the snapshot refs/main points to", "[hf_cache]") {
  const std::string hash = "0123456789abcdef0123456789abcdef01234567";
  const fs::path root = make_cache("models--org--name", hash);
  EnvVar hub("HF_HUB_CACHE", nullptr), home("HF_HOME", root.c_str());
  const fs::path expected = root / "hub" / "models--org--name" / "snapshots" / hash;
  CHECK(find_cached_model("org/name") == expected.string());
  CHECK(find_cached_model("org/name@main") == expected.string());
  CHECK(find_cached_model("org/name@" + hash) == expected.string());  // a commit hash itself
  const auto missing = posenc_test::error_of([&] { find_cached_model("org/other"); });
  CHECK(missing.find("model 'org/other' is not in the Hugging Face cache") == 0);
  CHECK(missing.find((root / "hub" / "models--org--other").string() + ": no such folder") != std::string::npos);
  CHECK(missing.find("cache from HF_HOME") != std::string::npos);
  const auto bad_rev = posenc_test::error_of([&] { find_cached_model("org/name@v2"); });
  CHECK(bad_rev.find("no refs/v2 and no snapshots/v2") != std::string::npos);
  fs::remove_all(root);
}

TEST_CASE("a model argument names a file, a folder's config.json or a cached model", "[hf_cache]") {
  const std::string hash = "89abcdef0123456789abcdef0123456789abcdef";
  const fs::path root = make_cache("models--acme--tiny", hash);
  EnvVar hub("HF_HUB_CACHE", (root / "hub").c_str());
  const fs::path snapshot = root / "hub" / "models--acme--tiny" / "snapshots" / hash;
  using posenc::models::resolve_model_config;
  CHECK(resolve_model_config("acme/tiny", "--hf-config") == (snapshot / "config.json").string());
  CHECK(resolve_model_config(snapshot.string(), "--hf-config") == (snapshot / "config.json").string());
  CHECK(resolve_model_config((snapshot / "config.json").string(), "--hf-config") == (snapshot / "config.json").string());
  CHECK(resolve_model_config("no/such.json/x", "--hf-config") == "no/such.json/x");  // not an id: read fails later
  CHECK(posenc_test::error_of([&] { resolve_model_config(root.string(), "--hf-config"); }) ==
        "--hf-config '" + root.string() + "': the folder holds no config.json");
  fs::remove_all(root);
}
