#include "posenc/render/image.hpp"

#include <libdeflate.h>

#include <thread>

#include <algorithm>
#include <cassert>
#include <cstdlib>
#include <exception>
#include <memory>
#include <stdexcept>

#include "posenc/error.hpp"

namespace posenc::render {

Image::Image(int width, int height, Rgb fill) : width_(std::max(0, width)), height_(std::max(0, height)) {
  pixels_.resize(static_cast<std::size_t>(width_) * static_cast<std::size_t>(height_) * 3);
  for (std::size_t i = 0; i < pixels_.size(); i += 3) {
    pixels_[i] = fill.r;
    pixels_[i + 1] = fill.g;
    pixels_[i + 2] = fill.b;
  }
}

Rgb Image::at(int x, int y) const {
  assert(x >= 0 && y >= 0 && x < width_ && y < height_);
  const std::size_t i = (static_cast<std::size_t>(y) * static_cast<std::size_t>(width_) + static_cast<std::size_t>(x)) * 3;
  return {pixels_[i], pixels_[i + 1], pixels_[i + 2]};
}

void Image::set(int x, int y, Rgb c) {
  if (x < 0 || y < 0 || x >= width_ || y >= height_) return;
  const std::size_t i = (static_cast<std::size_t>(y) * static_cast<std::size_t>(width_) + static_cast<std::size_t>(x)) * 3;
  pixels_[i] = c.r;
  pixels_[i + 1] = c.g;
  pixels_[i + 2] = c.b;
}

void Image::fill_rect(int x, int y, int w, int h, Rgb c) {
  const int x0 = std::max(0, x), y0 = std::max(0, y);
  const int x1 = std::min(width_, x + w), y1 = std::min(height_, y + h);
  for (int yy = y0; yy < y1; ++yy) {
    for (int xx = x0; xx < x1; ++xx) set(xx, yy, c);
  }
}

Image scale_nearest(const Image& src, int w, int h) {
  Image out(w, h);
  if (src.width() == 0 || src.height() == 0) return out;
  for (int j = 0; j < out.height(); ++j) {
    const int sy = std::min(src.height() - 1, static_cast<int>(static_cast<long long>(j) * src.height() / out.height()));
    for (int i = 0; i < out.width(); ++i) {
      const int sx = std::min(src.width() - 1, static_cast<int>(static_cast<long long>(i) * src.width() / out.width()));
      out.set(i, j, src.at(sx, sy));
    }
  }
  return out;
}

// PNG is written here from its chunks rather than with stb_image_write: Debian's libstb ships
// stb_image_write precompiled, so its slow, weak built-in deflate cannot be swapped for a
// better one (STBIW_ZLIB_COMPRESS is a compile-time hook). libdeflate compresses several times
// faster and smaller.
namespace {

constexpr int kCompressionLevel = 6;  // libdeflate 1..12: figures come out within 0.3% of level 9's size, 2x faster

void put_u32(std::vector<std::uint8_t>& out, std::uint32_t v) {
  for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<std::uint8_t>(v >> shift));
}

/// Length, type, data, CRC-32 of type and data (PNG spec, section 5.3).
void put_chunk(std::vector<std::uint8_t>& out, const char type[5], const std::uint8_t* data, std::size_t size) {
  if (size > 0x7fffffffu) throw Error("png chunk too large");
  put_u32(out, static_cast<std::uint32_t>(size));
  const std::size_t start = out.size();
  out.insert(out.end(), type, type + 4);
  if (size > 0) out.insert(out.end(), data, data + size);
  put_u32(out, static_cast<std::uint32_t>(libdeflate_crc32(0, out.data() + start, size + 4)));
}

void put_chunk(std::vector<std::uint8_t>& out, const char type[5], const std::vector<std::uint8_t>& data) {
  put_chunk(out, type, data.data(), data.size());
}

int paeth(int a, int b, int c) {
  const int p = a + b - c, pa = std::abs(p - a), pb = std::abs(p - b), pc = std::abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/// PNG scanlines with filter type 0 (None): each row's bytes after a 0.
std::vector<std::uint8_t> unfiltered_rows(const Image& img) {
  const std::size_t stride = static_cast<std::size_t>(img.width()) * 3;
  const auto& px = img.pixels();
  std::vector<std::uint8_t> out;
  out.reserve((stride + 1) * static_cast<std::size_t>(img.height()));
  for (std::size_t y = 0; y < static_cast<std::size_t>(img.height()); ++y) {
    out.push_back(0);
    out.insert(out.end(), px.begin() + static_cast<std::ptrdiff_t>(y * stride),
               px.begin() + static_cast<std::ptrdiff_t>((y + 1) * stride));
  }
  return out;
}

/// Rows prefixed by their filter byte. Each row takes the filter (None, Sub, Up, Paeth) whose
/// output has the smallest sum of |signed bytes|, libpng's heuristic.
std::vector<std::uint8_t> filter_rows(const Image& img) {
  const std::size_t stride = static_cast<std::size_t>(img.width()) * 3;
  const auto& px = img.pixels();
  std::vector<std::uint8_t> out;
  out.reserve((stride + 1) * static_cast<std::size_t>(img.height()));
  std::vector<std::uint8_t> best(stride), trial(stride);
  for (std::size_t y = 0; y < static_cast<std::size_t>(img.height()); ++y) {
    const std::uint8_t* row = px.data() + y * stride;
    const std::uint8_t* up = y > 0 ? row - stride : nullptr;
    long best_cost = -1;
    std::uint8_t best_type = 0;
    for (const int type : {0, 1, 2, 4}) {
      long cost = 0;
      for (std::size_t i = 0; i < stride; ++i) {
        const int a = i >= 3 ? row[i - 3] : 0, b = up ? up[i] : 0, c = up && i >= 3 ? up[i - 3] : 0;
        const int pred = type == 0 ? 0 : type == 1 ? a : type == 2 ? b : paeth(a, b, c);
        trial[i] = static_cast<std::uint8_t>(row[i] - pred);
        cost += std::abs(static_cast<int>(static_cast<std::int8_t>(trial[i])));
      }
      if (best_cost < 0 || cost < best_cost) {
        best_cost = cost;
        best_type = static_cast<std::uint8_t>(type);
        best.swap(trial);
      }
    }
    out.push_back(best_type);
    out.insert(out.end(), best.begin(), best.end());
  }
  return out;
}

/// Indexed colour when the image has at most 256 colours (a heatmap's colormap has 256): one
/// byte per pixel instead of three, so a smaller file, encoded faster. Rows use filter None,
/// the PNG spec's advice for palette images (Up on arbitrary indices made heatmaps larger). Returns false (and leaves the outputs
/// alone) when there are more colours.
bool palette_rows(const Image& img, std::vector<std::uint8_t>& palette, std::vector<std::uint8_t>& rows) {
  constexpr std::size_t kSlots = 1024;  // open addressing on the 24-bit colour
  std::vector<std::uint32_t> key(kSlots, 0xffffffffu);
  std::vector<std::uint8_t> index(kSlots);
  std::vector<std::uint8_t> pal;
  const auto& px = img.pixels();
  const std::size_t w = static_cast<std::size_t>(img.width()), h = static_cast<std::size_t>(img.height());
  std::vector<std::uint8_t> out((w + 1) * h);
  std::uint32_t last = 0xffffffffu;
  std::uint8_t last_index = 0;
  for (std::size_t y = 0; y < h; ++y) {
    out[y * (w + 1)] = 0;  // filter None
    for (std::size_t x = 0; x < w; ++x) {
      const std::uint8_t* p = px.data() + (y * w + x) * 3;
      const std::uint32_t c = (std::uint32_t{p[0]} << 16) | (std::uint32_t{p[1]} << 8) | p[2];
      if (c != last) {
        std::size_t slot = (c * 2654435761u) >> 22;
        while (key[slot] != c && key[slot] != 0xffffffffu) slot = (slot + 1) % kSlots;
        if (key[slot] != c) {
          if (pal.size() == 256 * 3) return false;
          key[slot] = c;
          index[slot] = static_cast<std::uint8_t>(pal.size() / 3);
          pal.insert(pal.end(), p, p + 3);
        }
        last = c;
        last_index = index[slot];
      }
      out[y * (w + 1) + 1 + x] = last_index;
    }
  }
  palette = std::move(pal);
  rows = std::move(out);
  return true;
}

std::vector<std::uint8_t> zlib_compress(const std::vector<std::uint8_t>& raw) {
  const std::unique_ptr<libdeflate_compressor, decltype(&libdeflate_free_compressor)> c(
      libdeflate_alloc_compressor(kCompressionLevel), &libdeflate_free_compressor);
  if (!c) throw std::bad_alloc();
  std::vector<std::uint8_t> out(libdeflate_zlib_compress_bound(c.get(), raw.size()));
  const std::size_t n = libdeflate_zlib_compress(c.get(), raw.data(), raw.size(), out.data(), out.size());
  if (n == 0) throw Error("png compression failed");  // cannot happen: the buffer has the bound's size
  out.resize(n);
  return out;
}

/// tEXt for Latin-1-safe ASCII; iTXt (UTF-8) when the text has other bytes. Keywords keep
/// printable ASCII only, at most 79 bytes (PNG spec, section 11.3.4).
std::vector<std::uint8_t> text_chunk(const std::string& key, const std::string& value, bool& international) {
  std::vector<std::uint8_t> data;
  for (const char ch : key) {
    if (ch >= 32 && ch <= 126 && data.size() < 79) data.push_back(static_cast<std::uint8_t>(ch));
  }
  if (data.empty()) data = {'C', 'o', 'm', 'm', 'e', 'n', 't'};
  data.push_back(0);
  international = std::any_of(value.begin(), value.end(), [](char ch) { return static_cast<unsigned char>(ch) >= 0x80; });
  if (international) data.insert(data.end(), {0, 0, 0, 0});  // uncompressed, no language, no translated key
  data.insert(data.end(), value.begin(), value.end());
  return data;
}

}  // namespace

std::vector<std::uint8_t> encode_png(const Image& img, const std::vector<std::pair<std::string, std::string>>& text) {
  if (img.width() <= 0 || img.height() <= 0) throw Error("cannot encode an empty image as png");
  std::vector<std::uint8_t> out = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  std::vector<std::uint8_t> ihdr;
  put_u32(ihdr, static_cast<std::uint32_t>(img.width()));
  put_u32(ihdr, static_cast<std::uint32_t>(img.height()));
  std::vector<std::uint8_t> palette, rows;
  const bool indexed = palette_rows(img, palette, rows);
  // 8-bit, truecolour RGB (2) or indexed (3), deflate, adaptive filter, no interlace
  ihdr.insert(ihdr.end(), {8, static_cast<std::uint8_t>(indexed ? 3 : 2), 0, 0, 0});
  put_chunk(out, "IHDR", ihdr);
  if (indexed) put_chunk(out, "PLTE", palette);
  for (const auto& [key, value] : text) {
    bool international = false;
    const auto data = text_chunk(key, value, international);
    put_chunk(out, international ? "iTXt" : "tEXt", data);
  }
  if (indexed) {
    put_chunk(out, "IDAT", zlib_compress(rows));
  } else {
    // Figures hold few colours (a colormap, text, white): unfiltered rows let deflate match
    // repeated pixels and are often much smaller than the adaptive filters (a 640x480 heatmap
    // figure: 238 KB against 322 KB); smooth images favour the filters. Keep the smaller.
    // The two candidates are compressed at the same time, on two threads.
    std::vector<std::uint8_t> filtered;
    std::exception_ptr failed;
    std::thread other([&] {
      try {
        filtered = zlib_compress(filter_rows(img));
      } catch (...) {
        failed = std::current_exception();
      }
    });
    std::vector<std::uint8_t> plain;
    try {
      plain = zlib_compress(unfiltered_rows(img));
    } catch (...) {
      other.join();
      throw;
    }
    other.join();
    if (failed) std::rethrow_exception(failed);
    put_chunk(out, "IDAT", plain.size() < filtered.size() ? plain : filtered);
  }
  put_chunk(out, "IEND", nullptr, 0);
  return out;
}

}  // namespace posenc::render
