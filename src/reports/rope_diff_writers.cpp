// `posenc rope diff` and `posenc rope permutation` output (declared in rope_writers.hpp).
#include "posenc/reports/rope_writers.hpp"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

namespace posenc::reports {

void write_rope_diff_text(const rope::RopeDiff& d, const RopeDiffLabels& labels, double tol, std::int64_t len,
                          std::ostream& out) {
  out << fmt::format("comparing {} with {}: {} frequency pairs, positions 0..{}\n", labels.a, labels.b, d.pairs, len - 1);
  out << fmt::format("  inv_freq          max abs {:.3e}, max rel {:.3e} (pair {})\n", d.inv_freq_max_abs,
                     d.inv_freq_max_rel, d.inv_freq_worst_pair);
  out << fmt::format("  attention factor  {} vs {} (diff {:.3e})\n", d.attention_a, d.attention_b,
                     std::abs(d.attention_a - d.attention_b));
  out << fmt::format("  cos / sin         max abs {:.3e} / {:.3e} (position {}, pair {})\n", d.cos_max_abs,
                     d.sin_max_abs, d.table_worst_position, d.table_worst_pair);
  if (!d.same_layout) out << "  note: the layouts differ; values are compared pair by pair (after the permutation)\n";
  out << fmt::format("{} (tolerance {})\n", d.within(tol) ? "within tolerance" : "DIFFERENT", tol);
}

void write_rope_diff_json(const rope::RopeDiff& d, const RopeDiffLabels& labels, double tol, std::int64_t len,
                          std::ostream& out) {
  const nlohmann::json j = {{"a", labels.a},
                            {"b", labels.b},
                            {"pairs", d.pairs},
                            {"len", len},
                            {"tol", tol},
                            // One schema for every rope diff (issue 26 item 7): "pass" is exit status 0;
                            // "within" is its former name here, kept as an alias for one release.
                            {"kind", "configs"},
                            {"pass", d.within(tol)},
                            {"within", d.within(tol)},
                            {"inv_freq_max_abs", d.inv_freq_max_abs},
                            {"inv_freq_max_rel", d.inv_freq_max_rel},
                            {"inv_freq_worst_pair", d.inv_freq_worst_pair},
                            {"attention_factor_a", d.attention_a},
                            {"attention_factor_b", d.attention_b},
                            {"cos_max_abs", d.cos_max_abs},
                            {"sin_max_abs", d.sin_max_abs},
                            {"worst_position", d.table_worst_position},
                            {"worst_pair", d.table_worst_pair},
                            {"same_layout", d.same_layout},
                            {"per_pair", {{"inv_freq_rel", d.inv_freq_rel}, {"table_max_abs", d.table_max_abs}}}};
  out << j.dump(2) << "\n";
}

void write_rope_permutation_text(const rope::RopePermutation& p, std::ostream& out) {
  const std::size_t d = p.to_half.size();
  const auto r = static_cast<std::size_t>(p.rotary_dim);
  if (r == d) {
    out << fmt::format("# head dim {}: half-layout row k takes interleaved row to_half[k] (row 2i+j -> j*{}+i)\n", d, d / 2);
  } else {
    out << fmt::format("# head dim {}, rotary dim {}: half-layout row k takes interleaved row to_half[k] (row 2i+j "
                       "-> j*{}+i for rows < {}; rows {}..{} pass through)\n",
                       d, r, r / 2, r, r, d - 1);
  }
  out << fmt::format("{:>8} {:>14}\n", "half_row", "interleaved_row");
  for (std::size_t k = 0; k < d; ++k) out << fmt::format("{:>8} {:>14}\n", k, p.to_half[k]);
  out << "# inverse (to_interleaved): " << fmt::format("{}", fmt::join(p.to_interleaved, " ")) << "\n";
}

void write_rope_permutation_json(const rope::RopePermutation& p, std::ostream& out) {
  const nlohmann::json j = {
      {"dim", p.to_half.size()},
      {"rotary_dim", p.rotary_dim},
      {"to_half", p.to_half},
      {"to_interleaved", p.to_interleaved},
      {"rule", "half[k] = interleaved[to_half[k]]; interleaved row 2i+j becomes half row j*rotary_dim/2+i "
               "for rows below rotary_dim, the others pass through (transformers convert_llama_weights_to_hf.py "
               "permute)"}};
  out << j.dump(2) << "\n";
}

}  // namespace posenc::reports
