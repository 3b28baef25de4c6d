// The `rope` entry of the scheme registry: angle, cos or sin tables, one row per position.
#include "rope_scheme.hpp"

#include <fmt/format.h>

#include <optional>

#include "posenc/rope/rope_apply.hpp"
#include "posenc/models/rope_settings.hpp"
#include "posenc/rope/rope_config.hpp"
#include "../rope/rope_internal.hpp"

namespace posenc::schemes {
namespace {

using namespace rope;  // the rope entry speaks RopeConfig throughout
using encodings::SchemeInfo;


/// Row t of the rotated table: R_t·ones, the all-ones query rotated as rope_rotate does it,
/// (cos − sin, sin + cos) on each pair (a, b) and 1 on pass-through dims, from the cos and sin rows
/// (attention factor included): dot products of two rows are the q = k = ones scores.
void rotated_rope_row(const RopeConfig& c, const RopeFrequencies& f, std::int64_t t, std::span<double> out) {
  thread_local std::vector<double> sin_row;
  sin_row.resize(out.size());
  rope_table_row(c, f, RopeTableKind::kCos, t, out);
  rope_table_row(c, f, RopeTableKind::kSin, t, sin_row);
  const std::size_t pairs = f.pairs();
  const bool inter = c.layout == RopeLayout::kInterleaved;
  const bool f32 = c.precision == RopePrecision::kF32;
  for (std::size_t i = 0; i < pairs; ++i) {
    const std::size_t a = inter ? 2 * i : i, b = inter ? 2 * i + 1 : i + pairs;
    const double ca = out[a], sa = sin_row[a], cb = out[b], sb = sin_row[b];
    out[a] = f32 ? static_cast<float>(static_cast<float>(ca) - static_cast<float>(sa)) : ca - sa;
    out[b] = f32 ? static_cast<float>(static_cast<float>(sb) + static_cast<float>(cb)) : sb + cb;
  }
}

RopeTableKind table_kind(const std::string& s) {
  if (s == "angle") return RopeTableKind::kAngle;
  if (s == "sin") return RopeTableKind::kSin;
  return RopeTableKind::kCos;
}

/// The parameters echoed in output (JSON "params"): the settings in effect, each as the flag
/// that gives it back, so that `generate rope` with exactly these flags (and no --hf-config)
/// makes the same table. Left out: settings not set (no --factor, no --mscale, ...), settings
/// the method does not read (--beta-fast under linear) and --hf-config itself (what it set is
/// echoed). The rotary width is echoed once: as --partial-rotary-factor when that fraction
/// made it (Phi-2's 0.4; p-RoPE's p as --proportion), else as --rotary-dim. The provenance block lists every
/// setting with its source.
std::vector<std::pair<std::string, ParamValue>> echoed_params(const ParamMap& p, const RopeConfig& c) {
  std::vector<std::pair<std::string, ParamValue>> e;
  const auto put = [&](const char* name, ParamValue v) { e.emplace_back(name, std::move(v)); };
  const auto put_if_read = [&](const char* name, const auto& v) {
    if (v && rope::detail::method_reads(c.scaling, name)) put(name, *v);
  };
  put("len", p.integer("len"));
  put("dim", c.head_dim);
  put("base", c.base);
  put("layout", std::string(to_string(c.layout)));
  put("table", p.text("table"));
  const bool by_fraction =
      c.scaling == RopeScaling::kProportional
          ? c.partial_rotary_factor != 1.0
          : c.partial_rotary_factor != 1.0 &&
                c.rotary_dim == static_cast<std::int64_t>(static_cast<double>(c.head_dim) * c.partial_rotary_factor);
  if (by_fraction) {  // p-RoPE's p as --proportion (it may be 0, which --partial-rotary-factor is not elsewhere)
    put(c.scaling == RopeScaling::kProportional ? "proportion" : "partial-rotary-factor", c.partial_rotary_factor);
  } else {
    put("rotary-dim", c.rotary_dim);
  }
  put("scaling", std::string(to_string(c.scaling)));
  put_if_read("factor", c.factor);
  const auto positive = [](std::int64_t v) { return v > 0 ? std::optional<std::int64_t>(v) : std::nullopt; };
  put_if_read("original-max-position-embeddings", positive(c.original_max_position_embeddings));
  put_if_read("max-position-embeddings", positive(c.max_position_embeddings));
  put_if_read("seq-len", positive(c.seq_len));
  put_if_read("max-model-len", positive(c.max_model_len));
  put_if_read("beta-fast", c.beta_fast);
  put_if_read("beta-slow", c.beta_slow);
  put_if_read("mscale", c.mscale);
  put_if_read("mscale-all-dim", c.mscale_all_dim);
  put_if_read("attention-factor", c.attention_factor);
  put_if_read("truncate", c.truncate);
  if (c.scaling == RopeScaling::kLlama3) {
    put("low-freq-factor", c.low_freq_factor);
    put("high-freq-factor", c.high_freq_factor);
  }
  if (c.scaling == RopeScaling::kLongrope) {
    put("short-factor", c.short_factor);
    put("long-factor", c.long_factor);
  }
  put("convention", std::string(to_string(c.convention)));
  put("precision", std::string(to_string(c.precision)));
  put("apply-attention-factor", c.apply_attention_factor);
  return e;
}

}  // namespace

SchemeInfo rope_scheme() {
  return {"rope",
          "rotary position embedding (RoFormer) with context-extension methods, as transformers, Meta or ggml "
          "compute it",
          "angle[t, pair i] = t·θ_i, θ_i = base^(-2i/d); cos/sin × attention factor",
          rope_param_specs(),
          [](const ParamMap& p) -> std::unique_ptr<Table> {
            RopeConfig c = models::resolve_rope_config(p);
            const RopeFrequencies f = compute_frequencies(c);
            // transformers' rotary module of some models returns cat(freqs, freqs) and re-pairs q/k
            // instead (DeepSeek-V3 permutes them, GLM repeat_interleaves cos/sin): under hf the
            // table is that tensor, and says so.
            std::string tensor_note;
            if (c.convention == RopeConvention::kHf && c.hf_table_layout && !p.given("layout") &&
                *c.hf_table_layout != c.layout) {
              tensor_note = fmt::format("transformers' rotary module output: {} layout (the model rotates {} pairs "
                                        "by re-pairing q/k, {})",
                                        to_string(*c.hf_table_layout), to_string(c.layout), c.model_type);
              c.layout = *c.hf_table_layout;
            }
            const auto kind = table_kind(p.text("table"));
            const auto len = static_cast<std::size_t>(p.integer("len"));
            TableInfo info = encodings::make_info("rope", ParamMap(), {len, static_cast<std::size_t>(c.head_dim)});
            info.params = echoed_params(p, c);
            info.value_name = p.text("table");
            info.results = {{"rope_type", std::string(to_string(c.scaling))},
                            {"rotary_dim", c.rotary_dim},
                            {"attention_factor", f.attention_factor},
                            {"inv_freq", f.inv_freq},
                            {"inv_freq_original", f.inv_freq_original}};
            if (!tensor_note.empty()) info.notes.push_back(tensor_note);
            info.title = fmt::format("RoPE {} ({} layout{}, d={}, base={}, {}{})", p.text("table"), to_string(c.layout),
                                     tensor_note.empty() ? "" : " as transformers' rotary module returns it",
                                     c.rotary_dim, c.base, to_string(c.scaling),
                                     f.factor != 1.0 ? fmt::format(" ×{}", f.factor) : std::string());
            if (p.text("table") == "rotated")
              return std::make_unique<RowFunctionTable>(std::move(info), [c, f](std::size_t t, std::span<double> out) {
                rotated_rope_row(c, f, static_cast<std::int64_t>(t), out);
              });
            return std::make_unique<RowFunctionTable>(
                std::move(info),
                [c, f, kind](std::size_t t, std::span<double> out) {
                  rope_table_row(c, f, kind, static_cast<std::int64_t>(t), out);
                },
                [c, f, kind](std::size_t t, std::span<float> out) {
                  rope_table_row_f32(c, f, kind, static_cast<std::int64_t>(t), out);
                });
          }};
}

}  // namespace posenc::schemes
