// safetensors checkpoints: a file, a sharded index (model.safetensors.index.json) or a folder;
// PyTorch pickles refused with the command that converts them (see safetensors.hpp).
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <unordered_map>

#include "posenc/error.hpp"
#include "posenc/formats/file.hpp"
#include "posenc/formats/safetensors.hpp"
#include "posenc/text.hpp"
#include "safetensors_internal.hpp"

namespace posenc::formats {

namespace {

namespace fs = std::filesystem;
using StIndexJson = nlohmann::ordered_json;
using st_detail::fail;
using st_detail::st_quoted;

bool ends_with_ci(std::string_view s, std::string_view suffix) {
  if (s.size() < suffix.size()) return false;
  for (std::size_t i = 0; i < suffix.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(s[s.size() - suffix.size() + i])) != suffix[i]) return false;
  return true;
}

bool is_index_name(std::string_view s) { return ends_with_ci(s, ".index.json"); }

std::string index_reason(const std::string& what) {
  const auto p = what.find("]: ");
  return printable(p == std::string::npos ? what : what.substr(p + 3), 160);
}

/// The byte of `"name":` in a JSON text (the first from `from` on whose next token is ':'),
/// for messages; 0 when the name is written with escapes that differ from its dump.
std::uint64_t index_key_byte(std::string_view json, const std::string& name, std::size_t from = 0) {
  const std::string key = StIndexJson(name).dump(-1, ' ', false, StIndexJson::error_handler_t::replace);
  for (std::size_t p = json.find(key, from); p != std::string_view::npos; p = json.find(key, p + 1)) {
    std::size_t q = p + key.size();
    while (q < json.size() && std::string_view(" \t\r\n").find(json[q]) != std::string_view::npos) ++q;
    if (q < json.size() && json[q] == ':') return p;
  }
  return 0;
}

/// A shard name is a file name next to the index: no folder, no parent, no drive, no NUL.
void check_shard_name(const std::string& shard, const std::string& tensor, const std::string& path,
                      std::uint64_t byte) {
  const bool bad = shard.empty() || shard.find_first_of(std::string_view("/\\\0", 3)) != std::string::npos ||
                   shard == "." || shard == ".." || shard.find("..") != std::string::npos ||
                   (shard.size() >= 2 && shard[1] == ':');
  if (bad)
    fail(path, byte,
         fmt::format("tensor {}: shard {} is not a plain file name (a shard is a file beside the index; '/', '\\', "
                     "'..', a drive and NUL are not allowed)",
                     st_quoted(tensor), st_quoted(shard)));
}

StCheckpoint open_index(const std::string& index_path, const std::string& opened) {
  const std::string text = read_small_file(index_path, "safetensors index", std::uint64_t{256} << 20);
  StIndex idx = parse_safetensors_index(text, index_path);
  StCheckpoint c;
  c.path = opened;
  c.index_path = index_path;
  c.index_metadata = std::move(idx.metadata);
  const fs::path folder = fs::path(index_path).parent_path();
  std::unordered_map<std::string, std::size_t> shard_of;  // tensor name -> file index where found
  std::unordered_map<std::string, std::string> wanted(idx.weight_map.begin(), idx.weight_map.end());
  const auto first_use = [&](const std::string& shard) -> std::size_t {
    for (std::size_t i = 0; i < idx.weight_map.size(); ++i)
      if (idx.weight_map[i].second == shard) return i;
    return 0;
  };
  for (const std::string& shard : idx.shards) {
    const std::string shard_path = (folder / shard).string();
    std::error_code ec;
    if (!fs::exists(shard_path, ec))
      fail(index_path, idx.weight_map_bytes[first_use(shard)],
           fmt::format("tensor {}: shard {} is missing (the index lists it for {}); every shard must be present",
                       st_quoted(idx.weight_map[first_use(shard)].first), st_quoted(shard),
                       counted(std::count_if(idx.weight_map.begin(), idx.weight_map.end(),
                                             [&](const auto& kv) { return kv.second == shard; }),
                               "tensor", "tensors")));
    StFile f = read_safetensors_header(shard_path);
    const std::size_t fi = c.files.size();
    for (StTensor& t : f.tensors) {
      t.file = fi;
      if (const auto it = shard_of.find(t.name); it != shard_of.end())
        fail(f.path, t.header_byte,
             fmt::format("tensor {} is also in shard '{}': a tensor may be in one shard only", st_quoted(t.name),
                         c.files[it->second].path));
      shard_of.emplace(t.name, fi);
      const auto w = wanted.find(t.name);
      if (w == wanted.end())
        fail(f.path, t.header_byte,
             fmt::format("tensor {} is not in the index '{}' (the index and the shards must list the same tensors)",
                         st_quoted(t.name), index_path));
      if (w->second != shard)
        fail(f.path, t.header_byte,
             fmt::format("tensor {} is in this shard, but the index '{}' says it is in {}", st_quoted(t.name), index_path,
                         st_quoted(w->second)));
      c.tensors.push_back(std::move(t));
    }
    f.tensors.clear();  // moved into c.tensors
    c.files.push_back(std::move(f));
  }
  for (std::size_t i = 0; i < idx.weight_map.size(); ++i) {
    const auto& [name, shard] = idx.weight_map[i];
    if (shard_of.find(name) == shard_of.end())
      fail(index_path, idx.weight_map_bytes[i],
           fmt::format("tensor {}: the index puts it in {}, which does not hold it", st_quoted(name), st_quoted(shard)));
  }
  return c;
}

StCheckpoint open_st_file(const std::string& path, const std::string& opened) {
  StCheckpoint c;
  c.path = opened;
  c.files.push_back(read_safetensors_header(path));
  c.tensors = std::move(c.files.front().tensors);  // the file keeps its path, sizes and metadata
  c.files.front().tensors.clear();
  return c;
}

StCheckpoint open_folder(const std::string& dir) {
  std::vector<std::string> indexes, files, pickles;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    const std::string name = e.path().filename().string();
    if (ends_with_ci(name, ".safetensors.index.json")) indexes.push_back(name);
    else if (ends_with_ci(name, ".safetensors")) files.push_back(name);
    else if (ends_with_ci(name, ".bin") || ends_with_ci(name, ".pt") || ends_with_ci(name, ".pth")) pickles.push_back(name);
  }
  if (ec) throw Error(fmt::format("'{}': cannot read the folder: {}", dir, ec.message()));
  std::sort(indexes.begin(), indexes.end());
  std::sort(files.begin(), files.end());
  const auto in_dir = [&](const std::string& n) { return (fs::path(dir) / n).string(); };
  if (std::find(indexes.begin(), indexes.end(), "model.safetensors.index.json") != indexes.end())
    return open_index(in_dir("model.safetensors.index.json"), dir);
  if (indexes.size() == 1) return open_index(in_dir(indexes.front()), dir);
  if (indexes.size() > 1)
    throw Error(fmt::format("'{}': the folder holds {} safetensors indexes ({}): give the one to read", dir,
                            indexes.size(), join_choices(indexes)));
  if (files.size() == 1) return open_st_file(in_dir(files.front()), dir);
  if (files.size() > 1)
    throw Error(fmt::format("'{}': the folder holds {} .safetensors files and no index ({}): give the file to read",
                            dir, files.size(), join_choices(files)));
  if (!pickles.empty()) throw Error(pytorch_refusal(in_dir(pickles.front())));
  throw Error(fmt::format("'{}': the folder holds no .safetensors file and no model.safetensors.index.json", dir));
}

}  // namespace

