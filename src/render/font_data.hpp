#pragma once
// The embedded font's bytes, written at build time by cmake/embed_file.cmake.
#include <cstddef>

namespace posenc::render {
extern const unsigned char kFontData[];
extern const std::size_t kFontData_size;
}  // namespace posenc::render
