// A Hugging Face folder's q/k geometry (qk_weights.hpp): config.json for the head counts and the
// rope, the safetensors headers for the tensor names.
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "posenc/error.hpp"
#include "posenc/models/config_path.hpp"
#include "posenc/models/layers.hpp"
#include "posenc/models/qk_weights.hpp"
#include "posenc/models/rope_settings.hpp"
#include "posenc/rope/rope_config.hpp"
#include "qk_files.hpp"

namespace posenc::models {
namespace {

using nlohmann::json;

std::int64_t qk_config_int(const json& scope, const char* key, std::int64_t fallback, const std::string& file) {
  if (!scope.contains(key) || scope[key].is_null()) {
    if (fallback >= 0) return fallback;
    throw Error(fmt::format("{}: \"{}\" is absent, so the q/k head layout cannot be determined (posenc usage needs "
                            "num_hidden_layers, num_attention_heads and hidden_size)",
                            file, key));
  }
  if (!scope[key].is_number_integer() || scope[key].get<std::int64_t>() < 0)
    throw Error(fmt::format("{}: \"{}\" must be a non-negative integer (got {})", file, key, scope[key].dump()));
  return scope[key].get<std::int64_t>();
}

/// The tensor-name prefix in front of "layers.0.<suffix>", or nullopt.
std::optional<std::string> qk_prefix_of(const formats::StCheckpoint& c, const std::string& suffix) {
  const std::string tail = "layers.0." + suffix;
  for (const auto& t : c.tensors)
    if (t.name.size() >= tail.size() && t.name.compare(t.name.size() - tail.size(), tail.size(), tail) == 0) {
      const std::string p = t.name.substr(0, t.name.size() - tail.size());
      if (p.empty() || p.back() == '.') return p;
    }
  return std::nullopt;
}

}  // namespace

QkModel open_hf_qk_model(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::exists(path, ec))  // (its parent folder would be looked in for a config.json otherwise)
    throw Error(fmt::format("usage '{}': no such file or folder (give a model folder with config.json and "
                            "*.safetensors, or a .gguf)",
                            path));
  const bool folder = fs::is_directory(path);
  const std::string dir = folder ? path : fs::path(path).parent_path().string();
  const std::string config_path = resolve_config_path(dir.empty() ? "." : dir, "usage");
  auto files = std::make_shared<QkFiles>();
  // A config.json given for the folder (rope diff --config-a config.json): its folder's weights.
  const bool config_given = !folder && fs::path(path).filename() == "config.json";
  files->st = formats::open_safetensors(config_given ? (dir.empty() ? std::string(".") : dir) : path);
  const formats::StCheckpoint& st = *files->st;

  rope::RopeConfig c = read_hf_config(config_path, "usage");
  rope::finalize_rope_config(c);  // rotary_dim from head_dim × partial_rotary_factor
  std::ifstream in(config_path);
  std::stringstream ss;
  ss << in.rdbuf();
  const json root = json::parse(ss.str(), nullptr, false);
  const json& scope = c.config_scope == "text_config." && root.contains("text_config") ? root["text_config"] : root;
  const std::string file = c.config_file.empty() ? config_path : c.config_file;

  QkModel m;
  m.path = path;
  m.files = files;
  m.model_type = c.model_type;
  m.layers = qk_config_int(scope, "num_hidden_layers", -1, file);
  m.heads = qk_config_int(scope, "num_attention_heads", -1, file);
  m.kv_heads = qk_config_int(scope, "num_key_value_heads", m.heads, file);
  m.hidden = qk_config_int(scope, "hidden_size", -1, file);
  m.base = c.base;
  m.train_len = c.original_length();
  m.train_len_source = c.original_max_position_embeddings > 0 ? "original_max_position_embeddings"
                                                              : "max_position_embeddings";
  m.layout = c.model_layout.value_or(c.layout);
  m.layout_source = c.model_layout ? c.model_layout_source : std::string("rotate_half (transformers' default)");
  m.rotary_dim = c.rotary_dim;
  m.head_dim = c.head_dim;
  if (m.heads <= 0 || m.kv_heads <= 0 || m.heads % m.kv_heads != 0 || m.layers <= 0)
    throw Error(fmt::format("{}: num_attention_heads {} is not a multiple of num_key_value_heads {} (or a count is 0)",
                            file, m.heads, m.kv_heads));

