// safetensors: the fast path of the header reader (see safetensors_internal.hpp). A header as
// writers write it (ASCII names without escapes, integers, the three fields of an entry, a
// __metadata__ object of strings) is parsed here in one pass; anything else, and every header
// that breaks a rule, is left to the general reader (nlohmann's SAX parser, safetensors.cpp),
// which gives the message. So this path changes no result and no message, only the time: the
// listing of a 1155-tensor header took 3.8 ms of CPU, mostly nlohmann's lexer and the small
// JSON values it built per entry (docs/performance.md, issue 28).
#include <algorithm>
#include <cstring>
#include <string_view>
#include <unordered_set>

#include "posenc/formats/safetensors.hpp"
#include "safetensors_internal.hpp"

namespace posenc::formats::st_detail {

namespace {

struct StFastCursor {
  std::string_view s;
  std::size_t i = 0;

  void ws() {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\n' || s[i] == '\r' || s[i] == '\t')) ++i;
  }
  bool eat(char c) {
    ws();
    if (i >= s.size() || s[i] != c) return false;
    ++i;
    return true;
  }
  /// A string of printable ASCII without escapes (else false: the general reader decides).
  /// The closing quote found with memchr; the bytes before it checked in one branch-free pass
  /// (an escaped quote leaves its backslash in them, so it is refused there too). `slash` is
  /// set when the string holds '/'.
  bool str(std::string_view& out, bool* slash = nullptr) {
    ws();
    if (i >= s.size() || s[i] != '"') return false;
    const std::size_t start = ++i;
    const void* q = std::memchr(s.data() + start, '"', s.size() - start);
    if (q == nullptr) return false;
    const std::size_t n = static_cast<std::size_t>(static_cast<const char*>(q) - (s.data() + start));
    const auto* p = reinterpret_cast<const unsigned char*>(s.data() + start);
    unsigned bad = 0, sep = 0;
    for (std::size_t k = 0; k < n; ++k) {
      bad |= static_cast<unsigned>(p[k] < 0x20) | static_cast<unsigned>(p[k] >= 0x7f) | static_cast<unsigned>(p[k] == '\\');
      sep |= static_cast<unsigned>(p[k] == '/');
    }
    if (bad != 0) return false;
    if (slash != nullptr) *slash = sep != 0;
    out = s.substr(start, n);
    i = start + n + 1;
    return true;
  }
  /// A non-negative integer as JSON writes it (no sign, fraction, exponent or leading zero)
  /// that fits 64 bits.
  bool uint(std::uint64_t& out) {
    ws();
    if (i >= s.size() || s[i] < '0' || s[i] > '9') return false;
    if (s[i] == '0' && i + 1 < s.size() && s[i + 1] >= '0' && s[i + 1] <= '9') return false;
    std::uint64_t v = 0;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') {
      if (__builtin_mul_overflow(v, std::uint64_t{10}, &v) ||
          __builtin_add_overflow(v, static_cast<std::uint64_t>(s[i] - '0'), &v))
        return false;
      ++i;
    }
    if (i < s.size() && (s[i] == '.' || s[i] == 'e' || s[i] == 'E')) return false;
    out = v;
    return true;
  }
  /// [B, E]: exactly two.
  bool two_uints(std::uint64_t& b, std::uint64_t& e) { return eat('[') && uint(b) && eat(',') && uint(e) && eat(']'); }
  /// [N, N, ...] (possibly empty).
  bool uints(std::vector<std::uint64_t>& out) {
    if (!eat('[')) return false;
    if (eat(']')) return true;
    do {
      std::uint64_t v = 0;
      if (!uint(v)) return false;
      out.push_back(v);
    } while (eat(','));
    return eat(']');
  }
};

bool st_fast_metadata(StFastCursor& c, StFile& f) {
  if (!c.eat('{')) return false;
  if (c.eat('}')) return true;
  do {
    std::string_view k, v;
    if (!c.str(k) || !c.eat(':') || !c.str(v)) return false;
    if (f.metadata.size() >= 64) return false;  // (the duplicate check below is quadratic)
    for (const auto& [seen, _] : f.metadata)
      if (seen == k) return false;
    f.metadata.emplace_back(std::string(k), std::string(v));
  } while (c.eat(','));
  return c.eat('}');
}

/// One tensor entry {"dtype": ..., "shape": [...], "data_offsets": [B, E]}, valid as
/// safetensors.cpp's read_entry validates it.
bool st_fast_entry(StFastCursor& c, StTensor& t, bool slash) {
  if (!c.eat('{')) return false;
  std::string_view dtype;
  std::uint64_t begin = 0, end = 0;
  bool has_dtype = false, has_shape = false, has_offsets = false;
  do {
    std::string_view field;
    if (!c.str(field) || !c.eat(':')) return false;
    if (field == "dtype" && !has_dtype) {
      has_dtype = c.str(dtype);
      if (!has_dtype) return false;
    } else if (field == "shape" && !has_shape) {
      has_shape = c.uints(t.shape);
      if (!has_shape) return false;
    } else if (field == "data_offsets" && !has_offsets) {
      has_offsets = c.two_uints(begin, end);
      if (!has_offsets) return false;
    } else {
      return false;  // another field, or one given twice
    }
  } while (c.eat(','));
  if (!c.eat('}') || !has_dtype || !has_shape || !has_offsets) return false;
  if (slash) return false;  // '/' in the name (a backslash never reaches here)
  if (!dtype_named(dtype, t.dtype)) return false;
  for (const std::uint64_t n : t.shape)
    if (__builtin_mul_overflow(t.elements, n, &t.elements)) return false;
  std::uint64_t bits = 0;
  if (__builtin_mul_overflow(t.elements, std::uint64_t{dtype_bits(t.dtype)}, &bits) || bits % 8 != 0) return false;
  t.begin = begin;
  t.end = end;
  return t.end >= t.begin && t.end - t.begin == bits / 8;
}

}  // namespace

bool parse_header_fast(std::string_view text, StFile& f) {
  StFastCursor c{text};
  if (!c.eat('{')) return false;
  bool metadata = false;
  // An entry takes at least 50 bytes ("":{"dtype":"I8","shape":[],"data_offsets":[0,0]},): room
  // for every entry at once, no copy as the list grows (pages are used only as they are filled).
  f.tensors.reserve(std::min<std::size_t>(text.size() / 50 + 1, 1 << 16));
  if (!c.eat('}')) {
    do {
      c.ws();
      const std::size_t pos = c.i;
      std::string_view name;
      bool slash = false;
      if (!c.str(name, &slash) || !c.eat(':')) return false;
      if (name == "__metadata__") {
        if (metadata || !st_fast_metadata(c, f)) return false;
        metadata = true;
        continue;
      }
      StTensor& t = f.tensors.emplace_back();
      t.name = name;
      t.header_byte = 8 + pos;
      if (!st_fast_entry(c, t, slash)) return false;
    } while (c.eat(','));
    if (!c.eat('}')) return false;
  }
  c.ws();
  if (c.i != text.size()) return false;
  std::unordered_set<std::string_view> names;
  names.reserve(f.tensors.size());
  for (const auto& t : f.tensors)
    if (!names.insert(t.name).second) return false;
  return true;
}

}  // namespace posenc::formats::st_detail
