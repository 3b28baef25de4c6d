// Reading the RoPE settings of a Hugging Face config.json (see rope_config.hpp).
#include "posenc/models/rope_settings.hpp"
#include "posenc/rope/rope_config.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "hf_scope.hpp"
#include "posenc/error.hpp"
#include "posenc/formats/file.hpp"
#include "posenc/models/config_path.hpp"
#include "posenc/text.hpp"
#include "posenc/formats/json_text.hpp"

namespace posenc::models {

using namespace rope;  // settings are read into rope's RopeConfig
namespace {

using nlohmann::json;

const char* type_name(const json& v) {
  switch (v.type()) {
    case json::value_t::null: return "null";
    case json::value_t::boolean: return "boolean";
    case json::value_t::string: {
      const std::string_view lit = formats::nonfinite_literal(v.get_ref<const std::string&>());
      return lit.empty() ? "string" : lit.data();  // Python's NaN / Infinity, named as written
    }
    case json::value_t::array: return "array";
    case json::value_t::object: return "object";
    default: return v.is_number() ? "number" : "value";
  }
}

/// Typed access to one JSON object; `prefix` names it in messages ("rope_scaling.").
struct Obj {
  const json* o = nullptr;
  std::string prefix;
  std::string file = "config.json";  // names the file in messages

