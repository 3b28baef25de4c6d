// The `rope` entry of the scheme registry: angle, cos or sin tables, one row per position.
#include "posenc/encodings/schemes.hpp"

#include <fmt/format.h>

#include "posenc/encodings/rope_apply.hpp"
#include "posenc/encodings/rope_config.hpp"

namespace posenc::encodings {
namespace {

RopeTableKind table_kind(const std::string& s) {
  if (s == "angle") return RopeTableKind::kAngle;
  if (s == "sin") return RopeTableKind::kSin;
  return RopeTableKind::kCos;
}

/// The parameters echoed in output: the values actually used, not just the flags.
ParamMap resolved_params(const ParamMap& p, const RopeConfig& c) {
  ParamMap e = p;
  const auto keep = [&](const std::string& name, ParamValue v) { e.set(name, std::move(v), p.given(name)); };
  keep("dim", c.head_dim);
  keep("base", c.base);
  keep("layout", std::string(to_string(c.layout)));
  keep("rotary-dim", c.rotary_dim);
  keep("partial-rotary-factor", c.partial_rotary_factor);
  keep("scaling", std::string(to_string(c.scaling)));
  keep("factor", c.factor.value_or(0.0));
  keep("original-max-position-embeddings", c.original_max_position_embeddings);
  keep("max-position-embeddings", c.max_position_embeddings);
  if (c.beta_fast) keep("beta-fast", *c.beta_fast);
  if (c.beta_slow) keep("beta-slow", *c.beta_slow);
  keep("mscale", c.mscale.value_or(0.0));
  keep("mscale-all-dim", c.mscale_all_dim.value_or(0.0));
  keep("attention-factor", c.attention_factor.value_or(0.0));
  keep("truncate", c.truncate.value_or(true));
  keep("low-freq-factor", c.low_freq_factor);
  keep("high-freq-factor", c.high_freq_factor);
  keep("short-factor", c.short_factor);
  keep("long-factor", c.long_factor);
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
            const RopeConfig c = resolve_rope_config(p);
            const RopeFrequencies f = compute_frequencies(c);
            const auto kind = table_kind(p.text("table"));
            const auto len = static_cast<std::size_t>(p.integer("len"));
            TableInfo info = make_info("rope", resolved_params(p, c), {len, static_cast<std::size_t>(c.head_dim)});
            info.value_name = p.text("table");
            info.results = {{"rope_type", std::string(to_string(c.scaling))},
                            {"rotary_dim", c.rotary_dim},
                            {"attention_factor", f.attention_factor},
                            {"inv_freq", f.inv_freq},
                            {"inv_freq_original", f.inv_freq_original}};
            info.title = fmt::format("RoPE {} ({} layout, d={}, base={}, {}{})", p.text("table"), to_string(c.layout),
                                     c.rotary_dim, c.base, to_string(c.scaling),
                                     f.factor != 1.0 ? fmt::format(" ×{}", f.factor) : std::string());
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

}  // namespace posenc::encodings
