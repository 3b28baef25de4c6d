#include "posenc/encodings/alibi.hpp"

#include <fmt/format.h>

#include <cmath>
#include <limits>

#include "posenc/encodings/schemes.hpp"
#include "posenc/error.hpp"
#include "posenc/encodings/alibi_codebases.hpp"
#include "posenc/toeplitz.hpp"
#include "posenc/text.hpp"

namespace posenc::encodings {

AlibiForm parse_alibi_form(const std::string& name) {
  if (name == "symmetric") return AlibiForm::kSymmetric;
  if (name == "causal") return AlibiForm::kCausal;
  if (name == "shifted") return AlibiForm::kShifted;
  throw Error(fmt::format("--form must be symmetric, causal or shifted (got '{}')", name));
}

AlibiVariant parse_alibi_variant(const std::string& name) {
  if (name == "paper") return AlibiVariant::kPaper;
  if (name == "bloom") return AlibiVariant::kBloom;
  if (name == "falcon") return AlibiVariant::kFalcon;
  if (name == "mpt") return AlibiVariant::kMpt;
  if (name == "baichuan") return AlibiVariant::kBaichuan;
  throw Error(fmt::format("--variant must be paper, bloom, falcon, mpt or baichuan (got '{}')", name));
}

std::vector<double> alibi_slopes(std::int64_t heads) {
  if (heads < 1) throw Error(fmt::format("--heads must be at least 1 (got {})", heads));
  std::int64_t p = 1;  // the largest power of two <= heads
  while (p * 2 <= heads) p *= 2;
  std::vector<double> slopes;
  slopes.reserve(static_cast<std::size_t>(heads));
  const double pd = static_cast<double>(p);
  for (std::int64_t h = 0; h < p; ++h) slopes.push_back(std::exp2(-8.0 * static_cast<double>(h + 1) / pd));
  // slopes(2P)[0::2] are 2^(−8(2e+1)/(2P)) = 2^(−4(2e+1)/P).
  for (std::int64_t e = 0; e < heads - p; ++e) slopes.push_back(std::exp2(-4.0 * static_cast<double>(2 * e + 1) / pd));
  return slopes;
}

namespace {

/// The integer m multiplies: −|i − j|, j or j − (keys − 1).
std::int64_t alibi_position(std::int64_t i, std::int64_t j, AlibiForm form, std::int64_t keys) {
  if (form == AlibiForm::kSymmetric) return -(i > j ? i - j : j - i);
  return form == AlibiForm::kCausal ? j : j - (keys - 1);
}

}  // namespace

double alibi_bias(double m, std::int64_t i, std::int64_t j, AlibiForm form, std::int64_t keys) {
  return alibi_bias_in(AlibiVariant::kPaper, m, i, j, form, keys);
}

namespace {

/// Baichuan's _get_interleave: the paper's recursion as Python evaluates it, start·start^k with
/// start = 2^(−2^−(log2 n − 3)) (double pow), and for n not a power of two the first n − P of
/// every other entry of _get_interleave(2P).
std::vector<double> python_interleave(std::int64_t n) {
  const double l2 = std::log2(static_cast<double>(n));
  std::vector<double> out;
  if (l2 == std::floor(l2)) {
    const double start = std::pow(2.0, -std::pow(2.0, -(l2 - 3)));
    for (std::int64_t k = 0; k < n; ++k) out.push_back(start * std::pow(start, static_cast<double>(k)));
    return out;
  }
  const std::int64_t p = std::int64_t{1} << static_cast<int>(std::floor(l2));
  out = python_interleave(p);
  const auto twice = python_interleave(2 * p);
  for (std::int64_t e = 0; e < n - p; ++e) out.push_back(twice[static_cast<std::size_t>(2 * e)]);
  return out;
}

}  // namespace

std::vector<double> alibi_slopes_for(AlibiVariant variant, std::int64_t heads, double alibi_bias_max) {
  switch (variant) {
    case AlibiVariant::kPaper: return alibi_slopes(heads);
    case AlibiVariant::kBloom: return alibi_slopes_of("bloom", heads);
    case AlibiVariant::kFalcon: return alibi_slopes_of("falcon", heads);
    case AlibiVariant::kMpt: return alibi_slopes_of("mpt", heads, alibi_bias_max);
    case AlibiVariant::kBaichuan: break;
  }
  if (heads < 1 || heads > 65536) throw Error(fmt::format("alibi needs 1 to 65536 heads (got {})", heads));
  auto s = python_interleave(heads);
  for (double& v : s) v = static_cast<float>(v);  // torch.Tensor(list): float32
  return s;
}

double alibi_bias_in(AlibiVariant variant, double m, std::int64_t i, std::int64_t j, AlibiForm form,
                     std::int64_t keys) {
  if (form != AlibiForm::kSymmetric && j > i) return -std::numeric_limits<double>::infinity();
  // MPT's causal matrix (build_alibi_bias, full=False) is arange(1 - N, 1) per key: m·(j − (N − 1)).
  if (variant == AlibiVariant::kMpt && form == AlibiForm::kCausal) form = AlibiForm::kShifted;
  const std::int64_t p = alibi_position(i, j, form, keys);
  double v = 0;
  switch (variant) {
    case AlibiVariant::kPaper:
      v = m * static_cast<double>(p);
      break;
    case AlibiVariant::kBloom:
    case AlibiVariant::kMpt:
    case AlibiVariant::kBaichuan:  // float32 slope times the integer position cast to float32
      v = static_cast<double>(static_cast<float>(m * static_cast<double>(static_cast<float>(p))));
      break;
    case AlibiVariant::kFalcon: {  // bfloat16 slope times the position cast to bfloat16, rounded to bfloat16
      const double pb = to_bfloat16(static_cast<float>(p));
      v = to_bfloat16(static_cast<float>(m * pb));  // m·pb is exact in float32 (8-bit significands)
      break;
    }
  }
  return v == 0.0 ? 0.0 : v;  // no "-0" on the diagonal
}

Matrix alibi_matrix(std::int64_t len, double slope, AlibiForm form) {
  const auto n = static_cast<std::size_t>(len);
  Matrix m(n, n);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j)
      m(i, j) = alibi_bias(slope, static_cast<std::int64_t>(i), static_cast<std::int64_t>(j), form);
  return m;
}

