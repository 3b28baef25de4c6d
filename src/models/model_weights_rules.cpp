// The row rules of each family's stored position tensor (../shared/reference/weights.md §4.1,
// §4.3), applied to the values read (see model_weights.hpp).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>

#include "model_weights_internal.hpp"
#include "posenc/encodings/sinusoidal.hpp"

namespace posenc::models::detail {
namespace {

template <class T>
const T* weight_value_of(const MechanismUse& m, const std::string& key) {
  for (const auto& [k, v] : m.values)
    if (k == key) return std::get_if<T>(&v);
  return nullptr;
}

std::int64_t weight_int_value(const MechanismUse& m, const std::string& key, std::int64_t fallback) {
  const auto* v = weight_value_of<std::int64_t>(m, key);
  return v != nullptr ? *v : fallback;
}

std::string weight_shape_text(const std::vector<std::uint64_t>& shape) {
  std::string s = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) s += fmt::format("{}{}", i ? ", " : "", shape[i]);
  return s + "]";
}

/// A [R, D] tensor, or a [1, R, D] parameter (ViT, DINOv2), as R rows of D; false otherwise.
bool as_rows(const std::vector<std::uint64_t>& shape, std::int64_t& rows, std::int64_t& width) {
  if (shape.size() == 2 || (shape.size() == 3 && shape[0] == 1)) {
    rows = static_cast<std::int64_t>(shape[shape.size() - 2]);
    width = static_cast<std::int64_t>(shape.back());
    return rows > 0 && width > 0;
  }
  return false;
}

/// Learned and sinusoidal 1-D tables: row offset + t holds position t.
bool table_rule(const ModelReport& r, MechanismUse& m, const StoredTensor& st, MechanismWeights& out) {
  TableWeights t;
  t.tensor = st.name, t.dtype = st.dtype, t.shape = st.shape;
  if (!as_rows(st.shape, t.rows, t.width)) {
    m.notes.push_back(fmt::format("weights: {} has shape {}, not [rows, width]: not read as a table", st.name,
                                  weight_shape_text(st.shape)));
    return false;
  }
  t.values = st.read();
  const bool grid = m.kind == Mechanism::kLearnedGrid;
  const std::int64_t offset = grid || m.kind == Mechanism::kSinusoidal ? 0 : weight_int_value(m, "offset", 0);
  const std::int64_t positions =
      weight_int_value(m, grid || m.kind == Mechanism::kSinusoidal ? "rows" : "positions", t.rows - offset);
  const std::int64_t want_rows = grid ? positions : offset + positions;
  if (t.rows != want_rows)
    out.findings.push_back(fmt::format("{} stores {} rows; the config gives {}{}", st.name, t.rows, want_rows,
                                       grid ? " (another image or patch size than the config's?)" : ""));
  t.first_row = std::min(offset, t.rows - 1);
  t.last_row = std::min(t.rows - 1, offset + positions - 1);
  for (std::int64_t i = 0; i < t.rows; ++i)
    if (i < t.first_row || i > t.last_row) t.unused_rows.push_back(i);
  const std::string type = r.model_type;
  if (grid) {
    t.grid_rows = weight_int_value(m, "grid_rows", 0);
    t.grid_cols = weight_int_value(m, "grid_cols", 0);
    const auto* cls = weight_value_of<bool>(m, "class_token");
    t.class_token = cls != nullptr && *cls;
    t.rule = t.class_token ? fmt::format("row 0: class token; rows 1..{}: the {}x{} patch grid, row-major", t.rows - 1,
                                         t.grid_rows, t.grid_cols)
                           : fmt::format("rows 0..{}: the {}x{} patch grid, row-major (no class token)", t.rows - 1,
                                         t.grid_rows, t.grid_cols);
  } else if (r.input == "gguf") {
    t.rule = "row t holds position t (a converter that drops rows, as convert_hf_to_gguf.py does for RoBERTa's first "
             "padding_idx + 1 rows, leaves row 0 for position 0)";
  } else if (offset > 0 && (type == "roberta" || type == "xlm-roberta" || type == "camembert" || type == "longformer")) {
    t.padding_row = offset - 1;
    t.rule = fmt::format("row t + padding_idx + 1 = t + {} holds position t; row {} (padding_idx) is what padding "
                         "tokens take; row{} {} never used",
                         offset, offset - 1, offset > 2 ? "s" : "", offset > 2 ? fmt::format("0-{}", offset - 2) : "0");
  } else if (offset > 0) {
    t.padding_row = offset == 2 && type == "opt" ? 1 : -1;
    t.rule = fmt::format("row t + {} holds position t (offset {}); rows 0-{} are never used by tokens{}", offset,
                         offset, offset - 1, t.padding_row == 1 ? " (padding tokens take row 1)" : "");
  } else {
    t.rule = "row t holds position t";
  }
  if (m.kind == Mechanism::kSinusoidal) {
    const auto* conv = weight_value_of<std::string>(m, "convention");
    const auto* base = weight_value_of<double>(m, "base");
    if (conv != nullptr && *conv == "tensor2tensor" && t.width % 2 == 0 && t.width >= 4) {
      // Whisper's sinusoids(length, channels) in float32: [sin(t·w) | cos(t·w)], w_k = exp(−k·ln(10000)/(d/2 − 1)).
      const auto w = encodings::sinusoidal_frequencies_f32(t.width, base != nullptr ? *base : 10000.0,
                                                           encodings::SinusoidalConvention::kTensor2Tensor);
      std::vector<double> row(static_cast<std::size_t>(t.width));
      double worst = 0;
      for (std::int64_t i = 0; i < t.rows; ++i) {
        encodings::sinusoidal_row_torch_f32(static_cast<double>(i), w, encodings::SinusoidalLayout::kSplit, row);
        for (std::int64_t j = 0; j < t.width; ++j) {
          const double d = std::abs(t.values[static_cast<std::size_t>(i * t.width + j)] - row[static_cast<std::size_t>(j)]);
          worst = std::isnan(d) ? std::numeric_limits<double>::infinity() : std::max(worst, d);
        }
      }
      t.formula_max_abs_diff = worst;
      // float32 rounding: sin/cos within 1e-6, and a frequency one ulp (≤ 2^-23, w_k ≤ 1) away from
      // torch's moves the angle of row t by up to t·2^-23.
      const double tolerance = 1e-6 + static_cast<double>(t.rows) * std::ldexp(1.0, -23);
      if (worst > tolerance)
        out.findings.push_back(fmt::format("{} differs from Whisper's sinusoids() by up to {:.3g} (float32 rounding "
                                           "stays below {:.2g}): the stored table is what the model uses",
                                           st.name, worst, tolerance));
    }
  }
  fill_row_norms(t);
  if (t.padding_row >= 0 && t.padding_row < t.rows && t.row_norm[static_cast<std::size_t>(t.padding_row)] == 0)
    out.findings.push_back(fmt::format("row {} (padding) is all zeros: created with padding_idx, never trained",
                                       t.padding_row));
  out.table = std::move(t);
  return true;
}

bool bias_rule(MechanismUse& m, const StoredTensor& st, MechanismWeights& out) {
  if (st.shape.size() != 2) {
    m.notes.push_back(fmt::format("weights: {} has shape {}, not [buckets, heads]", st.name, weight_shape_text(st.shape)));
    return false;
  }
  BiasWeights b;
  b.tensor = st.name, b.dtype = st.dtype, b.shape = st.shape;
  b.buckets = static_cast<std::int64_t>(st.shape[0]), b.heads = static_cast<std::int64_t>(st.shape[1]);
  b.bias = st.read();
  const auto buckets = weight_int_value(m, "num_buckets", b.buckets), heads = weight_int_value(m, "heads", b.heads);
  if (buckets != b.buckets || heads != b.heads)
    out.findings.push_back(fmt::format("{} is {}, the config gives [{}, {}] (num_buckets, heads)", st.name,
                                       weight_shape_text(st.shape), buckets, heads));
  out.bias = std::move(b);
  return true;
}

double dtype_tolerance(const std::string& dtype) {
  if (dtype == "F64") return 1e-12;
  if (dtype == "F16") return 1e-3;
  if (dtype == "BF16") return 8e-3;
  return 1e-6;  // F32: 2^-24 relative rounding, with margin for the expected value's own float32 rounding
}

RopeTensorWeights rope_tensor(const StoredTensor& st, const std::vector<double>* expected) {
  RopeTensorWeights t;
  t.tensor = st.name, t.dtype = st.dtype, t.shape = st.shape;
  t.stored = st.read();
  t.tolerance = dtype_tolerance(st.dtype);
  if (expected != nullptr && expected->size() == t.stored.size()) {
    t.expected = *expected;
    double worst = -1;  // pair 0 when every pair agrees exactly
    for (std::size_t i = 0; i < t.stored.size(); ++i) {
      const double d = std::abs(t.stored[i] - t.expected[i]) / std::abs(t.expected[i]);
      if (!(d <= worst)) {
        worst = std::isnan(d) ? std::numeric_limits<double>::infinity() : d;
        t.worst_pair = static_cast<std::int64_t>(i);
      }
    }
    t.max_rel_diff = std::max(worst, 0.0);
  }
  return t;
}

/// The layer index of "model.layers.12.self_attn.rotary_emb.inv_freq", -1 when none.
std::int64_t layer_of(const std::string& name) {
  for (const char* key : {"layers.", "layer.", "h.", "blocks.", "block."}) {
    const auto at = name.find(key);
    if (at == std::string::npos || (at > 0 && name[at - 1] != '.')) continue;
    std::size_t i = at + std::string_view(key).size();
    std::int64_t n = 0;
    bool digits = false;
    while (i < name.size() && name[i] >= '0' && name[i] <= '9' && n < (std::int64_t{1} << 40)) {
      n = n * 10 + (name[i++] - '0');
      digits = true;
    }
    if (digits) return n;
  }
  return -1;
}

bool rope_rule(const ModelReport& r, MechanismUse& m, const StoredWeights& w, MechanismWeights& out) {
  const auto* inv_freq = weight_value_of<std::vector<double>>(m, "inv_freq");
  bool first_rope = false;
  for (const auto& other : r.mechanisms)
    if (other.kind == Mechanism::kRope) {
      first_rope = &other == &m;
      break;
    }
  for (const auto& st : w.tensors) {
    if (r.input == "gguf") {
      if (!first_rope || (st.name != "rope_freqs.weight" && st.name != "rope_factors_long.weight" &&
                          st.name != "rope_factors_short.weight"))
        continue;
      out.rope.push_back(rope_tensor(st, nullptr));
      continue;
    }
    if (!st.name.ends_with("rotary_emb.inv_freq") && !st.name.ends_with("rotary_pos_emb.inv_freq")) continue;
    const std::int64_t layer = layer_of(st.name);
    const bool mine = layer < 0 ? first_rope
                                : (m.layers.empty() ? first_rope
                                                    : std::binary_search(m.layers.begin(), m.layers.end(), layer));
    if (!mine) continue;
    out.rope.push_back(rope_tensor(st, inv_freq));
  }
  if (r.input == "gguf") {
    if (w.gguf != nullptr) gguf_rope_expectations(*w.gguf, out.rope, out.findings);
    return !out.rope.empty();
  }
  for (std::size_t i = 0; i < out.rope.size(); ++i) {
    const auto& t = out.rope[i];
    // Identical buffers in every layer (convert_llama_weights_to_hf writes one per layer): one finding.
    std::size_t same = 1;
    while (i + same < out.rope.size() && out.rope[i + same].stored == t.stored && out.rope[i + same].expected == t.expected)
      ++same;
    const std::string more = same > 1 ? fmt::format(" (and {} more tensors with the same values)", same - 1) : "";
    i += same - 1;
    if (t.max_rel_diff && *t.max_rel_diff > t.tolerance) {
      out.findings.push_back(fmt::format(
          "{}{} differs from the inv_freq the config gives by up to {:.3g} (relative, pair {}: stored {}, config {}): "
          "the stored buffer was written for other RoPE settings; transformers recomputes inv_freq from the config "
          "(a non-persistent buffer), code that loads the buffer uses the stored one",
          t.tensor, more, *t.max_rel_diff, t.worst_pair, t.stored[static_cast<std::size_t>(t.worst_pair)],
          t.expected[static_cast<std::size_t>(t.worst_pair)]));
    }
  }
  if (out.rope.size() > 1 && std::all_of(out.rope.begin(), out.rope.end(), [&](const RopeTensorWeights& t) {
        return t.max_rel_diff && out.rope.front().max_rel_diff && !(*t.max_rel_diff > t.tolerance);
      }))
    out.findings.push_back(fmt::format("{} stored inv_freq tensors agree with the config", out.rope.size()));
  return !out.rope.empty();
}

}  // namespace

