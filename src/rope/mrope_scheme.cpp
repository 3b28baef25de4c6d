// The `mrope` entry of the scheme registry: position ids, angles, cos, sin or the rotated
// all-ones query of every token of text + image/video + text, as Qwen2-VL, Qwen2.5-VL and
// Qwen3-VL build them in transformers.
#include "posenc/rope/schemes.hpp"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <memory>

#include "posenc/rope/mrope.hpp"
#include "posenc/error.hpp"

namespace posenc::rope {
namespace {

/// Three non-negative integers "a,b,c" of --name; throws Error otherwise.
std::array<std::int64_t, 3> parse_triple(const std::string& text, const char* name, std::int64_t lo, std::int64_t hi) {
  std::array<std::int64_t, 3> out{};
  std::size_t start = 0;
  for (std::size_t i = 0; i < 3; ++i) {
    const auto comma = text.find(',', start);
    const bool last = i == 2;
    if ((comma == std::string::npos) != last) break;
    const std::string item = text.substr(start, last ? std::string::npos : comma - start);
    std::int64_t v = 0;
    const auto [p, ec] = std::from_chars(item.data(), item.data() + item.size(), v);
    if (item.empty() || ec != std::errc() || p != item.data() + item.size() || v < lo || v > hi) break;
    out[i] = v;
    if (last) return out;
    start = comma + 1;
  }
  throw Error(fmt::format("--{} must be three integers in {}..{} separated by commas, as {} (got '{}')", name, lo, hi,
                          std::string(name) == "grid" ? "T,H,W: 1,16,16" : "t,h,w: 16,24,24", text));
}

struct Preset {
  const char* name;
  double base;
  const char* sections;
  const char* layout;
};
// Model configs: Qwen/Qwen2-VL-7B-Instruct and Qwen/Qwen2.5-VL-7B-Instruct config.json
// (rope_theta 1000000, rope_scaling.mrope_section [16, 24, 24]); Qwen/Qwen3-VL-8B-Instruct
// (text_config.rope_theta 5000000, mrope_section [24, 20, 20], mrope_interleaved true).
constexpr Preset kPresets[] = {
    {"qwen2-vl", 1e6, "16,24,24", "sectioned"},
    {"qwen2.5-vl", 1e6, "16,24,24", "sectioned"},
    {"qwen3-vl", 5e6, "24,20,20", "interleaved"},
};

}  // namespace

MropeOptions mrope_options(const ParamMap& p) {
  MropeOptions o;
  const std::string preset = p.text("preset");
  o.rule = parse_mrope_rule(preset);
  const Preset* pr = &kPresets[0];
  for (const auto& x : kPresets)
    if (preset == x.name) pr = &x;
  o.dim = p.integer("dim");
  // --hf-config sets base, sections and layout from the model: the preset's stand in otherwise.
  const auto set = [&](const char* name) { return p.given(name) || p.has("hf-config"); };
  o.base = set("base") ? p.number("base") : pr->base;
  o.sections = parse_triple(set("sections") ? p.text("sections") : pr->sections, "sections", 0, 1 << 20);
  o.mrope_layout = parse_mrope_layout(set("mrope-layout") ? p.text("mrope-layout") : pr->layout);
  o.layout = parse_rope_layout(p.text("layout"));
  // none: text only, t = h = w = the position (get_rope_index without image or video grids).
  o.grid = p.text("grid") == "none" ? std::array<std::int64_t, 3>{0, 0, 0} : parse_triple(p.text("grid"), "grid", 1, 1 << 20);
  o.merge = p.integer("merge");
  o.text_before = p.integer("text-before");
  o.text_after = p.integer("text-after");
  o.frame_text = p.integer("frame-text");
  o.len = p.integer("len");
  o.tokens_per_second = p.number("tokens-per-second");
  o.seconds_per_grid = p.number("seconds-per-grid");
  o.precision = parse_rope_precision(p.text("precision"));
  return o;
}

namespace {

std::string triple_text(const std::array<std::int64_t, 3>& v) { return fmt::format("{},{},{}", v[0], v[1], v[2]); }

/// --grid as given back: "none" for a text-only sequence.
std::string grid_text(const std::array<std::int64_t, 3>& g) { return g[0] == 0 ? std::string("none") : triple_text(g); }

/// The parameters in effect, each as the flag that gives it back.
std::vector<std::pair<std::string, ParamValue>> echoed(const ParamMap& p, const MropeOptions& o) {
  std::vector<std::pair<std::string, ParamValue>> e = {
      {"len", o.len},                        {"preset", p.text("preset")},          {"dim", o.dim},
      {"base", o.base},                      {"sections", triple_text(o.sections)},
      {"mrope-layout", to_string(o.mrope_layout)}, {"layout", std::string(to_string(o.layout))},
      {"grid", grid_text(o.grid)},         {"merge", o.merge},
      {"text-before", o.text_before},        {"text-after", o.text_after}};
  e.emplace_back("frame-text", o.frame_text);
  e.emplace_back("tokens-per-second", o.tokens_per_second);
  e.emplace_back("seconds-per-grid", o.seconds_per_grid);
  e.emplace_back("table", p.text("table"));
  e.emplace_back("precision", std::string(to_string(o.precision)));
  return e;
}

/// One row of the angle, cos, sin or rotated table from the pair angles.
void place(const std::string& table, const MropeOptions& o, std::span<const double> a, std::span<double> out) {
  const std::size_t pairs = a.size();
  const bool f32 = o.precision == RopePrecision::kF32;
  const bool half = o.layout == RopeLayout::kHalf;
  for (std::size_t j = 0; j < pairs; ++j) {
    double x = a[j], y = a[j];
    if (table != "angle") {
      double c = std::cos(a[j]), s = std::sin(a[j]);
      if (f32) c = static_cast<float>(c), s = static_cast<float>(s);
      if (table == "cos") {
        x = y = c;
      } else if (table == "sin") {
        x = y = s;
      } else {  // rotated all-ones query: (1·cos − 1·sin, 1·sin + 1·cos), rotate_half's signs
        x = f32 ? static_cast<float>(static_cast<float>(c) - static_cast<float>(s)) : c - s;
        y = f32 ? static_cast<float>(static_cast<float>(s) + static_cast<float>(c)) : s + c;
      }
    }
    out[half ? j : 2 * j] = x;
    out[half ? j + pairs : 2 * j + 1] = y;
  }
}

}  // namespace

encodings::SchemeInfo mrope_scheme() {
  return {"mrope",
          "multimodal RoPE (Qwen2-VL, Qwen2.5-VL sectioned; Qwen3-VL interleaved): three position streams t, h, w "
          "for text + image/video + text, as transformers' get_rope_index",
          "angle[n, pair j] = pos_{axis(j)}(n)·θ_j, θ_j = base^(-2j/d); sectioned: axis by --sections blocks; "
          "interleaved: h if j%3=1 and j<3s_h, w if j%3=2 and j<3s_w, else t; text: t=h=w",
          {{"len", "tokens shown (rows); 0 = text-before + vision + text-after; more continues with text, fewer "
                   "shows the first ones",
            std::int64_t{0}, {}, 0, static_cast<double>(encodings::kMaxLen)},
           {"preset", "model whose defaults and position rule apply: base, sections, mrope-layout (and how video "
                      "frames are numbered)",
            std::string("qwen2-vl"), {"qwen2-vl", "qwen2.5-vl", "qwen3-vl"}},
           encodings::dim_param(128),
           {"base", "rope_theta (default: the preset's, 1000000 for qwen2-vl and qwen2.5-vl, 5000000 for qwen3-vl)",
            1e6, {}, 1.0, 1e300},
           {"sections", "mrope_section t,h,w in pairs, sum d/2 (default: the preset's, 16,24,24 or 24,20,20)",
            std::string("16,24,24"), {}},
           {"mrope-layout", "sectioned (Qwen2-VL, Qwen2.5-VL) or interleaved (Qwen3-VL) (default: the preset's)",
            std::string("sectioned"), {"sectioned", "interleaved"}},
           {"layout", "columns of a pair: half (k, k+d/2; transformers' rotate_half) or interleaved (2k, 2k+1)",
            std::string("half"), {"half", "interleaved"}},
           {"grid", "image/video grid_thw T,H,W in patches before merging (T = temporal patches; 1 = an image); none: text "
                    "only (t = h = w = the position)",
            std::string("1,8,8"), {}},
           {"merge", "spatial_merge_size: H and W are divided by it", std::int64_t{2}, {}, 1, 64},
           {"text-before", "text tokens before the vision tokens (incl. <|vision_start|>)", std::int64_t{4}, {}, 0,
            static_cast<double>(encodings::kMaxLen)},
           {"text-after", "text tokens after the vision tokens (incl. <|vision_end|>)", std::int64_t{4}, {}, 0,
            static_cast<double>(encodings::kMaxLen)},
           {"frame-text", "qwen3-vl: text tokens between two video frames (<|vision_end|>, timestamp, <|vision_start|>)",
            std::int64_t{2}, {}, 0, 1 << 20},
           {"tokens-per-second", "qwen2.5-vl: vision_config.tokens_per_second", 2.0, {}, 0.0, 1e6},
           {"seconds-per-grid", "qwen2.5-vl: second_per_grid_t of the video (temporal_patch_size / fps)", 1.0, {}, 0.0,
            1e6},
           {"table", "positions (t,h,w ids), angle, cos, sin, or rotated (R_n·ones: its dot products are the scores "
                     "of q = k = ones)",
            std::string("cos"), {"positions", "angle", "cos", "sin", "rotated"}},
           {"precision", "f32 emulates transformers' float32 inv_freq, angles and cos/sin; f64 computes in double",
            std::string("f32"), {"f32", "f64"}}},
          [](const ParamMap& p) -> std::unique_ptr<Table> {
            const MropeOptions o = mrope_options(p);
            auto seq = std::make_shared<const MropeSequence>(o);
            const std::string table = p.text("table");
            const auto n = static_cast<std::size_t>(seq->rows());
            const bool positions = table == "positions";
            TableInfo info = encodings::make_info("mrope", ParamMap(), {n, positions ? std::size_t{3} : static_cast<std::size_t>(o.dim)},
                                       {"token", positions ? "axis" : "dim"});
            info.params = echoed(p, o);
            const auto axes = mrope_pair_axes(o);
            const auto inv = mrope_inv_freq(o);
            std::vector<std::int64_t> axes64(axes.begin(), axes.end());
            info.results = {{"tokens", seq->tokens()},
                            {"vision_tokens", seq->vision_tokens()},
                            {"first_vision_token", o.text_before},
                            {"rope_delta", seq->rope_delta()},
                            {"pair_axes", axes64},
                            {"inv_freq", inv}};
            info.value_name = positions ? "position id" : table;
            if (positions) info.column_names = {"t", "h", "w"};
            info.title = fmt::format("M-RoPE {} ({}, {} {}, grid {}, merge {}, d={})", table, p.text("preset"),
                                     to_string(o.mrope_layout), triple_text(o.sections), grid_text(o.grid), o.merge,
                                     o.dim);
            return std::make_unique<RowFunctionTable>(
                std::move(info), [seq, o, axes, inv, table, positions](std::size_t r, std::span<double> out) {
                  const auto ids = seq->ids(static_cast<std::int64_t>(r));
                  if (positions) {
                    for (std::size_t a = 0; a < 3; ++a) out[a] = static_cast<double>(ids[a]);
                    return;
                  }
                  thread_local std::vector<double> angle;
                  angle.resize(axes.size());
                  mrope_angles(o, inv, axes, ids, angle);
                  place(table, o, angle, out);
                });
          },
          {},
          // Analyses read the rotated all-ones query (dot products = attention scores) in double.
          {{"table", std::string("rotated")}, {"precision", std::string("f64")}}};
}

}  // namespace posenc::rope
