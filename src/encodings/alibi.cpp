#include "posenc/encodings/alibi.hpp"

#include <fmt/format.h>

#include <cmath>
#include <limits>

#include "posenc/encodings/schemes.hpp"
#include "posenc/error.hpp"
#include "posenc/models/model_report.hpp"
#include "posenc/toeplitz.hpp"

namespace posenc::encodings {

AlibiForm parse_alibi_form(const std::string& name) {
  if (name == "symmetric") return AlibiForm::kSymmetric;
  if (name == "causal") return AlibiForm::kCausal;
  if (name == "shifted") return AlibiForm::kShifted;
  throw Error(fmt::format("--form must be symmetric, causal or shifted (got '{}')", name));
}

AlibiCodebase parse_alibi_codebase(const std::string& name) {
  if (name == "paper") return AlibiCodebase::kPaper;
  if (name == "bloom") return AlibiCodebase::kBloom;
  if (name == "falcon") return AlibiCodebase::kFalcon;
  if (name == "mpt") return AlibiCodebase::kMpt;
  throw Error(fmt::format("--codebase must be paper, bloom, falcon or mpt (got '{}')", name));
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
  return alibi_bias_in(AlibiCodebase::kPaper, m, i, j, form, keys);
}

std::vector<double> alibi_slopes_for(AlibiCodebase codebase, std::int64_t heads, double alibi_bias_max) {
  switch (codebase) {
    case AlibiCodebase::kPaper: return alibi_slopes(heads);
    case AlibiCodebase::kBloom: return models::alibi_slopes_of("bloom", heads);
    case AlibiCodebase::kFalcon: return models::alibi_slopes_of("falcon", heads);
    case AlibiCodebase::kMpt: return models::alibi_slopes_of("mpt", heads, alibi_bias_max);
  }
  return {};
}

double alibi_bias_in(AlibiCodebase codebase, double m, std::int64_t i, std::int64_t j, AlibiForm form,
                     std::int64_t keys) {
  if (form != AlibiForm::kSymmetric && j > i) return -std::numeric_limits<double>::infinity();
  const std::int64_t p = alibi_position(i, j, form, keys);
  double v = 0;
  switch (codebase) {
    case AlibiCodebase::kPaper:
      v = m * static_cast<double>(p);
      break;
    case AlibiCodebase::kBloom:
    case AlibiCodebase::kMpt:  // float32 slope times the integer position cast to float32
      v = static_cast<double>(static_cast<float>(m * static_cast<double>(static_cast<float>(p))));
      break;
    case AlibiCodebase::kFalcon: {  // bfloat16 slope times the position cast to bfloat16, rounded to bfloat16
      const double pb = models::to_bfloat16(static_cast<float>(p));
      v = models::to_bfloat16(static_cast<float>(m * pb));  // m·pb is exact in float32 (8-bit significands)
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
           {"form", "symmetric: -m|i-j|; causal: the paper's m*j with masked (-inf) future keys; shifted: MPT's "
                    "m*(j-(N-1)), masked likewise",
            std::string("symmetric"), {"symmetric", "causal", "shifted"}},
           {"codebase", "whose slopes and arithmetic: paper (double), bloom (float32), falcon (bfloat16), mpt "
                        "(gen_slopes with --alibi-bias-max, float32); --hf-config picks the model's",
            std::string("paper"), {"paper", "bloom", "falcon", "mpt"}},
           {"alibi-bias-max", "mpt only: slope k of P' = next power of two is 2^(-k*alibi_bias_max/P')", 8.0, {}, 0.0,
            1e300, /*choice_flags=*/false, /*above_min=*/true}},
          [](const ParamMap& p) -> std::unique_ptr<Table> {
            const std::int64_t heads = p.integer("heads");
            const std::int64_t head = p.integer("head");
            if (head >= heads)
              throw Error(fmt::format("--head must be below --heads {} (got {}; heads are 0-based)", heads, head));
            const AlibiCodebase codebase = parse_alibi_codebase(p.text("codebase"));
            const double bias_max = p.number("alibi-bias-max");
            if (p.given("alibi-bias-max") && codebase != AlibiCodebase::kMpt)
              throw Error(fmt::format("--alibi-bias-max applies only to --codebase mpt (got --codebase {})",
                                      p.text("codebase")));
            if (!std::isfinite(bias_max) || bias_max <= 0)
              throw Error(fmt::format("--alibi-bias-max must be a finite number > 0 (got {})", bias_max));
            const auto slopes = alibi_slopes_for(codebase, heads, bias_max);
            const AlibiForm form = parse_alibi_form(p.text("form"));
            const auto n = static_cast<std::size_t>(p.integer("len"));
            std::vector<std::size_t> shape = {n, n};
            std::vector<std::string> axes = {"i", "j"};
            if (head < 0) {
              shape.insert(shape.begin(), slopes.size());
              axes.insert(axes.begin(), "head");
            }
            TableInfo info = make_info("alibi", p, shape, axes);
            if (codebase != AlibiCodebase::kMpt)  // echo only what applies
              std::erase_if(info.params, [](const auto& kv) { return kv.first == "alibi-bias-max"; });
            info.params.emplace_back("slopes", slopes);   // the place: JSON "params"
            info.results.emplace_back("slopes", slopes);  // kept: figures title each head from it
            info.value_name = "bias";
            info.title = head < 0 ? fmt::format("ALiBi {} biases, {} heads", p.text("form"), heads)
                                  : fmt::format("ALiBi {} bias, head {} of {}, slope {}", p.text("form"), head, heads,
                                                slopes[static_cast<std::size_t>(head)]);
            for (std::size_t j = 0; j < n && n <= 100000; ++j) info.column_names.push_back(fmt::format("j{}", j));
            const std::size_t first_head = head < 0 ? 0 : static_cast<std::size_t>(head);
            if (form == AlibiForm::kSymmetric)  // −m|j − i|: a function of j − i, so figures reduce it from 2N values
              return toeplitz_function_table(
                  std::move(info),
                  [slopes, first_head, form, codebase, n](std::size_t s, std::int64_t d0, std::span<double> out) {
                    const double m = slopes[first_head + s];
                    for (std::size_t k = 0; k < out.size(); ++k)
                      out[k] = alibi_bias_in(codebase, m, 0, d0 + static_cast<std::int64_t>(k), form,
                                             static_cast<std::int64_t>(n));
                  });
            return std::make_unique<RowFunctionTable>(
                std::move(info), [slopes, first_head, n, form, codebase](std::size_t r, std::span<double> out) {
                  const double m = slopes[first_head + r / n];
                  const auto i = static_cast<std::int64_t>(r % n);
                  const auto keys = static_cast<std::int64_t>(n);
                  for (std::size_t j = 0; j < out.size(); ++j)
                    out[j] = alibi_bias_in(codebase, m, i, static_cast<std::int64_t>(j), form, keys);
                });
          },
          {{"slopes", fmt::format("slopes of the default --heads {}", kDefaultHeads), alibi_slopes(kDefaultHeads)}}};
}

}  // namespace posenc::encodings
