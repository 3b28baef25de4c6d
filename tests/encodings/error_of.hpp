#pragma once
// Test helpers for the encodings tests: run a callable and return the message of
// the posenc::Error it throws, or a marker that no posenc::Error was thrown.
#include <string>

#include "posenc/schemes/registry.hpp"
#include "posenc/error.hpp"
#include "posenc/params.hpp"

namespace posenc_test {

template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const posenc::Error& e) {
    return e.what();
  }
  return "<no posenc::Error thrown>";
}

// Builds `scheme` through the registry, as the command line does.
inline std::unique_ptr<posenc::Table> make(const std::string& scheme,
                                           std::initializer_list<std::pair<std::string, posenc::ParamValue>> values) {
  posenc::ParamMap p;
  for (const auto& [name, value] : values) p.set(name, value);
  return posenc::schemes::make_table(scheme, p);
}

}  // namespace posenc_test
