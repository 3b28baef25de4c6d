#include "posenc/encodings/simple.hpp"

#include "posenc/encodings/schemes.hpp"

namespace posenc::encodings {
namespace {

std::vector<std::size_t> len_by_dim(const ParamMap& p) {
  return {static_cast<std::size_t>(p.integer("len")), static_cast<std::size_t>(p.integer("dim"))};
}

double normalizer(std::int64_t len) { return len > 1 ? static_cast<double>(len - 1) : 1.0; }

}  // namespace

Matrix integer_table(std::int64_t len, std::int64_t dim) {
  Matrix m(static_cast<std::size_t>(len), static_cast<std::size_t>(dim));
  for (std::size_t t = 0; t < m.rows(); ++t)
    for (double& v : m.row(t)) v = static_cast<double>(t);
  return m;
}

Matrix normalized_table(std::int64_t len, std::int64_t dim) {
  Matrix m(static_cast<std::size_t>(len), static_cast<std::size_t>(dim));
  const double denom = normalizer(len);
  for (std::size_t t = 0; t < m.rows(); ++t)
    for (double& v : m.row(t)) v = static_cast<double>(t) / denom;
  return m;
}

SchemeInfo integer_scheme() {
  return {"integer", "the position itself in every column (seed 1.1); unbounded", "PE[t,k] = t",
          {len_param(), dim_param(1)},
          [](const ParamMap& p) -> std::unique_ptr<Table> {
            return std::make_unique<RowFunctionTable>(make_info("integer", p, len_by_dim(p)),
                                                      [](std::size_t t, std::span<double> out) {
                                                        for (double& v : out) v = static_cast<double>(t);
                                                      });
          }};
}

SchemeInfo normalized_scheme() {
  return {"normalized", "the position scaled to [0, 1] (seed 1.2); the step depends on N", "PE[t,k] = t/(N-1)",
          {len_param(), dim_param(1)},
          [](const ParamMap& p) -> std::unique_ptr<Table> {
            const double denom = normalizer(p.integer("len"));
            return std::make_unique<RowFunctionTable>(make_info("normalized", p, len_by_dim(p)),
                                                      [denom](std::size_t t, std::span<double> out) {
                                                        for (double& v : out) v = static_cast<double>(t) / denom;
                                                      });
          }};
}

}  // namespace posenc::encodings
