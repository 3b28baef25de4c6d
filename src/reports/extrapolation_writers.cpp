#include "posenc/reports/extrapolation_writers.hpp"

#include <fmt/format.h>

#include <cmath>
#include <span>
#include <nlohmann/json.hpp>

#include "posenc/models/layers.hpp"
#include "posenc/text.hpp"

namespace posenc::reports {
namespace {

using analysis::Extrapolation;
using analysis::RopeExtrapolation;

nlohmann::json json_number(double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr); }

nlohmann::json json_numbers(const std::vector<double>& v) {
  nlohmann::json a = nlohmann::json::array();
  for (double x : v) a.push_back(json_number(x));
  return a;
}

/// "yarn" or "yarn ×4".
std::string method_label(const RopeExtrapolation& r) {
  return r.freqs.factor != 1.0 ? fmt::format("{} ×{:g}", r.method, r.freqs.factor) : r.method;
}

/// One layer type's ropes (every rope when the model has one).
void write_rope_text(const Extrapolation& e, std::span<const RopeExtrapolation> rope, std::ostream& out) {
  const auto& first = rope.front();
  const auto L = e.request.train_len, T = e.request.target_len;
  const std::string which =
      first.layer_type.empty() ? std::string()
                               : fmt::format(" of the {} layers ({})", first.layer_type, models::layer_ranges(first.layers));
  out << fmt::format("rope{}: head_dim {}, rotary_dim {} ({} pairs), base {}, convention {}\n", which, first.config.head_dim,
                     first.config.rotary_dim, first.freqs.pairs(), first.config.base, to_string(first.config.convention));
  out << fmt::format("critical dimension {} of {} at L = {} (Liu et al. 2023); smallest base for L' = {}: {} (Men et al. "
                     "2024){}\n",
                     first.critical_dimension, first.config.rotary_dim, L, T,
                     first.min_base ? fmt::format("{:.3g}", *first.min_base) : std::string("not computed beyond 2^21"),
                     [&] {
                       std::string bases;
                       for (const auto& r : rope) bases += fmt::format("{}{} {:.6g}", bases.empty() ? "; bases: " : ", ", r.method, r.freqs.base);
                       return bases;
                     }());
  out << fmt::format("{:<14} {:>8} {:>11} {:>11} {:>8} {:>7} {:>7} {:>9} {:>9} {:>10}\n", "method", "factor",
                     "attn_factor", "logit_scale", "covered", "within", "beyond", "D(1)", "D'(1)", "resolution");
  for (const auto& r : rope)
    out << fmt::format("{:<14} {:>8.6g} {:>11.6g} {:>11.6g} {:>8} {:>7} {:>7} {:>9.4g} {:>9.4g} {:>10}\n", r.method,
                       r.freqs.factor, r.freqs.attention_factor, r.logit_scale, r.covered, r.within, r.beyond,
                       r.neighbour_distance_train, r.neighbour_distance,
                       r.resolution > 0 ? fmt::format("{:.4g}", r.resolution) : std::string("none"));
  out << fmt::format(
      "  covered: L·θ ≥ 2π, training saw every phase; within: L'·θ' ≤ L·θ; beyond: angles training never "
      "saw\n  D(Δ) = sqrt(2/P·Σ(1 - cos Δθ_i)); resolution: smallest Δ with D'(Δ) ≥ D(1), closer positions are closer "
      "than training's neighbours\n");

  out << fmt::format("\nangle range per pair (radians): trained L·θ_i at L = {}, then L'·θ'_i at L' = {} "
                     "per method (c covered, w within, b beyond)\n",
                     L, T);
  std::string head = fmt::format("{:>4} {:>12}", "pair", "trained");
  for (const auto& r : rope) head += fmt::format(" {:>14}", r.method);
  out << head << "\n";
  for (std::size_t i = 0; i < first.freqs.pairs(); ++i) {
    std::string row = fmt::format("{:>4} {:>12.6g}", i, first.angle_train[i]);
    for (const auto& r : rope)
      row += fmt::format(" {:>12.6g} {}", r.angle_target[i], to_string(r.reach[i]).front());
    out << row << "\n";
  }

  out << fmt::format("\nattention entropy (nats) of a query at n-1 over keys 0..n-1, mean of {} seeded random (q, k) "
                     "(seed {}), logits q·k/sqrt({}) × logit_scale; ln n = uniform\n",
                     e.request.samples, e.request.seed, first.config.head_dim);
  head = fmt::format("{:>8} {:>8}", "n", "ln n");
  for (const auto& r : rope) {
    head += fmt::format(" {:>14}", method_label(r));
    if (r.logit_scale != 1.0) head += fmt::format(" {:>14}", "(no factor)");
  }
  out << head << "\n";
  for (std::size_t k = 0; k < e.lengths.size(); ++k) {
    std::string row = fmt::format("{:>8} {:>8.4f}", e.lengths[k], std::log(static_cast<double>(e.lengths[k])));
    for (const auto& r : rope) {
      row += fmt::format(" {:>14.4f}", r.entropy[k]);
      if (r.logit_scale != 1.0) row += fmt::format(" {:>14.4f}", r.entropy_without_factor[k]);
    }
    out << row << (e.lengths[k] == L ? "  <- L" : e.lengths[k] == T ? "  <- L'" : "") << "\n";
  }
}

}  // namespace

