#include "posenc/encodings/scheme.hpp"

#include <utility>

namespace posenc::encodings {

TableInfo make_info(const std::string& scheme, const ParamMap& p, std::vector<std::size_t> shape,
                    std::vector<std::string> axis_names) {
  TableInfo info;
  info.scheme = scheme;
  for (const auto& n : p.names()) info.params.emplace_back(n, p.value(n));
  info.shape = std::move(shape);
  info.axis_names = std::move(axis_names);
  return info;
}

ParamSpec len_param() {
  return {"len", "number of positions N (rows)", std::int64_t{50}, {}, 1, static_cast<double>(kMaxLen)};
}

ParamSpec dim_param(std::int64_t default_dim) {
  return {"dim", "width D of each position vector (columns)", default_dim, {}, 1, static_cast<double>(kMaxDim)};
}

ParamSpec pair_dim_param(std::int64_t default_dim, std::string help) {
  ParamSpec d = dim_param(default_dim);
  d.help = std::move(help);
  d.min = 2;
  return d;
}

}  // namespace posenc::encodings
