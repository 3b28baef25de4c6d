// The scheme of a model's position mechanism and the flags that reproduce it (see
// model_schemes.hpp). The numbers come from the `posenc model` report (model_tables.cpp), so
// both commands read a model the same way.
#include "posenc/models/model_schemes.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>

#include "posenc/error.hpp"
#include "posenc/formats/file.hpp"
#include "posenc/formats/gguf.hpp"
#include "posenc/models/config_path.hpp"
#include "posenc/models/model_report.hpp"
#include "posenc/formats/json_text.hpp"
#include "model_internal.hpp"

namespace posenc::models {
namespace {

constexpr Mechanism kTabulated[] = {Mechanism::kRope,    Mechanism::kAlibi,   Mechanism::kT5,    Mechanism::kSinusoidal,
                                    Mechanism::kLearned, Mechanism::kDeberta, Mechanism::kMrope, Mechanism::kNope,
                                    Mechanism::kAxialRope};

const ParamValue& value_of(const MechanismUse& m, const std::string& key) {
  for (const auto& [k, v] : m.values)
    if (k == key) return v;
  throw Error(fmt::format("internal: the {} report has no '{}'", to_string(m.kind), key));
}

std::int64_t int_of(const MechanismUse& m, const std::string& key) { return std::get<std::int64_t>(value_of(m, key)); }
std::string text_of(const MechanismUse& m, const std::string& key) { return std::get<std::string>(value_of(m, key)); }

/// A mechanism in a few words: its name, with the numbers that say what it is when posenc has no
/// table for it ("convolutional (kernel 128, 16 groups)").
std::string mechanism_words(const MechanismUse& m) {
  const auto has = [&](const char* key) {
    return std::any_of(m.values.begin(), m.values.end(), [&](const auto& kv) { return kv.first == key; });
  };
  if (m.kind == Mechanism::kConvolutional && has("kernel") && has("groups"))
    return fmt::format("convolutional positions (a grouped Conv1d over the frames: kernel {}, {} groups)",
                       int_of(m, "kernel"), int_of(m, "groups"));
  if (m.kind == Mechanism::kAxialRope && has("rows") && has("columns"))
    return fmt::format("axial-rope (2-D RoPE over {}×{} patches, θ {})", int_of(m, "rows"), int_of(m, "columns"),
                       std::get<double>(value_of(m, "base")));
  return std::string(to_string(m.kind));
}

/// "alibi", "sinusoidal and learned": the distinct mechanisms of a report.
std::string uses(const ModelReport& r) {
  std::vector<std::string> kinds;
  for (const auto& m : r.mechanisms)
    if (std::find(kinds.begin(), kinds.end(), mechanism_words(m)) == kinds.end()) kinds.push_back(mechanism_words(m));
  std::string out;
  for (std::size_t i = 0; i < kinds.size(); ++i)
    out += (i == 0 ? "" : i + 1 == kinds.size() ? " and " : ", ") + kinds[i];
  return out.empty() ? "no position mechanism posenc knows" : out;
}

/// Why a mechanism has no table: ", nothing to tabulate (...)".
std::string not_tabulated_why(const MechanismUse& m) {
  if (m.kind == Mechanism::kConvolutional)
    return " (its positions come from trained convolution weights, not a formula or table of the config)";
  if (m.kind == Mechanism::kAxialRope)
    return " (its frequencies or coordinates are not those of the axial-rope scheme)";
  return "";
}

std::string model_name(const ModelReport& r) {
  return r.family.empty() ? fmt::format("model_type '{}'", r.model_type)
                          : fmt::format("model_type '{}' ({})", r.model_type, r.family);
}

/// The model's initialisation std of its embeddings (init_std: OPT, Whisper, M2M100;
/// initializer_range: GPT-2, BERT, RoBERTa); 0.02, both classes' default, when absent.
double init_std(const std::string& text) {
  const auto j = nlohmann::json::parse(formats::python_json_literals(text), nullptr, /*allow_exceptions=*/false);
  for (const char* key : {"init_std", "initializer_range"})
    if (j.is_object() && j.contains(key) && j[key].is_number() && std::isfinite(j[key].get<double>()) &&
        j[key].get<double>() >= 0)
      return j[key].get<double>();
  return 0.02;
}

void alibi_values(const MechanismUse& m, ModelScheme& s) {
  const std::string codebase = text_of(m, "codebase");  // the report's bloom, falcon or mpt: alibi --variant
  s.values = {{"heads", int_of(m, "heads")}, {"variant", codebase},
              {"form", std::string(codebase == "mpt" ? "shifted" : "causal")}};
  if (codebase == "mpt") s.values.emplace_back("bias-max", std::get<double>(value_of(m, "alibi_bias_max")));
}

void t5_values(const MechanismUse& m, ModelScheme& s) {
  s.values = {{"buckets", int_of(m, "num_buckets")}, {"max-distance", int_of(m, "max_distance")},
              {"mode", std::string(m.layer_type == "decoder" ? "causal" : "bidirectional")}};
}

void sinusoidal_values(const MechanismUse& m, ModelScheme& s) {
  const std::string convention = text_of(m, "convention");
  s.values = {{"len", int_of(m, "rows")}, {"dim", int_of(m, "width")}, {"convention", convention},
              {"layout", std::string("split")}, {"base", 10000.0},
              // M2M100 and Whisper build the table as float32 tensors; Marian computes it in
              // float64 numpy and stores float32.
              {"precision", std::string(convention == "paper" ? "f64" : "f32")}};
  if (convention == "fairseq") s.values.emplace_back("padding-idx", int_of(m, "first_position") - 1);
  if (convention == "paper")
    s.notes.push_back("Marian computes the table in float64 (numpy) and stores it as float32: these values round to "
                      "its weights");
}

/// Pixtral's 2-D RoPE as the axial-rope scheme draws it: index positions on the largest grid
/// (max_patches_per_side each way), one shared ladder, half layout, float32. DINOv3's patch-centre
/// coordinates have no axial-rope option: refused in one line.
void axial_values(const ModelReport& r, const MechanismUse& m, const std::string& path, ModelScheme& s) {
  if (text_of(m, "positions") != "index")
    throw Error(fmt::format("{}: {} rotates patch-centre coordinates 2(i + 0.5)/n - 1 by 2π·θ^(-4k/d), which the "
                            "axial-rope scheme does not tabulate (its positions are 0..n-1 or linspace(-1, 1, n)): "
                            "'posenc model {}' shows the frequencies and coordinates",
                            r.source, model_name(r), path));
  s.values = {{"grid", fmt::format("{}x{}", int_of(m, "rows"), int_of(m, "columns"))},
              {"dim", int_of(m, "head_dim")},
              {"base", std::get<double>(value_of(m, "base"))},
              {"ladder", std::string("shared")},
              {"layout", text_of(m, "layout")},
              {"positions", std::string("index")},
              {"precision", std::string("f32")}};
  s.notes.push_back("rows of the table are patches row-major (position id row·columns + column); an image smaller "
                    "than the largest uses the first rows and columns of this grid");
}

void learned_values(const MechanismUse& m, const std::string& text, ModelScheme& s) {
  const std::int64_t positions = int_of(m, "positions");
  s.values = {{"len", positions}, {"max-len", positions}, {"dim", int_of(m, "width")}, {"std", init_std(text)}};
  s.notes.push_back(fmt::format("a learned table as initialised (N(0, std²), posenc's seeded generator), {} rows × {}: "
                                "the trained values are in the checkpoint, not the config",
                                positions, int_of(m, "width")));
}

}  // namespace

ModelScheme scheme_of_model(const std::string& path, const std::string& requested, const std::string& t5_mode) {
  const std::string file = resolve_config_path(path, "--hf-config");
  if (formats::is_gguf_path(file)) {  // llama.cpp files carry RoPE settings only
    if (!requested.empty() && requested != "rope")
      throw Error(fmt::format("--hf-config '{}' is a llama.cpp .gguf, which gives RoPE settings only (not {}): 'posenc "
                              "model {}' shows what it holds",
                              path, requested, path));
    return {"rope", {}, {}, {}};
  }
  return scheme_of_config(formats::read_small_file(file, "--hf-config", formats::kMaxConfigBytes), file, path, requested, t5_mode);
}

ModelScheme scheme_of_model(const std::string& path, const std::string& requested, const ParamMap& given) {
  std::string t5_mode;  // --mode causal / --causal: T5's decoder stack
  if (requested == "t5" && given.given("mode")) t5_mode = std::get<std::string>(given.value("mode"));
  return scheme_of_model(path, requested, t5_mode);
}

std::string hf_config_example(const std::string& scheme) {
  static const std::pair<const char*, const char*> kExamples[] = {
      {"alibi", "bloom-560m/ --len 64"},
      {"t5", "t5-base/ --causal"},
      {"sinusoidal", "whisper-tiny/"},
      {"learned", "opt-125m/ --len 100"},
      {"deberta", "deberta-v3-base/ --len 600"},
      {"mrope", "Qwen2.5-VL-7B-Instruct/ --grid 1,16,16"},
      {"nope", "Llama-4-Scout-17B-16E/ --table temperature --len 100000"},
      {"axial-rope", "pixtral-vision/config.json --len 4"},
  };
  for (const auto& [name, example] : kExamples)
    if (scheme == name) return example;
  return "";
}

ModelScheme scheme_of_config(const std::string& text, const std::string& file, const std::string& path,
                             const std::string& requested, const std::string& t5_mode) {
  const ModelReport r = parse_model(text, file);
  const auto tabulated = [](Mechanism k) { return std::find(std::begin(kTabulated), std::end(kTabulated), k) != std::end(kTabulated); };
  const MechanismUse* use = nullptr;
  for (const auto& m : r.mechanisms) {
    const bool wanted = requested.empty() ? tabulated(m.kind) : to_string(m.kind) == requested;
    if (!wanted) continue;
    // T5: the stack the mode names (the encoder unless --causal).
    if (m.kind == Mechanism::kT5 && (t5_mode == "causal") != (m.layer_type == "decoder")) continue;
    use = &m;
    break;
  }
  if (use == nullptr && requested == "t5") {  // a model whose buckets exist in the other mode only (MPNet: bidirectional)
    for (const auto& m : r.mechanisms)
      if (m.kind == Mechanism::kT5)
        throw Error(fmt::format("{}: {} has {} T5 buckets only ({}), not {}: {}", file, model_name(r),
                                m.layer_type == "decoder" ? "causal" : "bidirectional", m.where,
                                t5_mode == "causal" ? "causal ones (drop --causal)" : "bidirectional ones (add --causal)",
                                fmt::format("'posenc model {}' shows them", path)));
  }
  if (use != nullptr && !tabulated(use->kind))  // a mechanism posenc names but has no table for
    throw Error(fmt::format("{}: {} uses {}, which posenc does not tabulate{}: 'posenc model {}' shows it", file,
                            model_name(r), mechanism_words(*use), not_tabulated_why(*use), path));
  if (use == nullptr) {
    const bool known = requested.empty() ||
                       std::any_of(std::begin(kTabulated), std::end(kTabulated),
                                   [&](Mechanism k) { return to_string(k) == requested; });
    if (!known)
      throw Error(fmt::format("{} does not read --hf-config (rope, alibi, t5, sinusoidal, learned, deberta, mrope, "
                              "nope and axial-rope do): 'posenc model "
                              "{}' shows what the model uses",
                              requested, path));
    if (r.family.empty() && !r.model_type.empty())  // no silent guess (issue 27)
      throw Error(fmt::format("{}: model_type '{}' is not one posenc knows, so it cannot tell which scheme the model "
                              "uses (it does not guess); name the scheme with --assume-family FAMILY (e.g. 'posenc "
                              "generate rope --hf-config {} --assume-family llama'); 'posenc model {}' shows what the "
                              "file states",
                              file, r.model_type, path, path));
    throw Error(fmt::format("{}: {} uses {}, not {}: 'posenc model {}' shows it", file, model_name(r), uses(r),
                            requested.empty() ? "a scheme posenc tabulates from a config" : requested, path));
  }
  ModelScheme s;
  s.scheme = std::string(to_string(use->kind));
  if (use->kind == Mechanism::kRope) return s;
  switch (use->kind) {
    case Mechanism::kAlibi: alibi_values(*use, s); break;
    case Mechanism::kT5: t5_values(*use, s); break;
    case Mechanism::kSinusoidal: sinusoidal_values(*use, s); break;
    case Mechanism::kLearned: learned_values(*use, text, s); break;
    case Mechanism::kDeberta: detail::deberta_values(r, *use, path, s); break;
    case Mechanism::kMrope: detail::mrope_values(r, *use, text, path, s); break;
    case Mechanism::kNope: detail::nope_values(r, *use, path, s); break;
    case Mechanism::kAxialRope: axial_values(r, *use, path, s); break;
    default: break;
  }
  s.summary = fmt::format("{}: {} {} ({})", file, model_name(r), s.scheme, use->where);
  std::vector<std::string> notes;
  for (const auto& n : use->notes) notes.push_back(n);
  for (auto& n : s.notes) notes.push_back(std::move(n));
  const bool two_stacks = std::any_of(r.mechanisms.begin(), r.mechanisms.end(), [](const MechanismUse& m) {
    return m.kind == Mechanism::kT5 && m.layer_type == "decoder";
  });
  if (use->kind == Mechanism::kT5 && two_stacks)  // T5, mT5, UMT5 (not MPNet's single encoder table)
    notes.push_back(use->layer_type == "decoder" ? "the decoder's buckets (causal); without --causal: the encoder's"
                                                 : "the encoder's buckets (bidirectional); --causal: the decoder's");
  s.notes = std::move(notes);
  return s;
}

}  // namespace posenc::models