void write_extrapolation_text(const Extrapolation& e, std::ostream& out) {
  const auto L = e.request.train_len, T = e.request.target_len;
  out << fmt::format("extrapolation: trained on L = {} positions, run at L' = {} (×{:g}); offsets {} … {} are new\n",
                     L, T, static_cast<double>(T) / static_cast<double>(L), L, T - 1);
  // One section per layer type (Gemma 3: sliding and full attention), each with every method.
  for (std::size_t i = 0; i < e.rope.size();) {
    std::size_t j = i;
    while (j < e.rope.size() && e.rope[j].layer_type == e.rope[i].layer_type) ++j;
    out << "\n";
    write_rope_text(e, std::span<const RopeExtrapolation>(e.rope).subspan(i, j - i), out);
    i = j;
  }
  if (e.alibi) {
    const auto& a = *e.alibi;
    out << fmt::format("\nalibi: bias -m·|i-j| of {}; offsets up to L-1 = {} give [min, 0], up to L'-1 = {} "
                       "reach the new range [min at L', min within L)\n",
                       counted(static_cast<std::int64_t>(a.slopes.size()), "head", "heads"), L - 1, T - 1);
    out << fmt::format("{:>4} {:>12} {:>14} {:>14}\n", "head", "slope", "min within L", "min at L'");
    for (std::size_t h = 0; h < a.slopes.size(); ++h)
      out << fmt::format("{:>4} {:>12.6g} {:>14.6g} {:>14.6g}\n", h, a.slopes[h], a.min_train[h], a.min_target[h]);
  }
  for (const auto& b : e.biases) {
    out << fmt::format("\n{}: bias range per head over offsets 0 … L-1 = {} and 0 … L'-1 = {}\n", b.scheme, L - 1,
                       T - 1);
    out << fmt::format("{:>4} {:>16} {:>14} {:>14} {:>14} {:>14}\n", "head", "", "min within L", "max within L",
                       "min at L'", "max at L'");
    for (std::size_t h = 0; h < b.labels.size(); ++h)
      out << fmt::format("{:>4} {:>16} {:>14.6g} {:>14.6g} {:>14.6g} {:>14.6g}\n", h, b.labels[h], b.min_train[h],
                         b.max_train[h], b.min_target[h], b.max_target[h]);
  }
  if (e.t5) {
    const auto& t = *e.t5;
    out << fmt::format("\nt5: {} buckets, max_distance {}, {}; from its saturation offset on, every larger offset shares "
                       "the direction's last bucket\n",
                       t.options.num_buckets, t.options.max_distance,
                       t.options.bidirectional ? "bidirectional" : "causal (future keys: bucket 0)");
    out << fmt::format("{:<9} {:>11} {:>10} {:>13} {:>14} {:>16} {:>16}  {}\n", "direction", "last_bucket",
                       "saturation", "bucket at L-1", "bucket at L'-1", "buckets within L", "buckets within L'",
                       "beyond L");
    for (const auto& d : t.directions)
      out << fmt::format("{:<9} {:>11} {:>10} {:>13} {:>14} {:>16} {:>16}  {}\n", d.name, d.last_bucket, d.saturation,
                         d.bucket_train, d.bucket_target, d.buckets_train, d.buckets_target,
                         d.buckets_target == d.buckets_train ? "no new bucket"
                                                             : fmt::format("{} new buckets",
                                                                           d.buckets_target - d.buckets_train));
  }
  if (e.learned) {
    const auto& l = *e.learned;
    out << fmt::format("\nlearned: a table of {} rows; positions {} … {} ({} rows) have no embedding: it cannot "
                       "extrapolate\n",
                       l.rows, l.first_missing, l.last_missing, l.missing);
  }
}

