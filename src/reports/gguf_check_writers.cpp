#include "posenc/reports/gguf_check_writers.hpp"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include <vector>

#include "posenc/models/layers.hpp"

namespace posenc::reports {

void write_gguf_check_text(const models::GgufCheck& k, const std::string& a, const std::string& b, std::ostream& out) {
  out << fmt::format("a: {} (transformers)\nb: {} (llama.cpp)\n", a, b);
  int errors = 0;
  for (const auto& f : k.findings) {
    errors += f.error ? 1 : 0;
    out << fmt::format("{} {}: {}: expected {}, found {} — {}\n", f.error ? "finding" : "note   ", f.what, f.where,
                       f.expected, f.found, f.cause);
  }
  for (const auto& e : k.effects) {
    out << fmt::format("effect at context {}: inv_freq max relative difference {:.3g} (pair {} of {}), attention factor "
                       "{} vs {}",
                       e.context, e.max_rel_inv_freq, e.worst_pair, e.pairs, e.attention_a, e.attention_b);
    if (e.logit_a != 1.0 || e.logit_b != 1.0) out << fmt::format(", logit scale {} vs {}", e.logit_a, e.logit_b);
    if (!e.list_a.empty() || !e.list_b.empty())
      out << fmt::format(", LongRoPE list {} vs {}", e.list_a.empty() ? "none" : e.list_a, e.list_b.empty() ? "none" : e.list_b);
    out << "\n";
  }
  // One group that rotates on both sides: every layer alike, the effect lines above say it all.
  const bool alike = k.layer_groups.size() == 1 && k.layer_groups.front().rope_a && k.layer_groups.front().rope_b;
  for (const auto& g : alike ? std::vector<models::GgufLayerGroup>{} : k.layer_groups) {
    const auto side = [](const std::string& type, bool rope, double base, const std::string& scaling, double factor) {
      const std::string t = type.empty() ? std::string() : " " + type;
      if (!rope) return fmt::format("{}: no RoPE", t);
      return fmt::format("{}: base {}, {}{}", t, base, scaling, factor == 1 ? "" : fmt::format(" ×{}", factor));
    };
    out << fmt::format("layers {} ({} of {}): transformers{} | llama.cpp{}", models::layer_ranges(g.layers), g.layers.size(),
                       k.num_layers, side(g.type_a, g.rope_a, g.base_a, g.scaling_a, g.factor_a),
                       side(g.type_b, g.rope_b, g.base_b, g.scaling_b, g.factor_b));
    for (const auto& e : g.effects)
      out << fmt::format("; at {}: inv_freq {:.3g} (pair {}), attention factor {} vs {}", e.context, e.max_rel_inv_freq,
                         e.worst_pair, e.attention_a, e.attention_b);
    out << "\n";
  }
  out << (k.ok() ? fmt::format("conversion kept the positions (tol {})\n", k.tol)
                 : fmt::format("{} finding{}: the conversion changed the positions (tol {})\n", errors,
                               errors == 1 ? "" : "s", k.tol));
}

void write_gguf_check_json(const models::GgufCheck& k, const std::string& a, const std::string& b, std::ostream& out) {
  using nlohmann::json;
  json findings = json::array(), effects = json::array(), groups = json::array();
  for (const auto& f : k.findings)
    findings.push_back({{"severity", f.error ? "error" : "note"}, {"what", f.what}, {"where", f.where},
                        {"expected", f.expected}, {"found", f.found}, {"cause", f.cause}});
  const auto effect_json = [](const models::GgufEffect& e) {
    return json{{"context", e.context}, {"pairs", e.pairs}, {"max_rel_inv_freq", e.max_rel_inv_freq},
                {"worst_pair", e.worst_pair}, {"attention_factor_a", e.attention_a},
                {"attention_factor_b", e.attention_b}, {"logit_scale_a", e.logit_a}, {"logit_scale_b", e.logit_b},
                {"longrope_list_a", e.list_a.empty() ? json(nullptr) : json(e.list_a)},
                {"longrope_list_b", e.list_b.empty() ? json(nullptr) : json(e.list_b)}};
  };
  for (const auto& g : k.layer_groups) {
    json ge = json::array();
    for (const auto& e : g.effects) ge.push_back(effect_json(e));
    const auto num_or_null = [](bool rope, double v) { return rope ? json(v) : json(nullptr); };
    groups.push_back({{"layer_type_a", g.type_a}, {"layer_type_b", g.type_b}, {"layers", g.layers},
                      {"count", g.layers.size()}, {"rope_a", g.rope_a}, {"rope_b", g.rope_b},
                      {"base_a", num_or_null(g.rope_a, g.base_a)}, {"base_b", num_or_null(g.rope_b, g.base_b)},
                      {"scaling_a", g.rope_a ? json(g.scaling_a) : json(nullptr)},
                      {"scaling_b", g.rope_b ? json(g.scaling_b) : json(nullptr)},
                      {"factor_a", num_or_null(g.rope_a, g.factor_a)}, {"factor_b", num_or_null(g.rope_b, g.factor_b)},
                      {"effects", ge}});
  }
  for (const auto& e : k.effects)
    effects.push_back({{"context", e.context}, {"pairs", e.pairs}, {"max_rel_inv_freq", e.max_rel_inv_freq},
                       {"worst_pair", e.worst_pair}, {"attention_factor_a", e.attention_a},
                       {"attention_factor_b", e.attention_b}, {"logit_scale_a", e.logit_a}, {"logit_scale_b", e.logit_b},
                       {"longrope_list_a", e.list_a.empty() ? json(nullptr) : json(e.list_a)},
                       {"longrope_list_b", e.list_b.empty() ? json(nullptr) : json(e.list_b)}});
  // "pass" as in the configs' rope diff (exit status 0); "ok" is its former name, an alias for one release.
  const json j = {{"a", a}, {"b", b}, {"kind", "gguf"}, {"expected_architecture", k.expected_architecture},
                  {"tol", k.tol}, {"pass", k.ok()}, {"ok", k.ok()}, {"findings", findings}, {"effects", effects},
                  {"num_layers", k.num_layers}, {"per_layer_type", groups}};
  out << j.dump(2) << "\n";
}

}  // namespace posenc::reports
