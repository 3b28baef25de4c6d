#include "posenc/encodings/nope.hpp"

#include <fmt/format.h>

#include <cmath>

#include "posenc/encodings/schemes.hpp"
#include "posenc/error.hpp"

namespace posenc::encodings {

double nope_temperature(std::int64_t t, double attn_scale, double floor_scale, bool f32) {
  if (!f32) return 1.0 + attn_scale * std::log1p(std::floor((static_cast<double>(t) + 1.0) / floor_scale));
  const float p = static_cast<float>(t);
  const float q = std::floor((p + 1.0f) / static_cast<float>(floor_scale));
  return static_cast<double>(std::log1p(q) * static_cast<float>(attn_scale) + 1.0f);
}

bool is_nope_layer(std::int64_t layer, std::int64_t interval) { return (layer + 1) % interval == 0; }

SchemeInfo nope_scheme() {
  return {"nope",
          "no positional encoding (NoPE); Llama 4's NoPE layers and their query temperature "
          "1 + attn_scale*ln(floor((t+1)/floor_scale) + 1)",
          "query: q_t = s(t)·q (s = 1 without --temperature), the same vector at every position; "
          "temperature: s(t); layers: 1 where (layer+1) % interval == 0",
          {len_param(),
           dim_param(64),
           {"table", "query (the all-ones query as the layer sees it at t), temperature (s(t)) or layers (1 = NoPE "
                     "layer, 0 = RoPE layer)",
            std::string("query"), {"query", "temperature", "layers"}},
           {"temperature", "apply Llama 4's attn_temperature_tuning to the query", false, {}},
           {"attn-scale", "attn_scale of the temperature (Llama 4: 0.1)", 0.1, {}, 0.0, 1e6},
           {"floor-scale", "floor_scale of the temperature (Llama 4: 8192)", 8192.0, {}, 1.0, 1e18},
           {"start", "absolute position of row 0 (the cache length before these tokens)", std::int64_t{0}, {}, 0,
            static_cast<double>(kMaxLen)},
           {"layers", "layers of the layer map (Llama 4 Scout: 48)", std::int64_t{48}, {}, 1, 1 << 20},
           {"interval", "nope_layer_interval: every interval-th layer is NoPE (Llama 4: 4)", std::int64_t{4}, {}, 1,
            1 << 20},
           {"precision", "f32 as transformers' float32 tensors (positions rounded to float32), f64 in double",
            std::string("f32"), {"f32", "f64"}}},
          [](const ParamMap& p) -> std::unique_ptr<Table> {
            const std::string table = p.text("table");
            const bool f32 = p.text("precision") == "f32";
            const double scale = p.number("attn-scale"), floor_scale = p.number("floor-scale");
            const std::int64_t start = p.integer("start");
            if (start + p.integer("len") - 1 > kMaxLen)
              throw Error(fmt::format("--start {} + --len {} goes past position {}", start, p.integer("len"), kMaxLen));
            const bool temp = p.flag("temperature") || table == "temperature";
            if (table == "layers") {
              const auto layers = static_cast<std::size_t>(p.integer("layers"));
              const std::int64_t interval = p.integer("interval");
              TableInfo info = make_info("nope", p, {layers, 1}, {"layer", "nope"});
              info.column_names = {"nope"};
              info.value_name = "NoPE layer";
              std::int64_t count = 0;
              for (std::int64_t l = 0; l < p.integer("layers"); ++l) count += is_nope_layer(l, interval) ? 1 : 0;
              info.results = {{"nope_layers", count}};
              info.title = fmt::format("NoPE layers: every {}th of {} ({} of them)", interval, layers, count);
              return std::make_unique<RowFunctionTable>(std::move(info), [interval](std::size_t l, std::span<double> out) {
                out[0] = is_nope_layer(static_cast<std::int64_t>(l), interval) ? 1.0 : 0.0;
              });
            }
            const auto len = static_cast<std::size_t>(p.integer("len"));
            const bool query = table == "query";
            TableInfo info = make_info("nope", p, {len, query ? static_cast<std::size_t>(p.integer("dim")) : 1});
            info.first_position = static_cast<std::size_t>(start);
            if (!query) info.column_names = {"temperature"};
            info.value_name = query ? "query" : "temperature";
            info.title = !query ? fmt::format("Llama 4 NoPE query temperature (attn_scale {}, floor_scale {})", scale,
                                              floor_scale)
                         : temp ? fmt::format("NoPE query with Llama 4's temperature (attn_scale {}, floor_scale {})",
                                              scale, floor_scale)
                                : std::string("NoPE query: the same at every position");
            return std::make_unique<RowFunctionTable>(
                std::move(info), [=](std::size_t r, std::span<double> out) {
                  const double s = temp ? nope_temperature(start + static_cast<std::int64_t>(r), scale, floor_scale, f32) : 1.0;
                  for (double& v : out) v = s;
                });
          }};
}

}  // namespace posenc::encodings
