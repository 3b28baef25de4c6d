// parse_npy, declared in readers.hpp; kept apart from the CSV reader to keep files small.
#include "posenc/formats/readers.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cctype>
#include <charconv>
#include <cstdint>
#include <cmath>
#include <cstring>
#include <span>
#include <limits>
#include <vector>

#include "posenc/error.hpp"
#include "posenc/text.hpp"

namespace posenc::formats {

namespace {

[[noreturn]] void fail_npy(const std::string& name, const std::string& what) {
  throw Error(fmt::format("--input '{}': {}", name, what));
}

constexpr std::size_t kMaxHeader = std::size_t{1} << 20;  // numpy itself refuses headers past 10000 bytes

struct NpyHeader {
  std::string descr;
  bool fortran_order = false;
  std::vector<std::size_t> shape;
};

/// The python dict literal numpy writes: {'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }
class HeaderParser {
 public:
  HeaderParser(std::string_view text, const std::string& name) : s_(text), name_(name) {}

  NpyHeader parse() {
    NpyHeader h;
    bool descr = false, order = false, shape = false;
    expect('{');
    while (!eat('}')) {
      const std::string key = quoted();
      expect(':');
      if (key == "descr") {
        if (peek() != '\'' && peek() != '"') fail_npy(name_, "structured dtypes are not supported: save a plain numeric array");
        h.descr = quoted();
        descr = true;
      } else if (key == "fortran_order") {
        h.fortran_order = word() == "True";
        order = true;
      } else if (key == "shape") {
        h.shape = tuple();
        shape = true;
      } else {
        bad(fmt::format("unknown key '{}'", printable(key)));
      }
      if (!eat(',')) {
        expect('}');
        break;
      }
    }
    if (!descr || !order || !shape) bad("missing 'descr', 'fortran_order' or 'shape'");
    return h;
  }

 private:
  [[noreturn]] void bad(const std::string& why) { fail_npy(name_, fmt::format("bad .npy header ({})", why)); }
  void skip_space() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\n' || s_[i_] == '\r')) ++i_;
  }
  char peek() {
    skip_space();
    return i_ < s_.size() ? s_[i_] : '\0';
  }
  bool eat(char c) {
    if (peek() != c) return false;
    ++i_;
    return true;
  }
  void expect(char c) {
    if (!eat(c)) bad(fmt::format("expected '{}'", c));
  }
  std::string quoted() {
    const char q = peek();
    if (q != '\'' && q != '"') bad("expected a quoted key");
    const std::size_t end = s_.find(q, i_ + 1);
    if (end == std::string_view::npos) bad("unterminated string");
    std::string out(s_.substr(i_ + 1, end - i_ - 1));
    i_ = end + 1;
    return out;
  }
  std::string word() {
    skip_space();
    const std::size_t start = i_;
    while (i_ < s_.size() && std::isalpha(static_cast<unsigned char>(s_[i_]))) ++i_;
    std::string w(s_.substr(start, i_ - start));
    if (w != "True" && w != "False") bad("fortran_order must be True or False");
    return w;
  }
  std::vector<std::size_t> tuple() {
    std::vector<std::size_t> dims;
    expect('(');
    while (!eat(')')) {
      skip_space();
      std::size_t v = 0;
      const auto [end, ec] = std::from_chars(s_.data() + i_, s_.data() + s_.size(), v);
      if (ec != std::errc()) bad("shape must be a tuple of sizes");
      i_ = static_cast<std::size_t>(end - s_.data());
      if (i_ < s_.size() && s_[i_] == 'L') ++i_;  // Python 2 longs
      dims.push_back(v);
      if (!eat(',')) {
        expect(')');
        break;
      }
    }
    return dims;
  }

