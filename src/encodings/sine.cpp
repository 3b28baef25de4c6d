#include "posenc/encodings/sine.hpp"

#include <fmt/format.h>

#include <cmath>

#include "posenc/encodings/schemes.hpp"
#include "posenc/error.hpp"

namespace posenc::encodings {
namespace {

SineFrequencies parse_frequencies(const std::string& s) {
  if (s == "pow2") return SineFrequencies::kPow2;
  if (s == "paper") return SineFrequencies::kPaper;
  throw Error(fmt::format("--frequencies must be pow2 or paper (got '{}')", s));
}

void sine_row(double t, const std::vector<double>& w, std::span<double> out) {
  for (std::size_t i = 0; i < w.size(); ++i) out[i] = std::sin(w[i] * t);
}

}  // namespace

std::vector<double> sine_frequencies(std::int64_t dim, SineFrequencies kind) {
  const auto d = static_cast<std::size_t>(dim);
  std::vector<double> w(d);
  for (std::size_t i = 0; i < d; ++i) {
    if (kind == SineFrequencies::kPow2) {
      w[i] = std::ldexp(1.0, -static_cast<int>(i));  // exact 2^-i; 0 below the smallest subnormal
    } else {
      const double exponent = d > 1 ? static_cast<double>(i) / static_cast<double>(d - 1) : 0.0;
      w[i] = 1.0 / std::pow(10000.0, exponent);
    }
  }
  return w;
}

Matrix sine_table(std::int64_t len, std::int64_t dim, SineFrequencies kind) {
  const auto w = sine_frequencies(dim, kind);
  Matrix m(static_cast<std::size_t>(len), static_cast<std::size_t>(dim));
  for (std::size_t t = 0; t < m.rows(); ++t) sine_row(static_cast<double>(t), w, m.row(t));
  return m;
}

SchemeInfo sine_scheme() {
  return {"sine", "sin only, one frequency per column (seed 1.4); positions can collide",
          "PE[t,i] = sin(w_i t), w_i = 1/2^i or 1/10000^(i/(d-1))",
          {len_param(), dim_param(128),
           {"frequencies", "pow2: w_i = 1/2^i; paper: w_i = 1/10000^(i/(d-1))", std::string("pow2"), {"pow2", "paper"}}},
          [](const ParamMap& p) -> std::unique_ptr<Table> {
            const auto len = p.integer("len");
            const auto dim = p.integer("dim");
            auto w = sine_frequencies(dim, parse_frequencies(p.text("frequencies")));
            auto info = make_info("sine", p, {static_cast<std::size_t>(len), static_cast<std::size_t>(dim)});
            info.column_names.reserve(w.size());
            for (std::size_t i = 0; i < w.size(); ++i) info.column_names.push_back(fmt::format("sin{}", i));
            info.title = fmt::format("sine ({} frequencies), N={}, D={}", p.text("frequencies"), len, dim);
            return std::make_unique<RowFunctionTable>(
                std::move(info),
                [w = std::move(w)](std::size_t t, std::span<double> out) { sine_row(static_cast<double>(t), w, out); });
          }};
}

}  // namespace posenc::encodings
