#include "posenc/encodings/registry.hpp"

#include <fmt/format.h>

#include "posenc/encodings/schemes.hpp"
#include "posenc/error.hpp"
#include "posenc/text.hpp"

namespace posenc::encodings {

const std::vector<SchemeInfo>& schemes() {
  static const std::vector<SchemeInfo> all = {
      integer_scheme(),
      normalized_scheme(),
      binary_scheme(),
      sine_scheme(),
      sinusoidal_scheme(),
      learned_scheme(),
      recurrent_scheme(),
      rope_scheme(),
      alibi_scheme(),
      t5_scheme(),
      mrope_scheme(),
      axial_rope_scheme(),
      nope_scheme(),
      deberta_scheme(),
      xpos_scheme(),
      transformer_xl_scheme(),
      shaw_scheme(),
      kerple_scheme(),
      sandwich_scheme(),
      fire_scheme(),
  };
  return all;
}

const SchemeInfo& find_scheme(std::string_view name) {
  std::vector<std::string> names;
  for (const auto& s : schemes()) {
    if (s.name == name) return s;
    names.push_back(s.name);
  }
  throw Error(fmt::format("unknown scheme '{}'{}; choose one of: {}", name, did_you_mean(name, names),
                          join_choices(names)));
}

std::unique_ptr<Table> make_table(std::string_view scheme, const ParamMap& values) {
  const auto& info = find_scheme(scheme);
  ParamMap full(info.params);
  for (const auto& n : values.names()) full.set(n, values.value(n), values.given(n));
  return info.make(full);
}

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
