#include "posenc/schemes/registry.hpp"

#include <fmt/format.h>

#include "posenc/encodings/schemes.hpp"
#include "posenc/rope/schemes.hpp"
#include "rope_scheme.hpp"
#include "posenc/error.hpp"
#include "posenc/text.hpp"

namespace posenc::schemes {

const std::vector<SchemeInfo>& schemes() {
  static const std::vector<SchemeInfo> all = {
      encodings::integer_scheme(),
      encodings::normalized_scheme(),
      encodings::binary_scheme(),
      encodings::sine_scheme(),
      encodings::sinusoidal_scheme(),
      encodings::learned_scheme(),
      encodings::recurrent_scheme(),
      rope_scheme(),
      encodings::alibi_scheme(),
      encodings::t5_scheme(),
      rope::mrope_scheme(),
      rope::axial_rope_scheme(),
      encodings::nope_scheme(),
      encodings::deberta_scheme(),
      rope::xpos_scheme(),
      encodings::transformer_xl_scheme(),
      encodings::shaw_scheme(),
      encodings::kerple_scheme(),
      encodings::sandwich_scheme(),
      encodings::fire_scheme(),
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

}  // namespace posenc::schemes
