// The `axial-rope` entry of the scheme registry: 2-D / 3-D RoPE of image and video grids, one
// row per grid cell (row-major), as rotary-embedding-torch, timm (EVA-02) and FLUX build it.
#include "posenc/rope/schemes.hpp"

#include <fmt/format.h>

#include <charconv>
#include <cmath>

#include "posenc/rope/axial_rope.hpp"
#include "posenc/error.hpp"

namespace posenc::rope {
namespace {

/// "8x8", "8x8x4" (sep 'x') or "16,56,56" (sep ','): positive integers up to `hi`.
std::vector<std::int64_t> parse_list(const std::string& text, char sep, const char* name, std::int64_t lo,
                                     std::int64_t hi, const char* example) {
  std::vector<std::int64_t> out;
  std::size_t start = 0;
  while (true) {
    const auto end = text.find(sep, start);
    const std::string item = text.substr(start, end == std::string::npos ? std::string::npos : end - start);
    std::int64_t v = 0;
    const auto [p, ec] = std::from_chars(item.data(), item.data() + item.size(), v);
    if (item.empty() || ec != std::errc() || p != item.data() + item.size() || v < lo || v > hi || out.size() == 3)
      throw Error(fmt::format("--{} must be 1 to 3 integers in {}..{} separated by '{}', as {} (got '{}')", name, lo,
                              hi, sep, example, text));
    out.push_back(v);
    if (end == std::string::npos) return out;
    start = end + 1;
  }
}

std::string join(const std::vector<std::int64_t>& v, const char* sep) { return fmt::format("{}", fmt::join(v, sep)); }

}  // namespace

AxialRopeOptions axial_rope_options(const ParamMap& p) {
  AxialRopeOptions o;
  o.grid = parse_list(p.text("grid"), 'x', "grid", 1, 1 << 20, "8x8 or 8x8x4");
  o.dim = p.integer("dim");
  if (!p.text("axes-dim").empty()) o.axes_dim = parse_list(p.text("axes-dim"), ',', "axes-dim", 2, 65536, "16,56,56");
  // --axes-dim without --dim: the head is the slices (FLUX's 16,56,56 is its 128), not the default 64.
  if (!o.axes_dim.empty() && !p.given("dim")) {
    o.dim = 0;
    for (const auto w : o.axes_dim) o.dim += w;
  }
  o.base = p.number("base");
  o.pixel = p.text("positions") == "pixel";
  o.max_freq = p.number("max-freq");
  o.col_first = p.text("axis-order") == "col-first";
  o.shared_ladder = p.text("ladder") == "shared";
  o.layout = parse_rope_layout(p.text("layout"));
  o.precision = parse_rope_precision(p.text("precision"));
  check_axial_rope(o);
  return o;
}

encodings::SchemeInfo axial_rope_scheme() {
  return {"axial-rope",
          "2-D/3-D axial RoPE of image and video grids (rotary-embedding-torch get_axial_freqs, timm EVA-02, FLUX "
          "EmbedND): one RoPE slice per axis",
          "slice a rotates pair k by pos_a·θ_k, θ_k = base^(-2k/d_a) (index) or linspace(1, max_freq/2, d_a/2)·π on "
          "pos = linspace(-1, 1, n_a) (pixel); slices concatenated, the rest passes",
          {{"len", "tokens shown (rows, row-major over the grid); 0 = every cell", std::int64_t{0}, {}, 0,
            static_cast<double>(encodings::kMaxLen)},
           {"grid", "axis sizes AxB or AxBxC in the order of the ids: rows x columns (x frames); FLUX: 1xHxW", std::string("8x8"), {}},
           encodings::dim_param(64),
           {"axes-dim", "width of each axis' slice, comma-separated (FLUX: 16,56,56); empty = --dim / axes each; without --dim, "
            "--dim is their sum",
            std::string(""), {}},
           {"base", "theta of the index frequencies", 10000.0, {}, 1.0, 1e300},
           {"positions", "index (0..n-1, 'lang' freqs) or pixel (linspace(-1, 1, n), linear freqs)",
            std::string("index"), {"index", "pixel"}},
           {"max-freq", "pixel: frequencies linspace(1, max_freq/2, d_a/2)·π", 10.0, {}, 2.0, 1e6},
           {"axis-order", "row-first (rotary-embedding-torch, timm, FLUX) or col-first (rope-vit: x before y)",
            std::string("row-first"), {"row-first", "col-first"}},
           {"ladder", "per-axis (each slice restarts at base^0: the references) or shared (one base^(-2q/R) ladder "
                      "over the rotated width R, rung n·j + a to pair j of axis a: Pixtral)",
            std::string("per-axis"), {"per-axis", "shared"}},
           {"layout", "columns of a pair: interleaved (2k, 2k+1; all three references) or half (k, k + R/2 of the "
                      "rotated width R; Qwen2-VL's vision tower)",
            std::string("interleaved"), {"interleaved", "half"}},
           {"table", "positions (per axis), angle, cos, sin, or rotated (R_n·ones: dot products are q = k = ones "
                     "scores)",
            std::string("cos"), {"positions", "angle", "cos", "sin", "rotated"}},
           {"precision", "f32 as the references' float32 tensors; f64 in double (FLUX computes its angles in float64)",
            std::string("f32"), {"f32", "f64"}}},
          [](const ParamMap& p) -> std::unique_ptr<Table> {
            const AxialRopeOptions o = axial_rope_options(p);
            std::int64_t cells = 1;
            for (const auto g : o.grid) cells *= g;
            const std::int64_t len = p.integer("len");
            if (len > cells)
              throw Error(fmt::format("--len {} is more than the {} cells of --grid {} (give a larger --grid)", len,
                                      cells, join(o.grid, "x")));
            const auto rows = static_cast<std::size_t>(len > 0 ? len : cells);
            const std::string table = p.text("table");
            const bool positions = table == "positions";
            const auto axes = o.grid.size();
            TableInfo info = encodings::make_info("axial-rope", p, {rows, positions ? axes : static_cast<std::size_t>(o.dim)},
                                       {"token", positions ? "axis" : "dim"});
            for (auto& [name, value] : info.params)  // the echo replays the table: the width used
              if (name == "dim") value = o.dim;
            const auto pairs = axial_pairs(o);
            std::vector<std::int64_t> pair_axis(pairs.axis.begin(), pairs.axis.end());
            info.results = {{"axes_dim", axial_widths(o)}, {"pair_axes", pair_axis}, {"inv_freq", pairs.freq}};
            info.value_name = positions ? "position" : table;
            if (positions)
              for (std::size_t a = 0; a < axes; ++a) info.column_names.push_back(fmt::format("axis{}", a));
            info.title = fmt::format("axial RoPE {} (grid {}, axes_dim {}, {}, {})", table, join(o.grid, "x"),
                                     join(axial_widths(o), ","), p.text("positions"), to_string(o.layout));
            return std::make_unique<RowFunctionTable>(
                std::move(info), [o, pairs, table, positions](std::size_t r, std::span<double> out) {
                  const auto n = static_cast<std::int64_t>(r);
                  if (positions) {
                    const auto idx = axial_index(o, n);
                    for (std::size_t a = 0; a < out.size(); ++a) out[a] = axial_position(o, idx[a], o.grid[a]);
                    return;
                  }
                  thread_local std::vector<double> angle;
                  angle.resize(pairs.freq.size());
                  axial_angles(o, pairs, n, angle);
                  const std::size_t np = angle.size();
                  const bool f32 = o.precision == RopePrecision::kF32;
                  const bool half = o.layout == RopeLayout::kHalf;
                  for (std::size_t c = 2 * np; c < out.size(); ++c)
                    out[c] = table == "angle" || table == "sin" ? 0.0 : 1.0;  // pass-through
                  for (std::size_t j = 0; j < np; ++j) {
                    double x = angle[j], y = angle[j];
                    if (table != "angle") {
                      double c = std::cos(angle[j]), s = std::sin(angle[j]);
                      if (f32) c = static_cast<float>(c), s = static_cast<float>(s);
                      if (table == "cos") {
                        x = y = c;
                      } else if (table == "sin") {
                        x = y = s;
                      } else {  // (1, 1) rotated: (cos - sin, sin + cos)
                        x = f32 ? static_cast<float>(static_cast<float>(c) - static_cast<float>(s)) : c - s;
                        y = f32 ? static_cast<float>(static_cast<float>(s) + static_cast<float>(c)) : s + c;
                      }
                    }
                    out[half ? j : 2 * j] = x;
                    out[half ? j + np : 2 * j + 1] = y;
                  }
                });
          },
          {},
          {{"table", std::string("rotated")}, {"precision", std::string("f64")}}};
}

}  // namespace posenc::rope