void write_extrapolation_json(const Extrapolation& e, std::ostream& out) {
  nlohmann::json j;
  j["train_len"] = e.request.train_len;
  j["target_len"] = e.request.target_len;
  j["samples"] = e.request.samples;
  j["seed"] = e.request.seed;
  j["methods"] = e.request.methods;
  j["schemes"] = e.request.schemes;
  // The RoPE settings typed (the others are rope's defaults), each as the flag that gives it back.
  nlohmann::json settings = nlohmann::json::object();
  for (const auto& name : e.request.rope.names())
    if (e.request.rope.given(name)) settings[name] = to_string(e.request.rope.value(name));
  j["rope_settings"] = std::move(settings);
  j["lengths"] = e.lengths;
  j["rope"] = nlohmann::json::array();
  for (const auto& r : e.rope) {
    nlohmann::json m;
    m["method"] = r.method;
    m["layer_type"] = r.layer_type.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.layer_type);
    m["layers"] = r.layers;
    m["critical_dimension"] = r.critical_dimension;
    m["min_base"] = r.min_base ? nlohmann::json(*r.min_base) : nlohmann::json(nullptr);
    m["factor"] = r.freqs.factor;
    m["base"] = r.freqs.base;
    m["head_dim"] = r.config.head_dim;
    m["rotary_dim"] = r.config.rotary_dim;
    m["convention"] = std::string(to_string(r.config.convention));
    m["attention_factor"] = r.freqs.attention_factor;
    m["logit_scale"] = r.logit_scale;
    m["inv_freq_original"] = json_numbers(r.freqs.inv_freq_original);
    m["inv_freq"] = json_numbers(r.freqs.inv_freq);
    m["angle_train"] = json_numbers(r.angle_train);
    m["angle_target"] = json_numbers(r.angle_target);
    m["reach"] = nlohmann::json::array();
    for (auto x : r.reach) m["reach"].push_back(std::string(to_string(x)));
    m["covered"] = r.covered;
    m["within"] = r.within;
    m["beyond"] = r.beyond;
    m["entropy"] = json_numbers(r.entropy);
    m["entropy_without_factor"] = json_numbers(r.entropy_without_factor);
    m["neighbour_distance_train"] = r.neighbour_distance_train;
    m["neighbour_distance"] = r.neighbour_distance;
    m["resolution"] = r.resolution > 0 ? nlohmann::json(r.resolution) : nlohmann::json(nullptr);
    j["rope"].push_back(std::move(m));
  }
  j["alibi"] = nullptr;
  if (e.alibi)
    j["alibi"] = {{"heads", e.alibi->slopes.size()},
                  {"slopes", json_numbers(e.alibi->slopes)},
                  {"min_bias_train", json_numbers(e.alibi->min_train)},
                  {"min_bias_target", json_numbers(e.alibi->min_target)}};
  j["biases"] = nlohmann::json::array();
  for (const auto& b : e.biases)
    j["biases"].push_back({{"scheme", b.scheme},
                           {"heads", b.labels},
                           {"min_bias_train", json_numbers(b.min_train)},
                           {"max_bias_train", json_numbers(b.max_train)},
                           {"min_bias_target", json_numbers(b.min_target)},
                           {"max_bias_target", json_numbers(b.max_target)}});
  j["t5"] = nullptr;
  if (e.t5) {
    nlohmann::json dirs = nlohmann::json::array();
    for (const auto& d : e.t5->directions)
      dirs.push_back({{"direction", d.name},
                      {"last_bucket", d.last_bucket},
                      {"saturation", d.saturation},
                      {"bucket_train", d.bucket_train},
                      {"bucket_target", d.bucket_target},
                      {"buckets_train", d.buckets_train},
                      {"buckets_target", d.buckets_target}});
    j["t5"] = {{"num_buckets", e.t5->options.num_buckets},
               {"max_distance", e.t5->options.max_distance},
               {"mode", e.t5->options.bidirectional ? "bidirectional" : "causal"},
               {"directions", std::move(dirs)}};
  }
  j["learned"] = nullptr;
  if (e.learned)
    j["learned"] = {{"rows", e.learned->rows},
                    {"first_missing", e.learned->first_missing},
                    {"last_missing", e.learned->last_missing},
                    {"missing", e.learned->missing}};
  out << j.dump(2) << "\n";
}

}  // namespace posenc::reports
