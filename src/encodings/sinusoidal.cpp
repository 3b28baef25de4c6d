#include "posenc/encodings/sinusoidal.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "posenc/encodings/schemes.hpp"
#include "posenc/error.hpp"

namespace posenc::encodings {

SinusoidalConvention parse_convention(const std::string& name) {
  if (name == "paper") return SinusoidalConvention::kPaper;
  if (name == "tensor2tensor") return SinusoidalConvention::kTensor2Tensor;
  if (name == "fairseq") return SinusoidalConvention::kFairseq;
  throw Error(fmt::format("--convention must be paper, tensor2tensor or fairseq (got '{}')", name));
}

SinusoidalLayout parse_layout(const std::string& name, SinusoidalConvention convention) {
  if (name == "interleaved") return SinusoidalLayout::kInterleaved;
  if (name == "split") return SinusoidalLayout::kSplit;
  if (name == "auto")
    return convention == SinusoidalConvention::kPaper ? SinusoidalLayout::kInterleaved : SinusoidalLayout::kSplit;
  throw Error(fmt::format("--layout must be auto, interleaved or split (got '{}')", name));
}

std::string layout_name(SinusoidalLayout layout) {
  return layout == SinusoidalLayout::kInterleaved ? "interleaved" : "split";
}

ParamSpec layout_param() {
  return {"layout",
          "interleaved: sin at 2k, cos at 2k+1; split: all sines then all cosines; "
          "auto: interleaved for paper, split for tensor2tensor and fairseq",
          std::string("auto"),
          {"auto", "interleaved", "split"}};
}

void check_sinusoidal(std::int64_t dim, double base, SinusoidalConvention convention) {
  if (!std::isfinite(base) || base < 1.0) throw Error(fmt::format("--base must be a finite number >= 1 (got {})", base));
  if (convention == SinusoidalConvention::kPaper && dim % 2 != 0)
    throw Error(fmt::format(
        "--dim must be even for sinusoidal --convention paper (got {}); "
        "tensor2tensor and fairseq accept odd --dim and append a zero column",
        dim));
  if (convention == SinusoidalConvention::kFairseq && dim / 2 == 1)
    throw Error(fmt::format(
        "--dim {} gives fairseq one frequency and its spacing ln(base)/(half-1) divides by zero; "
        "use --dim 4 or more, or --convention tensor2tensor",
        dim));
}

std::vector<double> sinusoidal_frequencies(std::int64_t dim, double base, SinusoidalConvention convention) {
  const auto pairs = static_cast<std::size_t>(dim / 2);
  const double d = static_cast<double>(dim);
  const double log_base = std::log(base);
  std::vector<double> w(pairs);
  for (std::size_t k = 0; k < pairs; ++k) {
    const double kd = static_cast<double>(k);
    switch (convention) {
      case SinusoidalConvention::kPaper:
        w[k] = std::pow(base, -2.0 * kd / d);
        break;
      case SinusoidalConvention::kTensor2Tensor:  // log_timescale_increment, min_timescale = 1
        w[k] = std::exp(-kd * (log_base / static_cast<double>(std::max<std::size_t>(pairs - 1, 1))));
        break;
      case SinusoidalConvention::kFairseq:  // half_dim = pairs; half_dim == 1 is refused by check_sinusoidal
        w[k] = std::exp(-kd * (log_base / static_cast<double>(pairs - 1)));
        break;
    }
  }
  return w;
}

std::vector<double> sinusoidal_frequencies_f32(std::int64_t dim, double base, SinusoidalConvention convention) {
  std::vector<double> w = sinusoidal_frequencies(dim, base, convention);
  if (convention == SinusoidalConvention::kPaper) {
    for (double& v : w) v = static_cast<double>(static_cast<float>(v));
    return w;
  }
  const std::size_t pairs = w.size();
  const double steps = static_cast<double>(convention == SinusoidalConvention::kFairseq
                                               ? pairs - 1
                                               : std::max<std::size_t>(pairs - 1, 1));
  const auto step = static_cast<float>(-(std::log(base) / steps));  // the Python float, cast to the tensor's float32
  for (std::size_t k = 0; k < pairs; ++k) {
    const auto exponent = static_cast<float>(static_cast<double>(static_cast<float>(k)) * static_cast<double>(step));
    w[k] = static_cast<double>(static_cast<float>(std::exp(static_cast<double>(exponent))));
  }
  return w;
}

std::int64_t sinusoidal_first_position(const SinusoidalOptions& options) {
  return options.convention == SinusoidalConvention::kFairseq ? options.padding_idx + 1 : 0;
}

std::vector<std::string> sinusoidal_column_names(std::int64_t dim, std::size_t pairs, SinusoidalLayout layout) {
  std::vector<std::string> names(static_cast<std::size_t>(dim), "pad");
  for (std::size_t k = 0; k < pairs; ++k) {
    const bool inter = layout == SinusoidalLayout::kInterleaved;
    names[inter ? 2 * k : k] = fmt::format("sin{}", k);
    names[inter ? 2 * k + 1 : pairs + k] = fmt::format("cos{}", k);
  }
  return names;
}

Matrix sinusoidal_table(std::int64_t len, std::int64_t dim, const SinusoidalOptions& options) {
  check_sinusoidal(dim, options.base, options.convention);
  const auto w = sinusoidal_frequencies(dim, options.base, options.convention);
  const auto first = static_cast<double>(sinusoidal_first_position(options));
  Matrix m(static_cast<std::size_t>(len), static_cast<std::size_t>(dim));
  for (std::size_t r = 0; r < m.rows(); ++r) sinusoidal_row(first + static_cast<double>(r), w, options.layout, m.row(r));
  return m;
}

SchemeInfo sinusoidal_scheme() {
  return {"sinusoidal", "sin/cos pairs of Attention Is All You Need, with tensor2tensor and fairseq conventions",
          "PE[t,2k] = sin(t w_k), PE[t,2k+1] = cos(t w_k), w_k = base^(-2k/d)",
          {len_param(), dim_param(128),
           {"base", "frequency base (the paper's 10000; tensor2tensor's max_timescale)", 10000.0, {}, 1.0, 1e300},
           layout_param(),
           {"convention", "paper: w_k = base^(-2k/d); tensor2tensor, fairseq: w_k = base^(-k/(K-1)), concat, odd d padded",
            std::string("paper"), {"paper", "tensor2tensor", "fairseq"}},
           {"padding-idx", "fairseq only: the first row is position padding-idx + 1", std::int64_t{1}, {}, 0,
            static_cast<double>(kMaxLen)},
           {"precision", "f64: double precision; f32: transformers' float32 tensors (M2M100, Whisper): float32 "
                         "frequencies, angles and values",
            std::string("f64"), {"f64", "f32"}}},
          [](const ParamMap& p) -> std::unique_ptr<Table> {
            SinusoidalOptions o;
            o.base = p.number("base");
            o.convention = parse_convention(p.text("convention"));
            o.layout = parse_layout(p.text("layout"), o.convention);
            o.padding_idx = p.integer("padding-idx");
            if (p.given("padding-idx") && o.convention != SinusoidalConvention::kFairseq)
              throw Error(fmt::format("--padding-idx applies only to --convention fairseq (got --convention {})",
                                      p.text("convention")));
            const auto len = p.integer("len");
            const auto dim = p.integer("dim");
            check_sinusoidal(dim, o.base, o.convention);
            const bool torch32 = p.text("precision") == "f32";
            auto w = torch32 ? sinusoidal_frequencies_f32(dim, o.base, o.convention)
                             : sinusoidal_frequencies(dim, o.base, o.convention);
            const auto first = sinusoidal_first_position(o);

            auto info = make_info("sinusoidal", p, {static_cast<std::size_t>(len), static_cast<std::size_t>(dim)});
            // Echo only what applies, so that the echoed parameters can be given back as flags.
            if (o.convention != SinusoidalConvention::kFairseq)
              std::erase_if(info.params, [](const auto& kv) { return kv.first == "padding-idx"; });
            info.column_names = sinusoidal_column_names(dim, w.size(), o.layout);
            info.first_position = static_cast<std::size_t>(first);
            info.results.emplace_back("layout", layout_name(o.layout));
            info.title = fmt::format("sinusoidal ({}, {}), base {}, N={}, D={}", p.text("convention"),
                                     layout_name(o.layout), o.base, len, dim);
            const auto pos = [first](std::size_t r) { return static_cast<double>(first) + static_cast<double>(r); };
            if (torch32)
              return std::make_unique<RowFunctionTable>(
                  std::move(info),
                  [w, layout = o.layout, pos](std::size_t r, std::span<double> out) {
                    sinusoidal_row_torch_f32(pos(r), w, layout, out);
                  },
                  [w, layout = o.layout, pos](std::size_t r, std::span<float> out) {
                    sinusoidal_row_torch_f32(pos(r), w, layout, out);
                  });
            return std::make_unique<RowFunctionTable>(
                std::move(info),
                [w, layout = o.layout, pos](std::size_t r, std::span<double> out) { sinusoidal_row(pos(r), w, layout, out); },
                [w, layout = o.layout, pos](std::size_t r, std::span<float> out) {
                  sinusoidal_row_f32(pos(r), w, layout, out);
                });
          }};
}

}  // namespace posenc::encodings
