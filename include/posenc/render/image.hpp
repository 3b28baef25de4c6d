#pragma once
/// An 8-bit RGB image and its PNG encoding.
#include <cstdint>
#include <string>
#include <vector>

namespace posenc::render {

struct Rgb {
  std::uint8_t r = 0, g = 0, b = 0;
  bool operator==(const Rgb&) const = default;
};

class Image {
 public:
  Image() = default;
  Image(int width, int height, Rgb fill = {255, 255, 255});
  int width() const { return width_; }
  int height() const { return height_; }
  Rgb at(int x, int y) const;
  void set(int x, int y, Rgb c);  ///< ignores points outside
  void fill_rect(int x, int y, int w, int h, Rgb c);
  const std::vector<std::uint8_t>& pixels() const { return pixels_; }  ///< RGBRGB..., row-major

 private:
  int width_ = 0;
  int height_ = 0;
  std::vector<std::uint8_t> pixels_;
};

/// `src` scaled to w × h by nearest neighbour: output pixel (i, j) is source pixel
/// (⌊i·src.w/w⌋, ⌊j·src.h/h⌋), so every cell covers a whole number of pixels, as evenly as can be.
Image scale_nearest(const Image& src, int w, int h);

/// PNG bytes of `img`; `text` key/value pairs go into tEXt chunks (parameters echoed).
std::vector<std::uint8_t> encode_png(const Image& img,
                                     const std::vector<std::pair<std::string, std::string>>& text = {});

}  // namespace posenc::render
