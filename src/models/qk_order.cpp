// The HF → GGUF q/k row-order check (qk_order.hpp).
#include "posenc/models/qk_order.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "posenc/error.hpp"
#include "posenc/models/llama_arch.hpp"
#include "posenc/models/qk_kernels.hpp"
#include "posenc/models/qk_weights.hpp"
#include "posenc/parallel.hpp"
#include "qk_files.hpp"

namespace posenc::models {
namespace {

using QkPerm = std::vector<std::int64_t>;  // perm[g] = HF row held by GGUF row g

/// GGUF row g = h·hd + 2i + j (2i + j < rr) holds HF row h·hd + j·rr/2 + i (llama.cpp's permute,
/// restricted to the first rr rows of each of n heads); `inverse` swaps the two sides.
QkPerm llama_perm(std::int64_t rows, std::int64_t n, std::int64_t rr, bool inverse) {
  QkPerm p(static_cast<std::size_t>(rows));
  const std::int64_t hd = rows / n;
  for (std::int64_t g = 0; g < rows; ++g) {
    const std::int64_t h = g / hd, w = g % hd;
    std::int64_t r = w;
    if (w < rr) r = inverse ? (w % (rr / 2)) * 2 + w / (rr / 2) : (w % 2) * (rr / 2) + w / 2;
    p[static_cast<std::size_t>(g)] = h * hd + r;
  }
  return p;
}

struct QkHypothesis {
  std::string name;
  QkPerm perm;
};

/// The distinct hypotheses for a tensor of `heads` heads (q: H, k: H_kv), expected map first.
std::vector<QkHypothesis> qk_hypotheses(std::int64_t heads, std::int64_t H, std::int64_t d, std::int64_t rot, bool is_k,
                                   const std::string& expected) {
  const std::int64_t rows = heads * d;
  std::vector<QkHypothesis> all;
  QkPerm id(static_cast<std::size_t>(rows));
  for (std::int64_t g = 0; g < rows; ++g) id[static_cast<std::size_t>(g)] = g;
  all.push_back({"identity", id});
  all.push_back({"llama", llama_perm(rows, heads, rot, false)});
  if (rot < d) all.push_back({"llama_whole_head", llama_perm(rows, heads, d, false)});
  if (is_k && heads != H) {
    if (rows % (2 * H) == 0) all.push_back({"llama_mha_for_k", llama_perm(rows, H, rows / H, false)});
    const std::int64_t groups = H / heads;
    if (groups > 0 && rows % (2 * groups) == 0) all.push_back({"llama_groups_for_k", llama_perm(rows, groups, rows / groups, false)});
  }
  all.push_back({"llama_inverse", llama_perm(rows, heads, rot, true)});
  std::stable_partition(all.begin(), all.end(), [&](const QkHypothesis& h) { return h.name == expected; });
  std::vector<QkHypothesis> out;
  for (auto& h : all)
    if (std::none_of(out.begin(), out.end(), [&](const QkHypothesis& o) { return o.perm == h.perm; })) out.push_back(std::move(h));
  return out;
}

/// cos and relative error ‖g − h‖/‖h‖ of one pair of vectors from their sums (the difference
/// summed directly: gg + hh − 2gh would cancel to noise for a close quantisation).
std::pair<double, double> qk_compare(const QkDots& d) {
  if (d.hh <= 0) return {d.gg <= 0 ? 1.0 : 0.0, d.gg <= 0 ? 0.0 : INFINITY};
  const double c = d.gg > 0 ? d.gh / std::sqrt(d.gg * d.hh) : 0.0;
  return {c, std::sqrt(d.dd / d.hh)};
}

struct QkScoreWork {
  std::vector<float> g, h;
  std::size_t close = 0;  // the map close to the last row (its ‖g − h‖² summed in the same pass)
  std::vector<double> hh;           // Σ h² of HF row r, where hh_known[r]
  std::vector<unsigned char> hh_known;
  std::vector<double> cos, rel;  // per row of the block × hypothesis
};

/// Per row (weights) or element (biases) and hypothesis: `good` (cosine of the rows, or 1 − the
/// element's relative difference) and the squared error and squared reference norm, so that any
/// subset of rows can be scored afterwards (decide_map).
struct QkScored {
  std::vector<QkMapScore> scores;           ///< over every row
  std::vector<std::vector<double>> cos;     ///< [hypothesis][row] (weights)
  std::vector<std::vector<double>> err, ref;  ///< [hypothesis][element] (biases)
};

/// Scores every hypothesis on two matrices of the same shape, in blocks of `block` rows (a head:
/// the maps stay inside it, so each HF row's Σ h² is summed once).
QkScored qk_score_rows(const RawMatrix& gguf, const RawMatrix& hf, const std::vector<QkHypothesis>& hs,
                       std::size_t block) {
  const auto cols = static_cast<std::size_t>(hf.cols);
  const std::size_t nh = hs.size();
  const auto rows = static_cast<std::size_t>(gguf.rows);
  QkScored out;
  out.cos.assign(nh, std::vector<double>(rows, 0.0));
  std::vector<double> max_rel(nh, 0.0);
  constexpr int kGgmlQ8_0 = 8;
  const bool q8_0 = gguf.ggml_type == kGgmlQ8_0 && !gguf.big_endian && gguf.values.empty() && cols % 32 == 0 &&
                    gguf.row_bytes == cols / 32 * 34;
  pipeline<QkScoreWork>(
      rows, block,
      [&](std::size_t first, std::size_t n, QkScoreWork& w) {
        w.g.resize(cols);
        w.h.resize(3 * cols);
        if (w.hh_known.empty()) {  // a fresh buffer (buffers live for one tensor)
          w.hh_known.assign(static_cast<std::size_t>(hf.rows), 0);
          w.hh.assign(static_cast<std::size_t>(hf.rows), 0.0);
        }
        w.cos.assign(n * nh, 0.0);
        w.rel.assign(n * nh, 0.0);
        for (std::size_t g = first; g < first + n; ++g) {
          // the GGUF row decoded once (dequantised; Q8_0 in registers where the kernel can), each HF
          // row read in place where it is BF16/F32; Σ g·h, Σ g², Σ h² in one pass per three maps
          const float* gv = nullptr;
          const auto decoded = [&] {
            if (gv) return gv;
            if (const QkRowPtr p = gguf.stored(static_cast<std::int64_t>(g)); p.p && !p.bf16) {
              gv = static_cast<const float*>(p.p);
            } else {
              gguf.row(static_cast<std::int64_t>(g), w.g.data());
              gv = w.g.data();
            }
            return gv;
          };
          const char* q8 = q8_0 ? gguf.bytes.data() + g * gguf.row_bytes : nullptr;
          for (std::size_t k0 = 0; k0 < nh; k0 += 3) {  // three maps per pass over the GGUF row
            const std::size_t m = std::min<std::size_t>(3, nh - k0);
            QkRowPtr h[3];
            for (std::size_t j = 0; j < m; ++j) {
              h[j] = hf.stored(hs[k0 + j].perm[g]);
              if (!h[j].p) {
                hf.row(hs[k0 + j].perm[g], w.h.data() + j * cols);
                h[j] = {w.h.data() + j * cols, false};
              }
            }
            // ‖g − h‖² from the sums cancels where the rows are close (a right map): summed
            // directly there (error ≤ 20·2⁻²⁴ of it), in the same pass for the map that was close
            // on the previous row, from the sums elsewhere (≤ 1e-5 of it)
            const int guess = w.close >= k0 && w.close < k0 + m ? static_cast<int>(w.close - k0) : -1;
            QkMultiDots md;
            if (q8 && qk_multi_dots_q8_0(q8, h, m, cols, guess, md, false)) {
              // Σ h² once per HF row and buffer (each row serves one GGUF row per map)
              for (std::size_t j = 0; j < m; ++j) {
                const auto r = static_cast<std::size_t>(hs[k0 + j].perm[g]);
                if (!w.hh_known[r]) w.hh[r] = qk_sumsq(h[j], cols), w.hh_known[r] = 1;
                md.hh[j] = w.hh[r];
              }
            } else {
              md = qk_multi_dots(decoded(), h, m, cols, guess);
            }
            for (std::size_t j = 0; j < m; ++j) {
              QkDots d{md.gh[j], md.gg, md.hh[j], 0.0};
              if (d.gh > 0.5 * std::sqrt(d.gg * d.hh)) {
                d.dd = static_cast<int>(j) == guess ? md.dd : qk_dots(decoded(), h[j], cols).dd;
                w.close = k0 + j;
              } else {
                d.dd = std::max(0.0, d.gg + d.hh - 2 * d.gh);
              }
              const auto [c, e] = qk_compare(d);
              w.cos[(g - first) * nh + k0 + j] = c;
              w.rel[(g - first) * nh + k0 + j] = e;
            }
          }
        }
      },
      [&](std::size_t first, std::size_t n, QkScoreWork& w) {
        for (std::size_t g = first; g < first + n; ++g)
          for (std::size_t k = 0; k < nh; ++k) {
            out.cos[k][g] = w.cos[(g - first) * nh + k];
            max_rel[k] = std::max(max_rel[k], w.rel[(g - first) * nh + k]);
          }
      });
  for (std::size_t k = 0; k < nh; ++k) {
    double sum = 0;
    for (const double c : out.cos[k]) sum += c;
    out.scores.push_back({hs[k].name, sum / static_cast<double>(rows), max_rel[k]});
  }
  return out;
}

/// Biases: element by element under each map; mean_cos is the cosine of the whole vectors,
/// max_rel_err the relative error of the whole vector.
QkScored qk_score_bias(const RawMatrix& gguf, const RawMatrix& hf, const std::vector<QkHypothesis>& hs) {
  const auto n = static_cast<std::size_t>(hf.cols);
  std::vector<float> g(n), h(n), p(n);
  gguf.row(0, g.data());
  hf.row(0, h.data());
  QkScored out;
  for (const auto& hyp : hs) {
    std::vector<double> err(n), ref(n);
    for (std::size_t i = 0; i < n; ++i) {
      p[i] = h[static_cast<std::size_t>(hyp.perm[i])];
      err[i] = (static_cast<double>(g[i]) - p[i]) * (static_cast<double>(g[i]) - p[i]);
      ref[i] = static_cast<double>(p[i]) * p[i];
    }
    const auto [c, e] =
        qk_compare(qk_dots(g.data(), {p.data(), false}, n));
    out.scores.push_back({hyp.name, c, e});
    out.err.push_back(std::move(err));
    out.ref.push_back(std::move(ref));
  }
  return out;
}

/// weights.md §3.4's rule, applied where the maps differ: the best map (highest mean cosine;
/// biases: smallest error) is found when, on the rows where it and another map disagree, its
/// mean cosine is ≥ 0.9 and the other's ≤ 0.5 (biases: relative error ≤ 0.1 against ≥ 0.5),
/// for every other map, and its own mean cosine over all rows is ≥ 0.9 (biases: error ≤ 0.1).
/// Maps that agree on most rows (the partial and the whole-head permute, the identity on the
/// rows that do not rotate) are told apart by the rows where they differ.
void decide_map(QkOrderTensor& t, const QkScored& s, const std::vector<QkHypothesis>& hs, bool bias,
                const std::string& expected) {
  std::size_t best = 0;
  for (std::size_t k = 1; k < s.scores.size(); ++k) {
    const bool better = bias ? s.scores[k].max_rel_err < s.scores[best].max_rel_err
                             : s.scores[k].mean_cos > s.scores[best].mean_cos;
    if (better) best = k;
  }
  bool clear = bias ? s.scores[best].max_rel_err <= 0.1 : s.scores[best].mean_cos >= 0.9;
  for (std::size_t k = 0; k < hs.size() && clear; ++k) {
    if (k == best) continue;
    double a = 0, b = 0, ea = 0, ra = 0, eb = 0, rb = 0, n = 0;
    for (std::size_t g = 0; g < hs[k].perm.size(); ++g) {
      if (hs[k].perm[g] == hs[best].perm[g]) continue;
      n += 1;
      if (bias) {
        ea += s.err[best][g], ra += s.ref[best][g], eb += s.err[k][g], rb += s.ref[k][g];
      } else {
        a += s.cos[best][g], b += s.cos[k][g];
      }
    }
    if (n == 0) continue;
    clear = bias ? std::sqrt(ea / std::max(ra, 1e-300)) <= 0.1 && std::sqrt(eb / std::max(rb, 1e-300)) >= 0.5
                 : a / n >= 0.9 && b / n <= 0.5;
  }
  t.found_map = clear ? s.scores[best].map : "undetermined";
  t.ok = t.found_map == expected;
  t.scores = s.scores;
  std::stable_sort(t.scores.begin(), t.scores.end(), [&](const QkMapScore& x, const QkMapScore& y) {
    return bias ? x.max_rel_err < y.max_rel_err : x.mean_cos > y.mean_cos;
  });
}

}  // namespace

bool QkOrderReport::ok() const {
  if (!findings.empty()) return false;
  return std::all_of(checks.begin(), checks.end(), [](const auto& c) { return c.second; });
}

std::string qk_order_bug(const std::string& found, const std::string& expected) {
  if (found == "identity" && expected == "llama")
    return "the q/k permute was not applied (rows in Hugging Face's half order where llama.cpp's NORM rope needs "
           "adjacent pairs: the vllm-metal#480 class, gibberish output)";
  if (found == "llama_mha_for_k")
    return "k of a GQA model permuted with the q head count (llama.cpp#2376, Llama 2 70B)";
  if (found == "llama_groups_for_k")
    return "k permuted with n_head // n_head_kv heads (convert.py before llama.cpp PR #3364, TinyLlama)";
  if (found == "llama_whole_head")
    return "the whole head permuted although only the first rotary_dim rows rotate (partial rotary)";
  if (found == "llama" && expected == "identity")
    return "rows permuted for a NORM rope although the architecture's rope pairs rows as transformers does";
  if (found == "undetermined")
    return "no row map of weights.md §3.4 explains the rows (not the same weights, or another reordering)";
  return "the rows are in another order than llama.cpp's rope type for the architecture needs";
}

QkOrderReport check_qk_order(const std::string& hf_path, const std::string& gguf_path) {
  const QkModel hf = open_qk_model(hf_path);
  const QkModel gg = open_qk_model(gguf_path);
  if (!gg.gguf) throw Error(fmt::format("--config-b '{}' is not a GGUF file (rope diff --weights compares a model folder "
                                        "with the GGUF converted from it)", gguf_path));
  if (hf.gguf) throw Error(fmt::format("--config-a '{}' is a GGUF: give the Hugging Face folder (config.json and "
                                       "safetensors) the GGUF was converted from", hf_path));
  const QkFiles& hf_files = *hf.files;
  const QkFiles& gg_files = *gg.files;
  if (hf_files.mla || gg_files.mla || hf_files.kind != QkFiles::Kind::kSeparate || gg_files.kind != QkFiles::Kind::kSeparate)
    throw Error(fmt::format("'{}': the order check compares q_proj/k_proj with attn_q/attn_k; this model uses {} (fused "
                            "QKV and MLA are not compared)",
                            hf_path, hf.qk_source));
  if (hf.layers != gg.layers || hf.heads != gg.heads || hf.kv_heads != gg.kv_heads)
    throw Error(fmt::format("the two sides differ: {} has {} layers, {} heads, {} kv heads; {} has {}, {}, {}", hf_path,
                            hf.layers, hf.heads, hf.kv_heads, gguf_path, gg.layers, gg.heads, gg.kv_heads));
  QkOrderReport r;
  r.hf_path = hf_path;
  r.gguf_path = gguf_path;
  r.arch = gg.model_type;
  r.rope_type = gg.layout_source;
  r.hf_layout = std::string(rope::to_string(hf.layout));
  r.hf_layout_source = hf.layout_source;
  r.layers = hf.layers;
  r.heads = hf.heads;
  r.kv_heads = hf.kv_heads;
  r.head_dim = hf.head_dim;
  r.rotary_dim = gg.rotary_dim;
  r.expected_map = hf.layout == gg.layout ? "identity"
                   : hf.layout == rope::RopeLayout::kHalf ? "llama"
                                                          : "llama_inverse";
  if (r.rotary_dim != hf.rotary_dim)
    r.notes.push_back(fmt::format("rotary width: {} rope.dimension_count {} (used), the config's {}", gg.model_type,
                                  r.rotary_dim, hf.rotary_dim));
  const std::int64_t d = hf.head_dim;
  const auto hq = qk_hypotheses(hf.heads, hf.heads, d, r.rotary_dim, false, r.expected_map);
  const auto hk = qk_hypotheses(hf.kv_heads, hf.heads, d, r.rotary_dim, true, r.expected_map);
  for (std::int64_t l = 0; l < hf.layers; ++l) {
    for (int which = 0; which < 2; ++which) {
      const bool is_k = which == 1;
      const auto& hs = is_k ? hk : hq;
      for (int bias = 0; bias < 2; ++bias) {
        auto name = [&](const std::string& pattern) {
          std::string n = fmt::format(fmt::runtime(pattern), l);
          if (bias) n.replace(n.size() - 6, 6, "bias");
          return n;
        };
        const std::string hn = name(is_k ? hf_files.k : hf_files.q), gn = name(is_k ? gg_files.k : gg_files.q);
        const auto gm = read_raw_matrix(gg_files, gn);
        const auto hm = read_raw_matrix(hf_files, hn);
        if (!gm || !hm) {
          if (!bias) throw Error(fmt::format("tensor '{}' is absent", gm ? hn : gn));
          if (gm || hm) r.notes.push_back(fmt::format("layer {}: '{}' has no counterpart", l, gm ? gn : hn));
          continue;
        }
        if (gm->rows != hm->rows || gm->cols != hm->cols)
          throw Error(fmt::format("'{}' is [{}, {}] but '{}' is [{}, {}]: shapes differ", gn, gm->rows, gm->cols, hn,
                                  hm->rows, hm->cols));
        QkOrderTensor t;
        t.layer = l;
        t.tensor = std::string(is_k ? "k" : "q") + (bias ? "_bias" : "");
        t.hf_name = hn;
        t.gguf_name = gn;
        t.gguf_dtype = gm->dtype;
        const QkScored scored = bias ? qk_score_bias(*gm, *hm, hs) : qk_score_rows(*gm, *hm, hs, static_cast<std::size_t>(d));
        decide_map(t, scored, hs, bias != 0, r.expected_map);
        if (!t.ok) r.findings.push_back({l, t.tensor, t.found_map, r.expected_map, qk_order_bug(t.found_map, r.expected_map)});
        r.tensors.push_back(std::move(t));
      }
    }
  }
  return r;
}

}  // namespace posenc::models