StIndex parse_safetensors_index(std::string_view json, const std::string& path) {
  st_detail::scan_top_keys(json, path, 0);  // nesting depth
  if (const auto z = json.find('\0'); z != std::string_view::npos)
    fail(path, z, "the index holds a NUL byte (not JSON)");
  // Duplicate keys in any object (two entries for one tensor) are refused, naming the key.
  std::vector<std::set<std::string>> seen;
  auto cb = [&](int, nlohmann::detail::parse_event_t ev, StIndexJson& v) {
    using E = nlohmann::detail::parse_event_t;
    if (ev == E::object_start) seen.emplace_back();
    if (ev == E::object_end && !seen.empty()) seen.pop_back();
    if (ev == E::key && !seen.empty() && !seen.back().insert(v.get<std::string>()).second) {
      const std::string k = v.get<std::string>();
      const std::uint64_t first = index_key_byte(json, k);
      fail(path, index_key_byte(json, k, static_cast<std::size_t>(first) + 1),
           fmt::format("tensor {}: the name appears twice in the index (a tensor may be in one shard only)", st_quoted(k)));
    }
    return true;
  };
  StIndexJson j;
  try {
    j = StIndexJson::parse(json.begin(), json.end(), cb);
  } catch (const StIndexJson::parse_error& e) {
    fail(path, e.byte > 0 ? e.byte - 1 : 0, "the index is not valid JSON: " + index_reason(e.what()));
  } catch (const StIndexJson::exception& e) {  // a number beyond double's range (out_of_range 406)
    fail(path, 0, "the index is not valid JSON: " + index_reason(e.what()));
  }
  if (!j.is_object() || !j.contains("weight_map") || !j["weight_map"].is_object())
    throw Error(fmt::format("'{}': a safetensors index is an object with \"weight_map\": {{TENSOR: SHARD, ...}}", path));
  StIndex idx;
  if (j.contains("metadata") && j["metadata"].is_object())
    for (const auto& [k, v] : j["metadata"].items())
      idx.metadata.emplace_back(k, v.is_string() ? v.get<std::string>() : v.dump(-1, ' ', false, StIndexJson::error_handler_t::replace));
  std::set<std::string> shards;
  const auto weight_map_at = static_cast<std::size_t>(index_key_byte(json, "weight_map"));
  for (const auto& [name, shard] : j["weight_map"].items()) {
    if (!shard.is_string())
      fail(path, index_key_byte(json, name),
           fmt::format("tensor {}: weight_map values must be shard file names (strings)", st_quoted(name)));
    const std::string s = shard.get<std::string>();
    // Keys of weight_map appear after "weight_map" in the text.
    const std::uint64_t at = index_key_byte(json, name, weight_map_at);
    check_shard_name(s, name, path, at);
    idx.weight_map.emplace_back(name, s);
    idx.weight_map_bytes.push_back(at);
    if (shards.insert(s).second) idx.shards.push_back(s);
  }
  if (idx.weight_map.empty()) throw Error(fmt::format("'{}': the index's weight_map is empty", path));
  return idx;
}