void fill_row_norms(TableWeights& t) {
  t.row_norm.assign(static_cast<std::size_t>(t.rows), 0.0);
  for (std::int64_t i = 0; i < t.rows; ++i) {
    double s = 0;
    for (std::int64_t j = 0; j < t.width; ++j) {
      const double v = t.values[static_cast<std::size_t>(i * t.width + j)];
      s += v * v;
    }
    t.row_norm[static_cast<std::size_t>(i)] = std::sqrt(s);
  }
}

bool attach_mechanism_weights(const ModelReport& r, MechanismUse& m, const StoredWeights& w) {
  auto out = std::make_shared<MechanismWeights>();
  bool found = false;
  if (m.kind == Mechanism::kRope) {
    found = rope_rule(r, m, w, *out);
  } else if (m.kind == Mechanism::kT5) {
    const bool decoder = m.layer_type == "decoder";
    const std::string key = r.input == "gguf" ? (decoder ? "dec.blk.0.attn_rel_b.weight" : "enc.blk.0.attn_rel_b.weight")
                                              : fmt::format("{}.block.0.layer.0.SelfAttention.relative_attention_bias.weight",
                                                            decoder ? "decoder" : "encoder");
    if (const StoredTensor* st = w.find(key); st != nullptr) found = bias_rule(m, *st, *out);
  } else if (m.kind == Mechanism::kLearned || m.kind == Mechanism::kSinusoidal || m.kind == Mechanism::kLearnedGrid) {
    std::string key;
    if (const auto* weight = weight_value_of<std::string>(m, "weight"); weight != nullptr) key = *weight;
    if (key.empty() && m.kind == Mechanism::kSinusoidal && m.layer_type == "encoder")
      key = "model.encoder.embed_positions.weight";  // Whisper's encoder table, stored although fixed
    std::string ambiguous;
    const StoredTensor* st = key.empty() ? nullptr : w.find(key, &ambiguous);
    if (weight_value_of<std::vector<std::int64_t>>(m, "axial_pos_shape") != nullptr) {
      found = axial_table_rule(m, w, *out);  // Reformer: two factors build the table
    } else if (st != nullptr) {
      found = table_rule(r, m, *st, *out);
    }
    if (!ambiguous.empty())
      m.notes.push_back(fmt::format("weights: several tensors end with '{}': none read for this table", ambiguous));
  }
  if (!found) return false;
  for (const auto& f : out->findings) m.notes.push_back("weights: " + f);
  m.weights = std::move(out);
  return true;
}

}  // namespace posenc::models::detail