  std::string_view s_;
  const std::string& name_;
  std::size_t i_ = 0;
};

enum class Kind { kFloat, kHalf, kBfloat16, kInt, kUInt, kBool };
struct DtypeInfo {
  Kind kind;
  std::size_t size;
  bool big_endian = false;
};

DtypeInfo parse_descr(const std::string& d, const std::string& name, const ReadOptions& opts) {
  const auto unsupported = [&] {
    fail_npy(name, fmt::format("unsupported dtype '{}': give float16, float32, float64, bfloat16, integer or bool data",
                           printable(d)));
  };
  // ml_dtypes' bfloat16 under its own name: what str(arr.dtype) gives and the common
  // work-around for np.save's '<V2' writes (jax-ml/ml_dtypes#41); stored in the host's order.
  if (d == "bfloat16") return {Kind::kBfloat16, 2, false};
  if (d.size() < 3 || std::string_view("<>|=").find(d[0]) == std::string_view::npos) unsupported();
  std::size_t size = 0;
  const auto [end, ec] = std::from_chars(d.data() + 2, d.data() + d.size(), size);
  if (ec != std::errc() || end != d.data() + d.size()) unsupported();
  const bool big = d[0] == '>';
  const char k = d[1];
  const bool int_size = size == 1 || size == 2 || size == 4 || size == 8;
  if (k == 'f' && (size == 4 || size == 8)) return {Kind::kFloat, size, big};
  if (k == 'f' && size == 2) return {Kind::kHalf, size, big};
  if (k == 'i' && int_size) return {Kind::kInt, size, big};
  if (k == 'u' && int_size) return {Kind::kUInt, size, big};
  if (k == 'b' && size == 1) return {Kind::kBool, size, big};
  if (k == 'V' && size == 2 && d[0] != '>') {
    // np.save writes ml_dtypes' bfloat16 as '<V2': numpy has no name for it, so the bytes
    // alone cannot say whether they are bfloat16 or float16.
    if (opts.raw2 == "bfloat16") return {Kind::kBfloat16, 2, false};
    if (opts.raw2 == "float16") return {Kind::kHalf, 2, false};
    fail_npy(name, fmt::format("dtype '{}' is 2 raw bytes a value (np.save writes ml_dtypes' bfloat16 so): give "
                           "--input-dtype bfloat16 (or float16) to say what they are, or save arr.astype(np.float32)",
                           d));
  }
  unsupported();
  return {};  // not reached
}

/// IEEE 754 binary16: 1 sign, 5 exponent (bias 15), 10 fraction bits.
double half_value(std::uint16_t h) {
  const int exponent = (h >> 10) & 0x1f;
  const int fraction = h & 0x3ff;
  double v = 0;
  if (exponent == 0) {
    v = std::ldexp(fraction, -24);  // subnormal (and zero)
  } else if (exponent == 31) {
    v = fraction != 0 ? std::numeric_limits<double>::quiet_NaN() : std::numeric_limits<double>::infinity();
  } else {
    v = std::ldexp(fraction + 1024, exponent - 25);
  }
  return (h & 0x8000) != 0 ? -v : v;
}

/// bfloat16: the upper 16 bits of a float32.
double bfloat16_value(std::uint16_t b) {
  const std::uint32_t bits = std::uint32_t{b} << 16;
  float f = 0;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

/// Reads one element in the file's byte order.
double element(const char* p, DtypeInfo t) {
  unsigned char b[8];
  std::memcpy(b, p, t.size);
  if (t.big_endian != (std::endian::native == std::endian::big)) std::reverse(b, b + t.size);
  const auto get = [&](auto v) {
    std::memcpy(&v, b, sizeof v);
    return static_cast<double>(v);
  };
  switch (t.kind) {
    case Kind::kFloat: return t.size == 4 ? get(float{}) : get(double{});
    case Kind::kHalf: return half_value(static_cast<std::uint16_t>(get(std::uint16_t{})));
    case Kind::kBfloat16: return bfloat16_value(static_cast<std::uint16_t>(get(std::uint16_t{})));
    case Kind::kBool: return b[0] != 0 ? 1.0 : 0.0;
    case Kind::kInt:
      return t.size == 1 ? get(std::int8_t{}) : t.size == 2 ? get(std::int16_t{}) : t.size == 4 ? get(std::int32_t{}) : get(std::int64_t{});
    case Kind::kUInt:
      return t.size == 1 ? get(std::uint8_t{}) : t.size == 2 ? get(std::uint16_t{}) : t.size == 4 ? get(std::uint32_t{}) : get(std::uint64_t{});
  }
  return 0;
}

std::string npy_shape_text(const std::vector<std::size_t>& shape) {
  return fmt::format("({}{})", fmt::join(shape, ", "), shape.size() == 1 ? "," : "");
}

}  // namespace

Matrix parse_npy(std::string_view bytes, const std::string& name) { return parse_npy_array(bytes, name, 2).values; }

NpyArray parse_npy_array(std::string_view bytes, const std::string& name, std::size_t max_axes) {
  ReadOptions opts;
  opts.max_axes = max_axes;
  return parse_npy_array(bytes, name, opts);
}

NpyArray parse_npy_array(std::string_view bytes, const std::string& name, const ReadOptions& opts) {
  const std::size_t max_axes = opts.max_axes;
  if (bytes.size() < 10 || bytes.substr(0, 6) != "\x93NUMPY") fail_npy(name, "not a .npy file (bad magic)");
  const auto u8 = [&](std::size_t i) { return static_cast<std::size_t>(static_cast<unsigned char>(bytes[i])); };
  const std::size_t major = u8(6), minor = u8(7);
  if (minor != 0 || major < 1 || major > 3) fail_npy(name, fmt::format("unsupported .npy version {}.{}", major, minor));
  std::size_t header_len = u8(8) | u8(9) << 8, start = 10;
  if (major >= 2) {  // versions 2.0 and 3.0 have a 4-byte length
    if (bytes.size() < 12) fail_npy(name, "truncated .npy header");
    header_len |= u8(10) << 16 | u8(11) << 24;
    start = 12;
  }
  if (header_len > kMaxHeader) fail_npy(name, fmt::format(".npy header too long ({} bytes)", header_len));
  if (bytes.size() - start < header_len) fail_npy(name, "truncated .npy header");
  const NpyHeader h = HeaderParser(bytes.substr(start, header_len), name).parse();
  const DtypeInfo type = parse_descr(h.descr, name, opts);
  if (h.shape.empty() || h.shape.size() > max_axes) {
    fail_npy(name, fmt::format("{}-D array of shape {}: need a 1-D{} array", h.shape.size(), npy_shape_text(h.shape),
                           max_axes > 2 ? fmt::format(" to {}-D", max_axes) : std::string(" or 2-D")));
  }
  for (std::size_t a : h.shape)
    if (a == 0) fail_npy(name, fmt::format("empty array of shape {}", npy_shape_text(h.shape)));
  // Every axis but the last becomes rows (a 1-D array is one column).
  std::size_t rows = h.shape.size() == 1 ? h.shape[0] : 1;
  for (std::size_t a = 0; a + 1 < h.shape.size(); ++a) {
    if (rows > std::numeric_limits<std::size_t>::max() / h.shape[a])
      fail_npy(name, fmt::format("array of shape {} is too large", npy_shape_text(h.shape)));
    rows *= h.shape[a];
  }
  const std::size_t cols = h.shape.size() >= 2 ? h.shape.back() : 1;
  // Check the claimed size against the file before allocating anything.
  const std::size_t avail = bytes.size() - start - header_len;
  const std::size_t max = std::numeric_limits<std::size_t>::max();
  if (cols > max / rows || rows * cols > max / type.size || rows * cols * type.size > avail) {
    fail_npy(name, fmt::format("truncated data: shape {} of '{}' needs more than the {} bytes the file holds",
                           npy_shape_text(h.shape), printable(h.descr), avail));
  }
  Matrix m(rows, cols);
  const char* p = bytes.data() + start + header_len;
  std::span<double> out = m.data();
  if (!h.fortran_order || h.shape.size() == 1) {
    for (double& v : out) {
      v = element(p, type);
      p += type.size;
    }
  } else {
    // Fortran order: the first axis varies fastest in the file. Walk the file in its order,
    // keeping the element's index and its C-order offset.
    const std::size_t axes = h.shape.size();
    std::vector<std::size_t> index(axes, 0), c_stride(axes, 1);
    for (std::size_t a = axes - 1; a-- > 0;) c_stride[a] = c_stride[a + 1] * h.shape[a + 1];
    std::size_t offset = 0;
    for (std::size_t k = 0; k < out.size(); ++k) {
      out[offset] = element(p, type);
      p += type.size;
      for (std::size_t a = 0; a < axes; ++a) {  // next index, axis 0 first
        offset += c_stride[a];
        if (++index[a] < h.shape[a]) break;
        offset -= c_stride[a] * h.shape[a];
        index[a] = 0;
      }
    }
  }
  return {h.shape, std::move(m)};
}

}  // namespace posenc::formats