bool is_pytorch_checkpoint(const std::string& path) {
  for (const char* ext : {".bin", ".pt", ".pth", ".ckpt", ".pkl"})
    if (ends_with_ci(path, ext)) return true;
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) return false;
  std::ifstream in(path, std::ios::binary);
  char head[9] = {};
  in.read(head, sizeof head);
  return st_detail::looks_like_pytorch(std::string_view(head, static_cast<std::size_t>(in.gcount())));
}

std::string pytorch_refusal(const std::string& path) {
  const std::string name = fs::path(path).filename().string();
  return fmt::format(
      "'{}' is a PyTorch checkpoint (a zip or pickle), which posenc does not read (unpickling can run code): convert "
      "it to safetensors first, e.g. python3 -c \"import torch; from safetensors.torch import save_file; "
      "sd = torch.load('{}', map_location='cpu', weights_only=True); "
      "save_file({{k: v.contiguous().clone() for k, v in sd.items()}}, 'model.safetensors')\" "
      "(or safetensors' bindings/python/convert.py for a Hub model)",
      printable(path), printable(name));
}

StCheckpoint open_safetensors(const std::string& path) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) return open_folder(path);
  if (!fs::exists(path, ec)) throw Error(fmt::format("'{}': no such file or folder", path));
  for (const char* ext : {".bin", ".pt", ".pth", ".ckpt", ".pkl"})
    if (ends_with_ci(path, ext)) throw Error(pytorch_refusal(path));
  if (is_index_name(path)) return open_index(path, path);
  return open_st_file(path, path);
}

}  // namespace posenc::formats