namespace {
constexpr std::int64_t kDefaultHeads = 8;
}  // namespace

SchemeInfo alibi_scheme() {
  return {"alibi",
          "ALiBi per-head linear attention biases (Press et al. 2021); slopes for any head count",
          "symmetric: b[h,i,j] = -m_h*|i-j|; causal: m_h*j (j<=i), -inf (j>i); "
          "m_h = 2^(-8(h+1)/H) for H a power of two, else slopes(P) ++ every other of slopes(2P), P = 2^floor(log2 H)",
          {len_param(),
           {"heads", "number of attention heads H", std::int64_t{kDefaultHeads}, {}, 1, 65536},
           {"head", "one head h (0-based) as an N x N matrix; -1 = all heads, H x N x N", std::int64_t{-1}, {}, -1, 65535},
           {"form", "symmetric: -m|i-j|; causal: the variant's causal matrix with masked (-inf) future keys (m*j; "
                    "mpt: m*(j-(N-1)) as build_alibi_bias); shifted: m*(j-(N-1)), masked likewise",
            std::string("symmetric"), {"symmetric", "causal", "shifted"}},
           {"variant", "whose slopes and arithmetic: paper (get_slopes, double), bloom (float32), falcon "
                       "(bfloat16, Falcon-RW), mpt (gen_slopes with --bias-max, float32), baichuan (Baichuan-13B, "
                       "float32); --hf-config picks the model's",
            std::string("paper"), {"paper", "bloom", "falcon", "mpt", "baichuan"}},
           {"bias-max", "mpt only: MPT's alibi_bias_max; slope k of P' = next power of two is 2^(-k*bias_max/P')", 8.0,
            {}, 1e-6, 1e6}},
          [](const ParamMap& p) -> std::unique_ptr<Table> {
            const std::int64_t heads = p.integer("heads");
            const std::int64_t head = p.integer("head");
            if (head >= heads)
              throw Error(fmt::format("--head must be below --heads {} (got {}; heads are 0-based)", heads, head));
            const AlibiVariant variant = parse_alibi_variant(p.text("variant"));
            const double bias_max = p.number("bias-max");
            if (p.given("bias-max") && variant != AlibiVariant::kMpt)
              throw Error(fmt::format("--bias-max applies only to --variant mpt (MPT's alibi_bias_max; got --variant {})",
                                      p.text("variant")));
            if (!std::isfinite(bias_max) || bias_max <= 0)
              throw Error(fmt::format("--bias-max must be a finite number > 0 (got {})", bias_max));
            const auto slopes = alibi_slopes_for(variant, heads, bias_max);
            const AlibiForm form = parse_alibi_form(p.text("form"));
            const auto n = static_cast<std::size_t>(p.integer("len"));
            std::vector<std::size_t> shape = {n, n};
            std::vector<std::string> axes = {"i", "j"};
            if (head < 0) {
              shape.insert(shape.begin(), slopes.size());
              axes.insert(axes.begin(), "head");
            }
            TableInfo info = make_info("alibi", p, shape, axes);
            if (variant != AlibiVariant::kMpt)  // echo only what applies
              std::erase_if(info.params, [](const auto& kv) { return kv.first == "bias-max"; });
            info.params.emplace_back("slopes", slopes);   // the place: JSON "params"
            info.results.emplace_back("slopes", slopes);  // kept: figures title each head from it
            info.value_name = "bias";
            const std::string who = variant == AlibiVariant::kPaper ? "ALiBi" : "ALiBi (" + p.text("variant") + ")";
            info.title = head < 0 ? fmt::format("{} {} biases, {}", who, p.text("form"), counted(heads, "head", "heads"))
                                  : fmt::format("{} {} bias, head {} of {}, slope {}", who, p.text("form"), head, heads,
                                                slopes[static_cast<std::size_t>(head)]);
            for (std::size_t j = 0; j < n && n <= 100000; ++j) info.column_names.push_back(fmt::format("j{}", j));
            const std::size_t first_head = head < 0 ? 0 : static_cast<std::size_t>(head);
            if (form == AlibiForm::kSymmetric)  // −m|j − i|: a function of j − i, so figures reduce it from 2N values
              return toeplitz_function_table(
                  std::move(info),
                  [slopes, first_head, form, variant, n](std::size_t s, std::int64_t d0, std::span<double> out) {
                    const double m = slopes[first_head + s];
                    for (std::size_t k = 0; k < out.size(); ++k)
                      out[k] = alibi_bias_in(variant, m, 0, d0 + static_cast<std::int64_t>(k), form,
                                             static_cast<std::int64_t>(n));
                  });
            return std::make_unique<RowFunctionTable>(
                std::move(info), [slopes, first_head, n, form, variant](std::size_t r, std::span<double> out) {
                  const double m = slopes[first_head + r / n];
                  const auto i = static_cast<std::int64_t>(r % n);
                  const auto keys = static_cast<std::int64_t>(n);
                  for (std::size_t j = 0; j < out.size(); ++j)
                    out[j] = alibi_bias_in(variant, m, i, static_cast<std::int64_t>(j), form, keys);
                });
          },
          {{"slopes", fmt::format("slopes of the default --heads {}", kDefaultHeads), alibi_slopes(kDefaultHeads)}}};
}

}  // namespace posenc::encodings