  QkFiles& f = *files;
  f.gain_plus_one = m.model_type.rfind("gemma", 0) == 0 || m.model_type == "qwen3_next";
  const bool mla = scope.contains("kv_lora_rank") && !scope["kv_lora_rank"].is_null();
  if (mla) {
    const std::int64_t rope_dim = qk_config_int(scope, "qk_rope_head_dim", -1, file);
    m.rotary_dim = rope_dim;
    m.head_dim = qk_config_int(scope, "qk_nope_head_dim", -1, file) + rope_dim;
    m.kv_heads = 1;  // k_rot is one head expanded to all (DeepseekV3Attention)
    f.kv_lora_rank = qk_config_int(scope, "kv_lora_rank", -1, file);
    f.mla = true;
    f.mla_lora = scope.contains("q_lora_rank") && !scope["q_lora_rank"].is_null();
  }
  const std::pair<const char*, QkFiles::Kind> kinds[] = {
      {"self_attn.q_a_proj.weight", QkFiles::Kind::kSeparate},
      {"self_attn.q_proj.weight", QkFiles::Kind::kSeparate},
      {"self_attn.qkv_proj.weight", QkFiles::Kind::kFusedBlocks},
      {"attention.query_key_value.weight", QkFiles::Kind::kFusedPerHead},
  };
  std::optional<std::string> prefix;
  for (const auto& [suffix, kind] : kinds) {
    const bool lora_name = std::string_view(suffix).find("q_a_proj") != std::string_view::npos;
    if ((lora_name && !mla) || (mla && kind != QkFiles::Kind::kSeparate)) continue;
    if ((prefix = qk_prefix_of(st, suffix))) {
      f.kind = kind;
      break;
    }
  }
  if (!prefix)
    throw Error(fmt::format("'{}': no q/k projection of layer 0 found (posenc reads self_attn.q_proj/k_proj, "
                            "self_attn.qkv_proj, attention.query_key_value and DeepSeek MLA's q_a_proj/q_b_proj/"
                            "kv_a_proj_with_mqa); list the tensors with 'posenc tensors {}'",
                            path, path));
  f.prefix = *prefix;
  const std::string l = "layers.{}.";
  f.norm = f.prefix + l + "input_layernorm.weight";
  switch (f.kind) {
    case QkFiles::Kind::kSeparate:
      if (f.mla) {
        f.q = f.prefix + l + (f.mla_lora ? "self_attn.q_b_proj.weight" : "self_attn.q_proj.weight");
        f.q_a = f.prefix + l + "self_attn.q_a_proj.weight";
        f.q_a_norm = f.prefix + l + "self_attn.q_a_layernorm.weight";
        f.k = f.prefix + l + "self_attn.kv_a_proj_with_mqa.weight";
        m.qk_source = f.mla_lora ? "MLA: q_b_proj·diag(q_a_layernorm)·q_a_proj rope rows, kv_a_proj_with_mqa rope rows"
                                 : "MLA: q_proj rope rows, kv_a_proj_with_mqa rope rows";
      } else {
        f.q = f.prefix + l + "self_attn.q_proj.weight";
        f.k = f.prefix + l + "self_attn.k_proj.weight";
        f.q_norm = f.prefix + l + "self_attn.q_norm.weight";
        f.k_norm = f.prefix + l + "self_attn.k_norm.weight";
        m.qk_source = "self_attn.q_proj / k_proj";
      }
      break;
    case QkFiles::Kind::kFusedBlocks:
      f.q = f.prefix + l + "self_attn.qkv_proj.weight";
      m.qk_source = "self_attn.qkv_proj split as [q | k | v] (Phi-3)";
      break;
    case QkFiles::Kind::kFusedPerHead:
      f.q = f.prefix + l + "attention.query_key_value.weight";
      m.qk_source = "attention.query_key_value split per head as [q | k | v] (GPT-NeoX)";
      break;
  }
  m.gain_source = fmt::format("input_layernorm.weight{}", f.gain_plus_one ? " as 1 + γ (Gemma's RMSNorm)" : "");

  // Per-layer ropes: NoPE layers and layer types with their own base.
  const LayerPlan plan = read_layer_plan(config_path);
  m.layer_base.assign(static_cast<std::size_t>(m.layers), m.base);
  if (plan.rope_types.size() >= 2)
    for (const auto& type : plan.rope_types) {
      if (std::find(plan.nope_types.begin(), plan.nope_types.end(), type) != plan.nope_types.end()) continue;
      rope::RopeConfig t = read_layer_type_config(config_path, type, "usage");
      rope::finalize_rope_config(t);
      if (t.rotary_dim != m.rotary_dim)
        throw Error(fmt::format("{}: layers of type '{}' rotate {} dimensions where the others rotate {}: posenc usage "
                                "needs one rotary width",
                                file, type, t.rotary_dim, m.rotary_dim));
      for (const auto layer : layers_of_type(plan, type))
        if (layer < m.layers) m.layer_base[static_cast<std::size_t>(layer)] = t.base;
    }
  for (const auto layer : plan.no_rope_layers)
    if (layer >= 0 && layer < m.layers) m.layer_base[static_cast<std::size_t>(layer)] = 0;
  if (!plan.no_rope_layers.empty()) m.notes.push_back("NoPE layers (" + plan.no_rope_source + "): " + layer_ranges(plan.no_rope_layers));
  return m;
}

}  // namespace posenc::models
