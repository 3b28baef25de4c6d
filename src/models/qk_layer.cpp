// One layer's rotary q/k rows (qk_weights.hpp), and the dispatch between the two file kinds.
#include <fmt/format.h>

#include "posenc/error.hpp"
#include "posenc/formats/gguf.hpp"
#include "posenc/models/qk_weights.hpp"
#include "qk_files.hpp"

namespace posenc::models {
namespace {

std::string qk_layer_name(const std::string& pattern, std::int64_t l) { return fmt::format(fmt::runtime(pattern), l); }

/// A 1-D gain as floats (Gemma: 1 + γ), empty when the tensor is absent or `pattern` is "".
std::vector<float> qk_read_gain(const QkFiles& f, const std::string& pattern, std::int64_t l, bool plus_one) {
  if (pattern.empty()) return {};
  const auto g = read_raw_matrix(f, qk_layer_name(pattern, l));
  if (!g) return {};
  std::vector<float> v(static_cast<std::size_t>(g->rows * g->cols));
  for (std::int64_t r = 0; r < g->rows; ++r) g->row(r, v.data() + r * g->cols);
  if (plus_one)
    for (auto& x : v) x += 1.0f;
  return v;
}

std::shared_ptr<const RawMatrix> need_tensor(const QkModel& m, const std::string& pattern, std::int64_t l) {
  const std::string name = qk_layer_name(pattern, l);
  auto t = read_raw_matrix(*m.files, name);
  if (!t)
    throw Error(fmt::format("'{}': tensor '{}' is absent (layer 0 has it; {} layers expected)", m.path, name, m.layers));
  return t;
}

[[noreturn]] void qk_bad_shape(const QkModel& m, const RawMatrix& t, const std::string& want) {
  throw Error(fmt::format("'{}': tensor '{}' is [{}, {}], expected {} from the model's head counts", m.path, t.name,
                          t.rows, t.cols, want));
}

/// MLA with q_lora_rank: the rope rows of q_b·diag(γ_qa)·q_a, head by head (R rows per head).
std::shared_ptr<const RawMatrix> mla_query(const QkModel& m, const RawMatrix& qb, const RawMatrix& qa,
                                           const std::vector<float>& gain, std::int64_t stride) {
  auto out = std::make_shared<RawMatrix>();
  out->name = qb.name + "·" + qa.name;
  out->dtype = "F32";
  out->rows = m.heads * m.rotary_dim;
  out->cols = qa.cols;
  out->values.assign(static_cast<std::size_t>(out->rows * out->cols), 0.0f);
  std::vector<float> a(static_cast<std::size_t>(qa.rows * qa.cols)), brow(static_cast<std::size_t>(qb.cols));
  for (std::int64_t r = 0; r < qa.rows; ++r) qa.row(r, a.data() + r * qa.cols);
  for (std::int64_t h = 0; h < m.heads; ++h)
    for (std::int64_t i = 0; i < m.rotary_dim; ++i) {
      qb.row(h * stride + stride - m.rotary_dim + i, brow.data());
      float* o = out->values.data() + (h * m.rotary_dim + i) * out->cols;
      for (std::int64_t k = 0; k < qa.rows; ++k) {
        const float w = brow[static_cast<std::size_t>(k)] * (gain.empty() ? 1.0f : gain[static_cast<std::size_t>(k)]);
        const float* ar = a.data() + k * qa.cols;
        for (std::int64_t c = 0; c < qa.cols; ++c) o[c] += w * ar[c];
      }
    }
  return out;
}

}  // namespace

QkModel open_qk_model(const std::string& path) {
  return formats::is_gguf_path(path) ? open_gguf_qk_model(path) : open_hf_qk_model(path);
}

QkLayer read_qk_layer(const QkModel& m, std::int64_t l) {
  const QkFiles& f = *m.files;
  QkLayer out;
  out.base = m.layer_base[static_cast<std::size_t>(l)];
  out.rope = out.base > 0;
  if (!out.rope) return out;
  const bool inter = m.layout == rope::RopeLayout::kInterleaved;
  const std::int64_t d = m.head_dim, rot = m.rotary_dim;
  for (QkRows* r : {&out.q, &out.k}) {
    r->rotary = rot;
    r->interleaved = inter;
  }
  out.q.heads = m.heads;
  out.k.heads = m.kv_heads;
  const auto input_gain = qk_read_gain(f, f.norm, l, f.gain_plus_one);
  if (f.mla) {
    auto q = need_tensor(m, f.q, l);
    if (q->rows % m.heads != 0 || q->rows / m.heads < rot) qk_bad_shape(m, *q, fmt::format("{} heads × (nope + {}) rows", m.heads, rot));
    const std::int64_t stride = q->rows / m.heads;
    if (f.mla_lora) {
      auto qa = need_tensor(m, f.q_a, l);
      if (q->cols != qa->rows) qk_bad_shape(m, *q, fmt::format("[{} heads × (nope + {}), {}]", m.heads, rot, qa->rows));
      out.q.m = mla_query(m, *q, *qa, qk_read_gain(f, f.q_a_norm, l, false), stride);
      out.q.head_stride = rot;
    } else {
      out.q.m = q;
      out.q.head_stride = stride;
      out.q.rope_offset = stride - rot;
    }
    auto k = need_tensor(m, f.k, l);
    if (k->rows != f.kv_lora_rank + rot) qk_bad_shape(m, *k, fmt::format("[{} + {}, hidden]", f.kv_lora_rank, rot));
    out.k.m = k;
    out.k.head_stride = k->rows;
    out.k.rope_offset = f.kv_lora_rank;
  } else if (f.kind == QkFiles::Kind::kSeparate) {
    out.q.m = need_tensor(m, f.q, l);
    out.k.m = need_tensor(m, f.k, l);
    if (out.q.m->rows != m.heads * d) qk_bad_shape(m, *out.q.m, fmt::format("{} heads × {} rows", m.heads, d));
    if (out.k.m->rows != m.kv_heads * d) qk_bad_shape(m, *out.k.m, fmt::format("{} kv heads × {} rows", m.kv_heads, d));
    out.q.head_stride = out.k.head_stride = d;
    out.q.row_gain = qk_read_gain(f, f.q_norm, l, f.gain_plus_one);
    out.k.row_gain = qk_read_gain(f, f.k_norm, l, f.gain_plus_one);
  } else {
    auto qkv = need_tensor(m, f.q, l);
    out.q.m = out.k.m = qkv;
    if (f.kind == QkFiles::Kind::kFusedBlocks) {
      if (qkv->rows != (m.heads + 2 * m.kv_heads) * d)
        qk_bad_shape(m, *qkv, fmt::format("({} + 2 × {}) heads × {} rows", m.heads, m.kv_heads, d));
      out.q.head_stride = out.k.head_stride = d;
      out.k.first_row = m.heads * d;
    } else {
      if (m.kv_heads != m.heads || qkv->rows != 3 * m.heads * d)
        qk_bad_shape(m, *qkv, fmt::format("{} heads × 3 × {} rows", m.heads, d));
      out.q.head_stride = out.k.head_stride = 3 * d;
      out.k.first_row = d;
    }
  }
  for (QkRows* r : {&out.q, &out.k}) {
    if (!input_gain.empty() && static_cast<std::int64_t>(input_gain.size()) == r->m->cols) r->col_gain = input_gain;
    if (r->m->cols != m.hidden && !(f.mla_lora && r == &out.q))
      qk_bad_shape(m, *r->m, fmt::format("{} columns (hidden size)", m.hidden));
  }
  if (out.q.m->cols != out.k.m->cols)
    throw Error(fmt::format("'{}': q and k of layer {} have different input widths ({} and {})", m.path, l,
                            out.q.m->cols, out.k.m->cols));
  return out;
}

}  // namespace posenc::models
