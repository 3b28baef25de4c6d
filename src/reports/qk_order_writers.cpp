// The q/k row-order check as text and JSON (qk_order_writers.hpp).
#include "posenc/reports/qk_order_writers.hpp"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "posenc/text.hpp"

namespace posenc::reports {

void write_qk_order_text(const models::QkOrderReport& r, std::ostream& out) {
  if (!r.hf_path.empty())
    out << fmt::format("q/k row order: {} (Hugging Face) → {} (GGUF)\n", printable(r.hf_path, 200), printable(r.gguf_path, 200));
  else
    out << fmt::format("GGUF rope tensors: {}\n", printable(r.gguf_path, 200));
  out << fmt::format("  {}, {} heads, {} kv heads, head {}, rotary {}; GGUF: {}\n", counted(r.layers, "layer", "layers"), r.heads, r.kv_heads,
                     r.head_dim, r.rotary_dim, r.rope_type);
  if (!r.hf_path.empty()) {
    out << fmt::format("  transformers pairs the stored rows as {} ({})\n", r.hf_layout, r.hf_layout_source);
    out << fmt::format("  expected map: {}\n\n", r.expected_map);
    out << fmt::format("{:>5}  {:<7}  {:<6}  {:<20}  {:>9}  {:>11}  {}\n", "layer", "tensor", "dtype", "found map",
                       "mean cos", "max rel err", "runner-up (mean cos)");
    for (const auto& t : r.tensors) {
      const auto& best = t.scores.front();
      const std::string runner =
          t.scores.size() > 1 ? fmt::format("{} ({:.4f})", t.scores[1].map, t.scores[1].mean_cos) : std::string("-");
      out << fmt::format("{:>5}  {:<7}  {:<6}  {:<20}  {:>9.6f}  {:>11.3g}  {}{}\n", t.layer, t.tensor, t.gguf_dtype,
                         t.found_map, best.mean_cos, best.max_rel_err, runner, t.ok ? "" : "   <- wrong");
    }
  }
  for (const auto& [line, ok] : r.checks) out << fmt::format("  {} {}\n", ok ? "ok  " : "FAIL", line);
  for (const auto& n : r.notes) out << "note: " << n << "\n";
  if (!r.findings.empty()) out << fmt::format("\n{} finding(s):\n", r.findings.size());
  for (const auto& f : r.findings)
    out << fmt::format("  layer {} {}: found {}, expected {}: {}\n", f.layer, f.tensor, f.found_map, f.expected_map, f.bug);
  if (r.hf_path.empty())
    out << (r.ok() ? "result: the rope tensors pass (the q/k row order was not checked)\n" : "result: WRONG (exit 1)\n");
  else
    out << (r.ok() ? "result: the q/k order is right\n" : "result: WRONG (exit 1)\n");
}

void write_qk_order_json(const models::QkOrderReport& r, std::ostream& out) {
  using Json = nlohmann::ordered_json;
  Json j;
  j["ok"] = r.ok();
  j["hf"] = r.hf_path;
  j["gguf"] = r.gguf_path;
  j["architecture"] = r.arch;
  j["rope_type"] = r.rope_type;
  j["hf_layout"] = r.hf_layout;
  j["layers"] = r.layers;
  j["heads"] = r.heads;
  j["kv_heads"] = r.kv_heads;
  j["head_dim"] = r.head_dim;
  j["rotary_dim"] = r.rotary_dim;
  j["expected_map"] = r.expected_map;
  Json tensors = Json::array();
  for (const auto& t : r.tensors) {
    Json scores = Json::array();
    for (const auto& s : t.scores) scores.push_back({{"map", s.map}, {"mean_cos", s.mean_cos}, {"max_rel_err", s.max_rel_err}});
    tensors.push_back({{"layer", t.layer}, {"tensor", t.tensor}, {"hf_name", t.hf_name}, {"gguf_name", t.gguf_name},
                       {"gguf_dtype", t.gguf_dtype}, {"found_map", t.found_map}, {"ok", t.ok}, {"scores", scores}});
  }
  j["tensors"] = std::move(tensors);
  Json findings = Json::array();
  for (const auto& f : r.findings)
    findings.push_back({{"layer", f.layer}, {"tensor", f.tensor}, {"found_map", f.found_map},
                        {"expected_map", f.expected_map}, {"bug", f.bug}});
  j["findings"] = std::move(findings);
  Json checks = Json::array();
  for (const auto& [line, ok] : r.checks) checks.push_back({{"check", line}, {"ok", ok}});
  j["checks"] = std::move(checks);
  j["notes"] = r.notes;
  out << j.dump(2, ' ', false, Json::error_handler_t::replace) << "\n";
}

}  // namespace posenc::reports
