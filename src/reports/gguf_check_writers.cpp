#include "posenc/reports/gguf_check_writers.hpp"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

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
  out << (k.ok() ? fmt::format("conversion kept the positions (tol {})\n", k.tol)
                 : fmt::format("{} finding{}: the conversion changed the positions (tol {})\n", errors,
                               errors == 1 ? "" : "s", k.tol));
}

void write_gguf_check_json(const models::GgufCheck& k, const std::string& a, const std::string& b, std::ostream& out) {
  using nlohmann::json;
  json findings = json::array(), effects = json::array();
  for (const auto& f : k.findings)
    findings.push_back({{"severity", f.error ? "error" : "note"}, {"what", f.what}, {"where", f.where},
                        {"expected", f.expected}, {"found", f.found}, {"cause", f.cause}});
  for (const auto& e : k.effects)
    effects.push_back({{"context", e.context}, {"pairs", e.pairs}, {"max_rel_inv_freq", e.max_rel_inv_freq},
                       {"worst_pair", e.worst_pair}, {"attention_factor_a", e.attention_a},
                       {"attention_factor_b", e.attention_b}, {"logit_scale_a", e.logit_a}, {"logit_scale_b", e.logit_b},
                       {"longrope_list_a", e.list_a.empty() ? json(nullptr) : json(e.list_a)},
                       {"longrope_list_b", e.list_b.empty() ? json(nullptr) : json(e.list_b)}});
  // "pass" as in the configs' rope diff (exit status 0); "ok" is its former name, an alias for one release.
  const json j = {{"a", a}, {"b", b}, {"kind", "gguf"}, {"expected_architecture", k.expected_architecture},
                  {"tol", k.tol}, {"pass", k.ok()}, {"ok", k.ok()}, {"findings", findings}, {"effects", effects}};
  out << j.dump(2) << "\n";
}

}  // namespace posenc::reports
