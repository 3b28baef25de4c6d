#include "posenc/analysis/scheme_traits.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "posenc/encodings/alibi.hpp"
#include "posenc/schemes/registry.hpp"
#include "posenc/rope/rope.hpp"
#include "posenc/error.hpp"

namespace posenc::analysis {

SchemeKind scheme_kind(const std::string& scheme) {
  if (scheme == "rope") return SchemeKind::kRope;
  if (scheme == "alibi" || scheme == "t5" || scheme == "deberta" || scheme == "shaw" || scheme == "kerple" ||
      scheme == "sandwich" || scheme == "fire")
    return SchemeKind::kBias;
  return SchemeKind::kAbsolute;
}

bool is_axial(const std::string& scheme) { return scheme == "mrope" || scheme == "axial-rope"; }

bool is_causal(const std::string& scheme, const ParamMap& p) {
  if (scheme == "alibi") return p.text("form") != "symmetric";  // causal, or MPT's shifted form
  if (scheme == "kerple" || scheme == "sandwich") return p.text("form") == "causal";
  if (scheme == "t5") return p.text("mode") == "causal";
  return scheme == "xpos";  // x-transformers asserts causal: zeta^((m-n)/gamma) grows for later keys
}

std::string bias_value_name(const std::string& scheme) {
  if (scheme == "alibi" || scheme == "kerple" || scheme == "sandwich") return "bias";
  if (scheme == "fire") return "input";
  if (scheme == "t5" || scheme == "deberta") return "bucket";
  if (scheme == "shaw") return "index";
  return "";
}

std::string decay_value_name(const std::string& scheme, const std::string& metric) {
  if (const std::string bias = bias_value_name(scheme); !bias.empty()) return bias;
  return (scheme == "rope" || scheme == "xpos") && metric == "dot" ? "score" : "";
}

std::string masked_entries_reason(const TableInfo& info) {
  const auto* form = find_entry(info.params, "form");
  if (info.scheme == "alibi" && form && to_string(*form) != "symmetric")  // causal, shifted (MPT)
    return to_string(*form) + " alibi masks future keys with -inf";
  const bool masks = info.scheme == "kerple" || info.scheme == "sandwich";
  if (masks && form && to_string(*form) == "causal") return fmt::format("causal {} masks future keys with -inf", info.scheme);
  return "";
}

bool values_are_positions(const std::string& scheme) { return scheme == "integer"; }

bool values_are_bits(const std::string& scheme) { return scheme == "binary"; }

bool heatmap_reduces_by_max(const std::string& scheme) {
  return scheme == "alibi" || scheme == "t5" || scheme == "deberta";
}

const ParamValue* find_entry(const std::vector<std::pair<std::string, ParamValue>>& entries, const std::string& name) {
  for (const auto& [k, v] : entries)
    if (k == name) return &v;
  return nullptr;
}

RopeView rope_view(const TableInfo& info) {
  RopeView v;
  const auto* inv = find_entry(info.results, "inv_freq");
  if (!inv || !std::holds_alternative<std::vector<double>>(*inv))
    throw Error(fmt::format("scheme {} does not report its rotary frequencies (inv_freq)", info.scheme));
  v.theta = std::get<std::vector<double>>(*inv);
  const auto* layout = find_entry(info.params, "layout");
  if (layout && std::holds_alternative<std::string>(*layout))
    v.layout = rope::parse_rope_layout(std::get<std::string>(*layout));
  return v;
}

ParamMap analysis_params(const std::string& scheme, ParamMap params) {
  if (scheme == "rope" && params.has("precision") && !params.given("precision"))
    params.set("precision", std::string("f64"), false);
  if (!scheme.empty())
    for (const auto& [name, value] : schemes::find_scheme(scheme).analysis_defaults)
      if (params.has(name) && !params.given(name)) params.set(name, value, false);
  return params;
}

std::unique_ptr<Table> scheme_table(const std::string& scheme, ParamMap params, std::size_t rows) {
  if (!params.given("len")) params.set("len", static_cast<std::int64_t>(std::max<std::size_t>(rows, 1)), false);
  return schemes::make_table(scheme, params);
}

std::vector<std::pair<std::string, ParamValue>> derived_values(const std::string& scheme, const ParamMap& params,
                                                               const std::string& varied) {
  if (scheme == "alibi" && varied != "heads" && varied != "bias-max" && varied != "variant")
    return {{"slopes", encodings::alibi_slopes_for(encodings::parse_alibi_variant(params.text("variant")),
                                                   params.integer("heads"), params.number("bias-max"))}};
  return {};
}

}  // namespace posenc::analysis
