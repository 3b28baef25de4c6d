#include "posenc/render/model_figure.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <variant>

#include "posenc/encodings/deberta.hpp"
#include "posenc/encodings/sinusoidal.hpp"
#include "posenc/encodings/t5.hpp"
#include "posenc/models/model_weights.hpp"
#include "posenc/error.hpp"
#include "posenc/text.hpp"

namespace posenc::render {
namespace {

using models::MechanismUse;

template <class T>
T model_value_or(const MechanismUse& m, const std::string& key, T fallback) {
  for (const auto& [k, v] : m.values)
    if (k == key && std::holds_alternative<T>(v)) return std::get<T>(v);
  return fallback;
}

double model_number(const MechanismUse& m, const std::string& key, double fallback) {
  for (const auto& [k, v] : m.values) {
    if (k != key) continue;
    if (std::holds_alternative<double>(v)) return std::get<double>(v);
    if (std::holds_alternative<std::int64_t>(v)) return static_cast<double>(std::get<std::int64_t>(v));
  }
  return fallback;
}

std::vector<double> model_indices(std::int64_t n) {
  std::vector<double> x;
  for (std::int64_t i = 0; i < n; ++i) x.push_back(static_cast<double>(i));
  return x;
}

LineFigure model_panel(std::string title, std::string x_label, std::string y_label, std::vector<double> x) {
  LineFigure p;
  p.title = std::move(title), p.x_label = std::move(x_label), p.y_label = std::move(y_label), p.x = std::move(x);
  return p;
}

void add_rope_panel(const MechanismUse& m, std::vector<LineFigure>& out) {
  const auto inv = model_value_or<std::vector<double>>(m, "inv_freq", {});
  std::vector<double> wave;
  for (double t : inv) wave.push_back(t > 0 ? 2 * std::numbers::pi / t : std::nan(""));
  const std::string scaling = model_value_or<std::string>(m, "scaling", "none");
  auto p = model_panel(fmt::format("RoPE, {}: base {:g}, {}{}, rotary_dim {}", m.where, model_number(m, "base", 0),
                                   scaling, scaling == "none" ? "" : fmt::format(" ×{:g}", model_number(m, "factor", 1)),
                                   model_number(m, "rotary_dim", 0)),
                       "pair i", "wavelength 2π/θ (positions)", model_indices(static_cast<std::int64_t>(inv.size())));
  p.log_y = true;
  p.series.push_back({m.layer_type.empty() ? "wavelength" : m.layer_type, wave});
  const double orig = model_number(m, "original_max_position_embeddings", 0);
  if (orig > 0) p.references.push_back({orig, fmt::format("original context {:g}", orig)});
  out.push_back(std::move(p));
}

void add_nope_panels(const MechanismUse& m, std::int64_t num_layers, std::vector<LineFigure>& out) {
  const std::int64_t n = std::max<std::int64_t>(num_layers, m.layers.empty() ? 0 : m.layers.back() + 1);
  std::vector<double> rope(static_cast<std::size_t>(n), 1.0);
  for (auto l : m.layers) rope[static_cast<std::size_t>(l)] = 0.0;
  auto p = model_panel(fmt::format("layers without RoPE: {} of {} ({})", m.layers.size(), n, m.where), "layer",
                       "RoPE (1) or none (0)", model_indices(n));
  p.series.push_back({"rotates", rope});
  out.push_back(std::move(p));
  if (!model_value_or<bool>(m, "attn_temperature_tuning", false)) return;
  // Llama 4 on its NoPE layers: q × (log1p(floor((t + 1) / floor_scale)) · attn_scale + 1).
  const double fs = model_number(m, "floor_scale", 8192), s = model_number(m, "attn_scale", 0.1);
  std::vector<double> x, y;
  for (int i = 0; i <= 1024; ++i) {
    const double t = std::floor(128.0 * fs * i / 1024.0);
    x.push_back(t);
    y.push_back(std::log1p(std::floor((t + 1.0) / fs)) * s + 1.0);
  }
  auto q = model_panel(fmt::format("query temperature on NoPE layers: floor_scale {:g}, attn_scale {:g}", fs, s),
                       "position", "temperature", std::move(x));
  q.series.push_back({"temperature", std::move(y)});
  out.push_back(std::move(q));
}

void add_t5_panel(const MechanismUse& m, std::vector<LineFigure>& out) {
  encodings::T5Options o;
  o.num_buckets = static_cast<std::int64_t>(model_number(m, "num_buckets", 32));
  o.max_distance = static_cast<std::int64_t>(model_number(m, "max_distance", 128));
  o.bidirectional = model_value_or<bool>(m, "bidirectional", true);
  const std::int64_t reach = 2 * o.max_distance;
  std::vector<double> x, y;
  for (std::int64_t d = -reach; d <= (o.bidirectional ? reach : 0); ++d) {
    x.push_back(static_cast<double>(d));
    y.push_back(static_cast<double>(encodings::t5_bucket(d, o)));
  }
  auto p = model_panel(fmt::format("T5 buckets, {} ({}): {} buckets, max_distance {}", m.where,
                                   o.bidirectional ? "bidirectional" : "causal", o.num_buckets, o.max_distance),
                       "relative position (key − query)", "bucket", std::move(x));
  p.series.push_back({"bucket", std::move(y)});
  out.push_back(std::move(p));
}

// Wav2Vec2 / HuBERT: which input frames each output frame's convolution reads (the weights are
// trained: only the reach is a fact of the config).
void add_conv_panel(const MechanismUse& m, std::vector<LineFigure>& out) {
  const auto kernel = static_cast<std::int64_t>(model_number(m, "kernel", 0));
  const auto before = static_cast<std::int64_t>(model_number(m, "frames_before", 0));
  const auto after = static_cast<std::int64_t>(model_number(m, "frames_after", 0));
  std::vector<double> x, y;
  for (std::int64_t d = -kernel; d <= kernel; ++d) {
    x.push_back(static_cast<double>(d));
    y.push_back(d >= -before && d <= after ? 1.0 : 0.0);
  }
  auto p = model_panel(fmt::format("convolutional positions: frame t reads t−{} … t+{} (kernel {}, {} groups; weights "
                                   "trained)",
                                   before, after, kernel, static_cast<std::int64_t>(model_number(m, "groups", 0))),
                       "input frame − output frame", "read (1) or not (0)", std::move(x));
  p.series.push_back({"reach", std::move(y)});
  out.push_back(std::move(p));
}

// Pixtral / DINOv3: the rotation per patch step of each pair, rows and columns (DINOv3's
// coordinates step by 2/n, its angles are 2π·c·f).
void add_axial_panel(const MechanismUse& m, std::vector<LineFigure>& out) {
  auto rows = model_value_or<std::vector<double>>(m, "row_inv_freq", {});
  auto cols = model_value_or<std::vector<double>>(m, "column_inv_freq", {});
  double step = 1.0;
  if (rows.empty()) {  // one ladder for both axes (DINOv3)
    rows = cols = model_value_or<std::vector<double>>(m, "inv_freq", {});
    const double n = model_number(m, "rows", 1);
    step = model_number(m, "angle_scale", 1) * 2.0 / std::max(n, 1.0);
  }
  const std::size_t k = std::min(rows.size(), cols.size());
  std::vector<double> r, c;
  for (std::size_t i = 0; i < k; ++i) {
    r.push_back(rows[i] * step);
    c.push_back(cols[i] * step);
  }
  auto p = model_panel(fmt::format("2-D RoPE, {}: radians per patch step, {}×{} patches, θ {:g}", m.where,
                                   model_number(m, "rows", 0), model_number(m, "columns", 0), model_number(m, "base", 0)),
                       "rung k of each axis' pairs", "radians per patch step", model_indices(static_cast<std::int64_t>(k)));
  p.log_y = true;
  p.series.push_back({"rows", std::move(r)});
  p.series.push_back({"columns", std::move(c)});
  out.push_back(std::move(p));
}

void add_deberta_panel(const MechanismUse& m, std::vector<LineFigure>& out) {
  encodings::DebertaOptions o;
  o.buckets = static_cast<std::int64_t>(model_number(m, "position_buckets", -1));
  o.max_relative = static_cast<std::int64_t>(model_number(m, "max_relative_positions", 512));
  if (o.buckets <= 0) o.buckets = o.max_relative;
  const std::int64_t reach = o.max_relative;
  std::vector<double> x, y;
  for (std::int64_t d = -reach; d <= reach; ++d) {
    x.push_back(static_cast<double>(d));
    y.push_back(static_cast<double>(encodings::deberta_bucket(d, o)));
  }
  auto p = model_panel(fmt::format("DeBERTa relative buckets: position_buckets {}, max_relative_positions {}", o.buckets,
                                   o.max_relative),
                       "relative position (query − key)", "bucket", std::move(x));
  p.series.push_back({"bucket", std::move(y)});
  out.push_back(std::move(p));
}

void add_sinusoidal_panel(const MechanismUse& m, std::vector<LineFigure>& out) {
  const auto width = static_cast<std::int64_t>(model_number(m, "width", 0));
  const auto rows = static_cast<std::int64_t>(model_number(m, "rows", 0));
  const std::string convention = model_value_or<std::string>(m, "convention", "paper");
  if (width < 2 || rows < 1) return;
  const auto w = encodings::sinusoidal_frequencies(width, model_number(m, "base", 10000),
                                                   encodings::parse_convention(convention));
  // ⟨PE(0), PE(t)⟩ = Σ_k sin(0)sin(w_k t) + cos(0)cos(w_k t) = Σ_k cos(w_k t), whatever the layout.
  std::vector<double> x, y;
  for (std::int64_t t = 0; t < rows; ++t) {
    double s = 0;
    for (double wk : w) s += std::cos(wk * static_cast<double>(t));
    x.push_back(static_cast<double>(t));
    y.push_back(s / static_cast<double>(w.size()));
  }
  auto p = model_panel(fmt::format("sinusoidal table, {} ({}): ⟨PE(0), PE(t)⟩ / (d/2), d = {}", m.where, convention, width),
                       "position offset t", "normalised dot product", std::move(x));
  p.series.push_back({"dot product", std::move(y)});
  out.push_back(std::move(p));
}

}  // namespace

LineFigure model_figure(const models::ModelReport& r) {
  if (r.mechanisms.empty())
    throw Error(r.family.empty() && !r.model_type.empty()
                    ? fmt::format("{}: model_type '{}' is not one posenc knows, so there is no mechanism to draw (the "
                                  "text report lists what the file states)",
                                  r.source, r.model_type)
                    : fmt::format("{}: the model uses no position mechanism, so there is nothing to draw (see the "
                                  "text report)",
                                  r.source));
  std::vector<LineFigure> plots;
  for (const auto& m : r.mechanisms) {
    switch (m.kind) {
      case models::Mechanism::kRope: add_rope_panel(m, plots); break;
      case models::Mechanism::kNope: add_nope_panels(m, r.num_layers, plots); break;
      case models::Mechanism::kMrope: {
        const auto axis = model_value_or<std::vector<std::int64_t>>(m, "pair_axis", {});
        auto p = model_panel(fmt::format("M-RoPE{}: the position axis each pair follows",
                                         model_value_or<bool>(m, "interleaved", false) ? " (interleaved)" : ""),
                             "pair i", "axis", model_indices(static_cast<std::int64_t>(axis.size())));
        p.y_categories = {"t", "h", "w"};  // temporal, height, width (and ggml's fourth, e)
        if (r.input == "gguf") p.y_categories.push_back("e");
        p.steps = true;  // one axis per pair: steps, not a slope between pairs
        p.series.push_back({"axis", std::vector<double>(axis.begin(), axis.end())});
        plots.push_back(std::move(p));
        break;
      }
      case models::Mechanism::kMla: {
        const auto q = static_cast<std::int64_t>(model_number(m, "q_head_dim", 0));
        const auto rope = static_cast<std::int64_t>(model_number(m, "qk_rope_head_dim", 0));
        std::vector<double> y;
        for (std::int64_t i = 0; i < q; ++i) y.push_back(i >= q - rope ? 1.0 : 0.0);  // [q_nope | q_pe]
        auto p = model_panel(fmt::format("MLA: {} of the {} query/key dims rotate (q_pe after q_nope)", rope, q),
                             "dimension of the query head", "RoPE (1) or none (0)", model_indices(q));
        p.series.push_back({"rotates", std::move(y)});
        plots.push_back(std::move(p));
        break;
      }
      case models::Mechanism::kAlibi: {
        const auto slopes = model_value_or<std::vector<double>>(m, "slopes", {});
        auto p = model_panel(fmt::format("ALiBi slopes per head ({}, {})", model_value_or<std::string>(m, "codebase", ""),
                                         counted(static_cast<std::int64_t>(slopes.size()), "head", "heads")),
                             "head", "slope m (bias = −m·distance)", model_indices(static_cast<std::int64_t>(slopes.size())));
        p.log_y = true;
        p.series.push_back({"slope", slopes});
        plots.push_back(std::move(p));
        break;
      }
      case models::Mechanism::kT5: add_t5_panel(m, plots); break;
      case models::Mechanism::kDeberta: add_deberta_panel(m, plots); break;
      case models::Mechanism::kLearned: {
        const auto positions = static_cast<std::int64_t>(model_number(m, "positions", model_number(m, "rows", 0)));
        const auto offset = static_cast<std::int64_t>(model_number(m, "offset", 0));
        std::vector<double> y;
        for (std::int64_t t = 0; t < positions; ++t) y.push_back(static_cast<double>(t + offset));
        auto p = model_panel(fmt::format("learned table, {}: {} rows × {} (trained values: --input), offset {}", m.where,
                                         model_number(m, "rows", 0), model_number(m, "width", 0), offset),
                             "position t", "row of the table", model_indices(positions));
        p.series.push_back({"row", std::move(y)});
        plots.push_back(std::move(p));
        break;
      }
      case models::Mechanism::kSinusoidal: add_sinusoidal_panel(m, plots); break;
      case models::Mechanism::kConvolutional: add_conv_panel(m, plots); break;
      case models::Mechanism::kAxialRope: add_axial_panel(m, plots); break;
      default: break;  // mixers, no positions: nothing to draw
    }
    if (m.weights && m.weights->table) {  // read from the weights: the norm of every stored row
      const auto& t = *m.weights->table;
      auto p = model_panel(fmt::format("{} ({}): L2 norm of each stored row; positions use rows {}-{}", t.tensor,
                                       m.where, t.first_row, t.last_row),
                           "stored row", "‖row‖", model_indices(t.rows));
      p.series.push_back({"row norm", t.row_norm});
      plots.push_back(std::move(p));
    }
  }
  LineFigure f;
  if (!plots.empty()) {
    f = std::move(plots.front());
    f.heading = f.title;
    for (std::size_t i = 1; i < plots.size(); ++i) f.panels.push_back(std::move(plots[i]));
  }
  const std::string who = r.family.empty() ? r.model_type : fmt::format("{} ({})", r.family, r.model_type);
  f.title = fmt::format("position mechanisms of {}{}", who, r.input == "gguf" ? " as llama.cpp runs it" : "");
  f.subtitle = fmt::format("{}{}: {} plot{}", r.source, r.num_layers > 0 ? fmt::format(", {} layers", r.num_layers) : "",
                           1 + f.panels.size(), f.panels.empty() ? "" : "s");
  f.width = 900;
  f.height = 90 + 300 * static_cast<int>(1 + f.panels.size());
  return f;
}

}  // namespace posenc::render