  const json* get(const std::string& key) const {
    if (o == nullptr) return nullptr;
    auto it = o->find(key);
    return it == o->end() || it->is_null() ? nullptr : &*it;
  }
  std::string field(const std::string& key) const { return prefix + key; }
  [[noreturn]] void wrong(const std::string& key, const char* want, const json& v) const {
    throw Error(fmt::format("{}: \"{}\" must be {} (got {})", file, field(key), want, type_name(v)));
  }
  std::optional<double> number(const std::string& key) const {
    const json* v = get(key);
    if (v == nullptr) return std::nullopt;
    if (!v->is_number()) wrong(key, "a number", *v);
    return v->get<double>();
  }
  std::optional<std::int64_t> integer(const std::string& key) const {
    const json* v = get(key);
    if (v == nullptr) return std::nullopt;
    if (v->is_number_integer()) return v->get<std::int64_t>();
    if (v->is_number_float() && std::floor(v->get<double>()) == v->get<double>() && std::abs(v->get<double>()) < 9e15)
      return static_cast<std::int64_t>(v->get<double>());
    wrong(key, "an integer", *v);
  }
  /// An integer within [lo, hi] (lengths, dims): 0, negative or huge values are not "absent".
  std::optional<std::int64_t> integer_in(const std::string& key, std::int64_t lo, std::int64_t hi) const {
    const json* v = get(key);
    if (v == nullptr) return std::nullopt;
    const bool too_big = v->is_number_unsigned() && v->get<std::uint64_t>() > static_cast<std::uint64_t>(hi);
    const auto i = too_big ? std::optional<std::int64_t>() : integer(key);
    if (too_big || *i < lo || *i > hi)
      throw Error(fmt::format("{}: \"{}\" must be an integer within [{}, {}] (got {})", file, field(key), lo, hi, v->dump()));
    return i;
  }
  std::optional<bool> boolean(const std::string& key) const {
    const json* v = get(key);
    if (v == nullptr) return std::nullopt;
    if (!v->is_boolean()) wrong(key, "true or false", *v);
    return v->get<bool>();
  }
  std::optional<std::string> text(const std::string& key) const {
    const json* v = get(key);
    if (v == nullptr) return std::nullopt;
    if (!v->is_string()) wrong(key, "a string", *v);
    return v->get<std::string>();
  }
  std::optional<std::vector<double>> numbers(const std::string& key) const {
    const json* v = get(key);
    if (v == nullptr) return std::nullopt;
    if (!v->is_array()) wrong(key, "a list of numbers", *v);
    std::vector<double> out;
    for (std::size_t i = 0; i < v->size(); ++i) {
      if (!(*v)[i].is_number()) wrong(fmt::format("{}[{}]", key, i), "a number", (*v)[i]);
      out.push_back((*v)[i].get<double>());
    }
    return out;
  }
  [[noreturn]] void missing(const std::string& key, const std::string& why) const {
    throw Error(fmt::format("{}: missing \"{}\" ({})", file, field(key), why));
  }
};

std::string src(const Obj& o, const std::string& key) { return "config.json " + o.field(key); }

/// Records a setting read from field `key` of `o`.
void from_file(RopeConfig& c, const std::string& name, std::string value, const Obj& o, const std::string& key) {
  c.set_source(name, std::move(value), src(o, key), fmt::format("\"{}\"", o.field(key)));
}

void read_head_dim(const Obj& cfg, RopeConfig& c) {
  if (auto v = cfg.integer_in("qk_rope_head_dim", 2, encodings::kMaxDim)) {  // DeepSeek MLA: only this part of a head rotates
    c.head_dim = *v;
    from_file(c, "dim", fmt::format("{}", *v), cfg, "qk_rope_head_dim");
    c.notes.push_back("DeepSeek MLA: only qk_rope_head_dim dims of each head rotate (the qk_nope_head_dim part "
                      "carries no position); --dim is that rotary part");
    // The model concatenates [q_nope | q_pe] and [k_nope | k_pe]: the pair table counts dims in that head.
    if (auto nope = cfg.integer_in("qk_nope_head_dim", 0, encodings::kMaxDim)) c.rotary_offset = *nope;
  } else if (auto h = cfg.integer_in("head_dim", 2, encodings::kMaxDim)) {
    c.head_dim = *h;
    from_file(c, "dim", fmt::format("{}", *h), cfg, "head_dim");
  } else {
    const char* hk = cfg.get("hidden_size") || !cfg.get("n_embd") ? "hidden_size" : "n_embd";
    const char* nk = cfg.get("num_attention_heads") || !cfg.get("n_head") ? "num_attention_heads" : "n_head";
    auto hidden = cfg.integer_in(hk, 1, encodings::kMaxLen);
    auto heads = cfg.integer_in(nk, 1, encodings::kMaxDim);
    if (!hidden) cfg.missing(hk, "needed for head_dim when \"head_dim\" is absent");
    if (!heads) cfg.missing(nk, "needed for head_dim when \"head_dim\" is absent");
    c.head_dim = *hidden / *heads;
    c.set_source("dim", fmt::format("{}", c.head_dim), fmt::format("derived: {} / {} = {} / {}", hk, nk, *hidden, *heads),
                 fmt::format("\"{}\" / \"{}\"", cfg.field(hk), cfg.field(nk)));
  }
}

/// The keys transformers' validation accepts in a rope_scaling / rope_parameters dict of each
/// rope_type, besides "rope_type", the legacy "type" and "partial_rotary_factor" (which
/// `_check_received_keys` always accepts): the required and optional keys of
/// RotaryEmbeddingConfigMixin._validate_<type>_rope_parameters, transformers main
/// src/transformers/modeling_rope_utils.py (read in the 8b-is/transformers fork of main at 07dc0bab).
/// posenc's own "ntk" takes linear's keys; "su" is longrope, the legacy "mrope" is default.
/// nullptr for a type transformers has no validation for (it warns about the type instead).
const std::vector<std::string_view>* hf_scaling_keys_of(std::string_view type) {
  using K = std::vector<std::string_view>;
  static const K plain = {"rope_theta"};
  static const K linear = {"factor", "rope_theta"};
  static const K yarn = {"factor", "original_max_position_embeddings", "rope_theta", "attention_factor", "beta_fast",
                         "beta_slow", "mscale", "mscale_all_dim", "truncate"};
  static const K longrope = {"short_factor", "long_factor", "original_max_position_embeddings", "rope_theta",
                             "attention_factor", "factor"};
  static const K llama3 = {"factor", "original_max_position_embeddings", "low_freq_factor", "high_freq_factor",
                           "rope_theta"};
  if (type == "default" || type == "mrope" || type == "proportional") return &plain;
  if (type == "linear" || type == "dynamic" || type == "ntk") return &linear;
  if (type == "yarn") return &yarn;
  if (type == "longrope" || type == "su") return &longrope;
  if (type == "llama3") return &llama3;
  return nullptr;
}

/// transformers drops keys its validation does not know, with "Unrecognized keys in
/// `rope_parameters` for 'rope_type'='yarn': {...}" (`_check_received_keys`); so does posenc, but
/// says so: a typo such as "orignal_max_position_embeddings" silently loses a setting.
/// mrope_section and mrope_interleaved are the M-RoPE configs' `ignore_keys_at_rope_validation`
/// (a few other classes have their own: hf_class_ignored_rope_keys).
/// A config class's own `ignore_keys_at_rope_validation`, beyond the M-RoPE keys: Ministral3Config
/// (transformers models/ministral3/configuration_ministral3.py @008e5743) keeps its
/// llama_4_scaling_beta and max_position_embeddings in rope_parameters.
std::vector<std::string_view> hf_class_ignored_rope_keys(std::string_view model_type) {
  if (model_type == "ministral3") return {"llama_4_scaling_beta", "max_position_embeddings"};
  // HunYuanDenseV1/MoEV1RotaryEmbedding read "alpha" of a dynamic rope_scaling (hunyuan_alpha_base).
  if (model_type == "hunyuan_v1_dense" || model_type == "hunyuan_v1_moe") return {"alpha"};
  return {};
}

void warn_unknown_scaling_keys(const Obj& s, const std::string& type, const std::string& model_type, RopeConfig& c) {
  const auto* accepted = hf_scaling_keys_of(type);
  if (s.o == nullptr || accepted == nullptr) return;
  std::vector<std::string> known = {"rope_type"};
  for (auto k : *accepted) known.emplace_back(k);
  known.emplace_back("partial_rotary_factor");
  const std::vector<std::string_view> class_ignored = hf_class_ignored_rope_keys(model_type);
  // Keys posenc reads as a setting of another method (beta_fast under linear) get the warning
  // of add_warnings instead: "... is ignored: rope_type linear does not read it (yarn does)".
  constexpr std::string_view kSettingKeys[] = {"factor",           "beta_fast",       "beta_slow",        "mscale",
                                               "mscale_all_dim",   "attention_factor", "truncate",        "low_freq_factor",
                                               "high_freq_factor", "short_factor",    "long_factor"};
  for (const auto& [key, value] : s.o->items()) {
    if (key == "rope_type" || key == "type" || key == "mrope_section" || key == "mrope_interleaved" ||
        std::find(known.begin(), known.end(), key) != known.end() ||
        std::find(std::begin(kSettingKeys), std::end(kSettingKeys), key) != std::end(kSettingKeys) ||
        std::find(class_ignored.begin(), class_ignored.end(), key) != class_ignored.end())
      continue;
    std::string guess = did_you_mean(key, known);  // ", did you mean 'x'?"
    if (!guess.empty()) guess = " (" + guess.substr(2) + ")";
    c.file_warnings.push_back(fmt::format("{}: \"{}\" is ignored{}: rope_type {} has no such key (transformers warns "
                                          "\"Unrecognized keys\" and drops it too); its keys are {}",
                                          s.file, s.field(key), guess, type, fmt::join(known, ", ")));
  }
}

/// The rope_type string as transformers reads it: `rope_type`, else the legacy `type`.
std::string hf_rope_type_text(const Obj& s) {
  if (auto t = s.text("rope_type")) return *t;
  return s.text("type").value_or("");
}

RopeScaling read_type(const Obj& s, RopeConfig& c) {
  auto t = s.text("rope_type");
  std::string key = "rope_type";
  if (!t) {
    t = s.text("type");
    key = "type";
    if (t) c.notes.push_back(fmt::format("legacy key \"{}type\" read as rope_type", s.prefix));
  } else if (auto legacy = s.text("type"); legacy && *legacy != *t) {
    // `rope_parameters.get("rope_type", rope_parameters.get("type", "default"))`: rope_type first.
    c.file_warnings.push_back(fmt::format("{}: \"{}\" '{}' is ignored: \"{}\" '{}' is read first, as transformers does",
                                          s.file, s.field("type"), *legacy, s.field("rope_type"), *t));
  }
  if (!t) s.missing("rope_type", "or the legacy \"type\"");
  from_file(c, "scaling", *t, s, key);
  if (*t == "default") return RopeScaling::kNone;
  if (*t == "su") {
    c.notes.push_back("rope_type 'su' is the old name of 'longrope' (Phi-3)");
    return RopeScaling::kLongrope;
  }
  if (*t == "mrope") return RopeScaling::kNone;  // the sections get mrope_note

  return parse_rope_scaling(*t, fmt::format("{}: \"{}\"", s.file, s.field(key)));
}

/// M-RoPE (Qwen2-VL's legacy `type: mrope`, Qwen2.5-VL, Qwen3-VL's `rope_type: default` with
/// `mrope_section` and `mrope_interleaved`): the sections are not modelled by `rope`, only said,
/// with the `mrope` scheme's flags that model them.
void mrope_note(const Obj& s, RopeConfig& c) {
  const json* sec = s.get("mrope_section");
  const auto type = s.get("rope_type") ? s.get("rope_type") : s.get("type");
  const bool legacy = type != nullptr && type->is_string() && type->get<std::string>() == "mrope";
  if (sec == nullptr && !legacy) return;
  const json* inter = s.get("mrope_interleaved");
  const bool interleaved = inter != nullptr && inter->is_boolean() && inter->get<bool>();
  std::string sections;  // "24,20,20" for the mrope scheme's --sections
  if (sec != nullptr && sec->is_array())
    for (const auto& v : *sec) sections += (sections.empty() ? "" : ",") + v.dump();
  c.notes.push_back(fmt::format(
      "M-RoPE: {}{} gives the temporal, height and width position streams their own pairs; the sections are not "
      "modelled here: these are the frequencies the streams share (for text tokens, whose three positions are "
      "equal, the table is exact); the mrope scheme models them (posenc generate mrope{} --mrope-layout {})",
      sec != nullptr ? fmt::format("\"{}\" {}", s.field("mrope_section"), sec->dump()) : "rope_type 'mrope'",
      interleaved ? " (mrope_interleaved: sections interleaved over the pairs)" : "",
      sections.empty() ? std::string() : " --sections " + sections, interleaved ? "interleaved" : "sectioned"));
}

/// Hunyuan: HunYuanDenseV1RotaryEmbedding (and the MoE one) read rope_type "dynamic" with an
/// "alpha" as a fixed base rope_theta * alpha ** (head_dim / (head_dim - 2)) and the plain
/// inverse frequencies, not as dynamic NTK (modeling_hunyuan_v1_dense.py @decba1d2, "Diff from
/// Llama - DynamicNTKAlphaRotary").
void hunyuan_alpha_base(const models::detail::HfScope& scope, const Obj& s, RopeConfig& c) {
  if (scope.family == nullptr || (scope.family->model_type != "hunyuan_v1_dense" && scope.family->model_type != "hunyuan_v1_moe"))
    return;
  if (hf_rope_type_text(s) != "dynamic") return;
  const auto alpha = s.number("alpha");
  if (!alpha || *alpha == 0) return;
  if (c.head_dim <= 2) throw Error(fmt::format("{}: head_dim {} must exceed 2 for Hunyuan's alpha base", s.file, c.head_dim));
  const double d = static_cast<double>(c.head_dim);
  const double theta = c.base;
  c.base = theta * std::pow(*alpha, d / (d - 2));
  c.set_source("base", fmt::format("{}", c.base),
               fmt::format("derived: rope_theta * alpha^(head_dim / (head_dim - 2)) = {} * {}^({}/{}) "
                           "(HunYuanDenseV1RotaryEmbedding: a fixed base, not dynamic NTK)",
                           theta, *alpha, c.head_dim, c.head_dim - 2),
               fmt::format("\"{}alpha\"", s.prefix));
  c.scaling = RopeScaling::kNone;
  c.set_source("scaling", "none", fmt::format("{}: rope_type dynamic with alpha is Hunyuan's fixed base (above)", s.file));
}

// nlohmann_json's "[json.exception.parse_error.101] parse error at line 1, column 5: syntax
// error while parsing object key - invalid literal; last read: '{x'; expected string literal"
// as "FILE: not valid JSON at line 1, column 5 (byte offset 4): syntax error while parsing
// object key - invalid literal; last read: '{x'; expected string literal". `byte`: the
// 1-based index of the last byte read (0: unknown). Raw bytes are escaped by the caller.
std::string json_error_message(const std::string& file, std::string what, std::size_t byte) {
  std::replace(what.begin(), what.end(), '\n', ' ');
  if (what.rfind("[json.exception.", 0) == 0 && what.find("] ") != std::string::npos) what.erase(0, what.find("] ") + 2);
  std::string where;
  if (what.rfind("parse error at line ", 0) == 0 && what.find(": ") != std::string::npos) {
    where = " at " + what.substr(std::string_view("parse error at ").size(), what.find(": ") - std::string_view("parse error at ").size());
    what.erase(0, what.find(": ") + 2);
  } else if (what.rfind("parse error: ", 0) == 0) {
    what.erase(0, std::string_view("parse error: ").size());
  }
  if (byte > 0) where += fmt::format("{}byte offset {}", where.empty() ? " at " : " (", byte - 1) + (where.empty() ? "" : ")");
  return fmt::format("{}: not valid JSON{}: {}", file, where, what);
}

/// Same, after literals were replaced: the line and column are counted in the original text.
std::string json_error_at(const std::string& file, std::string what, std::string_view text, std::size_t byte) {
  const std::size_t at = byte > 0 ? std::min(byte - 1, text.size()) : 0;
  const std::size_t line = 1 + static_cast<std::size_t>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
  const std::size_t line_start = text.rfind('\n', at == 0 ? 0 : at - 1);
  const std::size_t column = line_start == std::string_view::npos || at == 0 ? at + 1 : at - line_start;
  const std::string msg = json_error_message(file, std::move(what), byte);
  // json_error_message's "at line L, column C (byte offset B)" with the original's numbers.
  const auto open = msg.find(" at line "), close = msg.find("): ", open == std::string::npos ? 0 : open);
  if (open == std::string::npos || close == std::string::npos) return msg;
  return fmt::format("{} at line {}, column {} (byte offset {}){}", msg.substr(0, open), line, column, at,
                     msg.substr(close + 1));
}

}  // namespace

RopeConfig parse_hf_config(const std::string& json_text, const std::string& file) {
  json root;
  std::vector<std::size_t> replaced;  // Python's NaN and Infinity, read as strings
  try {
    root = json::parse(formats::python_json_literals(json_text, &replaced));
  } catch (const json::parse_error& e) {
    if (!replaced.empty()) throw Error(json_error_at(file, e.what(), json_text, formats::original_offset(e.byte, replaced)));
    throw Error(json_error_message(file, e.what(), e.byte));
  } catch (const json::exception& e) {  // out_of_range for numbers like 1e400
    throw Error(json_error_message(file, e.what(), 0));
  }
  if (!root.is_object()) throw Error(fmt::format("{}: must be a JSON object (got {})", file, type_name(root)));
  RopeConfig c;
  c.sources.clear();
  c.config_file = file;
  // The model's fields (text_config for multimodal wrappers), its family's class defaults
  // filled in; a known model without RoPE is refused here, naming what it uses.
  const models::detail::HfScope scope = models::detail::prepare_scope(root);
  models::detail::require_rope(scope, file);
  Obj cfg{scope.cfg, scope.prefix, file};
  c.config_scope = cfg.prefix;
  c.config_scaling = cfg.prefix + "rope_scaling.";
  read_head_dim(cfg, c);
  // rotary_dim is read by the classes that declare it (GPT-J, CodeGen) and, for a config without
  // model_type, as stated; MiniMax-M2's config.json carries one that MiniMaxM2Config never reads.
  const bool reads_rotary_dim =
      scope.family == nullptr || std::any_of(scope.family->defaults.begin(), scope.family->defaults.end(),
                                             [](const ClassDefault& d) { return d.key == "rotary_dim"; });
  if (!reads_rotary_dim) {
    if (const json* r = cfg.get("rotary_dim"))
      c.notes.push_back(fmt::format("\"{}\" {} is read by no code of {} at transformers decba1d2: the rotated width is "
                                    "head_dim × partial_rotary_factor",
                                    cfg.field("rotary_dim"), r->dump(), scope.family->config_class));
  } else if (auto r = cfg.integer_in("rotary_dim", 2, encodings::kMaxDim)) {  // GPT-J
    c.rotary_dim = *r;
    from_file(c, "rotary-dim", fmt::format("{}", *r), cfg, "rotary_dim");
  }
  Obj s{nullptr, "", file};
  if (const json* rp = cfg.get("rope_parameters")) {
    if (!rp->is_object()) cfg.wrong("rope_parameters", "an object", *rp);
    s = Obj{rp, cfg.prefix + "rope_parameters.", file};
    if (!rp->empty() && std::all_of(rp->begin(), rp->end(), [](const json& v) { return v.is_object(); })) {
      const std::string layer = rp->contains("full_attention") ? "full_attention" : rp->begin().key();
      s = Obj{&(*rp)[layer], s.prefix + layer + ".", file};
      c.notes.push_back(fmt::format("per-layer rope_parameters: using the '{}' entry", layer));
    }
  } else if (const json* rs = cfg.get("rope_scaling")) {
    if (!rs->is_object()) cfg.wrong("rope_scaling", "an object or null", *rs);
    s = Obj{rs, cfg.prefix + "rope_scaling.", file};
  }
  if (s.o != nullptr) c.config_scaling = s.prefix;
  if (auto v = s.number("rope_theta")) {
    c.base = *v, from_file(c, "base", fmt::format("{}", *v), s, "rope_theta");
  } else if (auto t = cfg.number("rope_theta")) {
    c.base = *t, from_file(c, "base", fmt::format("{}", *t), cfg, "rope_theta");
  } else if (auto g = cfg.number("rotary_emb_base")) {
    c.base = *g, from_file(c, "base", fmt::format("{}", *g), cfg, "rotary_emb_base");
  } else if (cfg.o->contains("rope_theta") && (*cfg.o)["rope_theta"].is_null() && scope.family != nullptr) {
    // transformers keeps the null (convert_rope_params_to_dict: rope_parameters["rope_theta"] = None)
    // and cannot build inv_freq from it; the class default is not used.
    throw Error(fmt::format("{}: \"{}rope_theta\" is null: {} keeps None and builds no rope from it (its default is "
                            "not used); give a number or leave the field out",
                            file, cfg.prefix, scope.family->config_class));
  } else {
    c.set_source("base", "10000", "default (transformers default_theta; no rope_theta in the file)");
  }
  for (const auto& [obj, key] : {std::pair{&s, "partial_rotary_factor"}, std::pair{&cfg, "partial_rotary_factor"},
                                  std::pair{&cfg, "rotary_pct"}}) {
    if (auto v = obj->number(key)) {
      c.partial_rotary_factor = *v;
      from_file(c, "partial-rotary-factor", fmt::format("{}", *v), *obj, key);
      break;
    }
  }
  if (auto m = cfg.integer_in("max_position_embeddings", 1, encodings::kMaxLen)) {
    c.max_position_embeddings = *m;
    from_file(c, "max-position-embeddings", fmt::format("{}", *m), cfg, "max_position_embeddings");
  }
  if (auto top = cfg.integer_in("original_max_position_embeddings", 1, encodings::kMaxLen)) {  // Phi-3 keeps it at the top level
    c.top_level_original_max_position_embeddings = *top;
    c.original_max_position_embeddings = *top;
    from_file(c, "original-max-position-embeddings", fmt::format("{}", *top), cfg, "original_max_position_embeddings");
  } else if (auto o = s.integer_in("original_max_position_embeddings", 1, encodings::kMaxLen)) {
    c.original_max_position_embeddings = *o;
    from_file(c, "original-max-position-embeddings", fmt::format("{}", *o), s, "original_max_position_embeddings");
  }
  if (s.o != nullptr) c.scaling = read_type(s, c);
  hunyuan_alpha_base(scope, s, c);
  warn_unknown_scaling_keys(s, hf_rope_type_text(s), scope.model_type, c);
  mrope_note(s, c);
  // yarn: transformers (current main) uses max_position_embeddings / original_max_position_embeddings
  // when factor is absent, so it is not required here.
  const bool needs_factor = c.scaling == RopeScaling::kLinear || c.scaling == RopeScaling::kDynamic ||
                            c.scaling == RopeScaling::kLlama3 || c.scaling == RopeScaling::kNtk;
  const std::string why = fmt::format("required for rope_type {}", to_string(c.scaling));
  if ((c.factor = s.number("factor"))) from_file(c, "factor", fmt::format("{}", *c.factor), s, "factor");
  else if (needs_factor) s.missing("factor", why);
  const auto opt = [&](const char* key, const char* name, std::optional<double>& out) {
    if ((out = s.number(key))) from_file(c, name, fmt::format("{}", *out), s, key);
  };
  opt("beta_fast", "beta-fast", c.beta_fast);
  opt("beta_slow", "beta-slow", c.beta_slow);
  opt("mscale", "mscale", c.mscale);
  opt("mscale_all_dim", "mscale-all-dim", c.mscale_all_dim);
  opt("attention_factor", "attention-factor", c.attention_factor);
  if ((c.truncate = s.boolean("truncate"))) from_file(c, "truncate", *c.truncate ? "true" : "false", s, "truncate");
  for (const auto& [key, name, out] : {std::tuple{"low_freq_factor", "low-freq-factor", &c.low_freq_factor},
                                       std::tuple{"high_freq_factor", "high-freq-factor", &c.high_freq_factor}}) {
    if (auto v = s.number(key)) *out = *v, from_file(c, name, fmt::format("{}", *v), s, key);
    else if (c.scaling == RopeScaling::kLlama3) s.missing(key, why);
  }
  for (const auto& [key, name, out] : {std::tuple{"short_factor", "short-factor", &c.short_factor},
                                       std::tuple{"long_factor", "long-factor", &c.long_factor}}) {
    if (auto v = s.numbers(key)) *out = *v, from_file(c, name, fmt::format("[{} values]", v->size()), s, key);
    else if (c.scaling == RopeScaling::kLongrope) s.missing(key, why);
  }
  // Defaults the file leaves implicit, listed like the rest.
  if (s.o == nullptr) c.set_source("scaling", "none", "default (no rope_scaling or rope_parameters in the file)");
  bool has_partial = false;
  for (const auto& st : c.sources) has_partial = has_partial || st.name == "partial-rotary-factor";
  if (!has_partial) c.set_source("partial-rotary-factor", "1", "default (no partial_rotary_factor in the file)");
  // A multimodal config's text_config may lack model_type; the top level names the model then.
  const Obj top{&root, "", file};
  const auto model_type = cfg.text("model_type").value_or(top.text("model_type").value_or(""));
  c.model_type = model_type;
  set_llama_arch_facts(c);
  if (auto inter = cfg.boolean("rope_interleave")) {
    c.layout = *inter ? RopeLayout::kInterleaved : RopeLayout::kHalf;
    from_file(c, "layout", std::string(to_string(c.layout)), cfg, "rope_interleave");
  }
  models::detail::apply_family(scope, c);
  return c;
}

RopeConfig read_hf_config(const std::string& path, std::string_view option) {
  const std::string file = models::resolve_config_path(path, option);
  return parse_hf_config(formats::read_small_file(file, option, formats::kMaxConfigBytes), file);
}

}  // namespace posenc::models
