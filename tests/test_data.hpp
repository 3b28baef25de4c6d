#pragma once
// Where the tests' own data lives (tests/data). Only test_data.cpp sees the absolute path, so the
// other test units compile to the same object in every clone (compiler caches can share them).
#include <string>

namespace posenc::test {
/// tests/data/<relative>, as an absolute path.
std::string data_path(const std::string& relative);
}  // namespace posenc::test
