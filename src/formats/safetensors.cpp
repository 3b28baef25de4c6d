// safetensors header reader and validator (see safetensors.hpp). Rules: huggingface/safetensors
// tensor.rs read_metadata / Metadata::validate (@ 24b0b2857fef, 2026-05-12), plus the checks it
// misses (shared/reference/weights.md §1.4, §1.9): duplicate names, NUL and path separators in
// names, JSON deeper than a header needs.
#include "posenc/formats/safetensors.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <nlohmann/json.hpp>
#include <set>
#include <unordered_set>

#include "posenc/error.hpp"
#include "posenc/text.hpp"
#include "safetensors_internal.hpp"

namespace posenc::formats {

namespace st_detail {

std::string st_quoted(std::string_view name) { return fmt::format("'{}'", printable(name, 120)); }

[[noreturn]] void fail(const std::string& path, std::uint64_t byte, const std::string& what) {
  throw Error(fmt::format("'{}': byte {}: {}", path, byte, what));
}

std::vector<RawKey> scan_top_keys(std::string_view h, const std::string& path, std::uint64_t base) {
  std::vector<RawKey> keys;
  int depth = 0;
  bool expect_key = false;
  for (std::size_t i = 0; i < h.size(); ++i) {
    const char c = h[i];
    if (c == '"') {
      std::size_t j = i + 1;
      while (j < h.size() && h[j] != '"') j += h[j] == '\\' ? 2 : 1;
      if (j >= h.size()) break;  // unterminated: the JSON parser says so
      if (depth == 1 && expect_key) keys.push_back({i, h.substr(i, j + 1 - i)});
      expect_key = false;
      i = j;
    } else if (c == '{' || c == '[') {
      if (++depth > 3)
        fail(path, base + i,
             "the header nests JSON deeper than a safetensors header does (3 levels: the header, a tensor entry, "
             "its shape and data_offsets)");
      expect_key = c == '{' && depth == 1;
    } else if (c == '}' || c == ']') {
      --depth;
      expect_key = false;
    } else if (c == ',') {
      expect_key = depth == 1;
    }
  }
  return keys;
}

}  // namespace st_detail

namespace {

using st_detail::fail;
using st_detail::st_quoted;
using Json = nlohmann::ordered_json;

struct StDtypeRow {
  std::string_view name;
  StDtype dtype;
  unsigned bits;
};
// tensor.rs `enum Dtype` and `bitsize()`.
constexpr std::array<StDtypeRow, 22> kStDtypes = {{
    {"BOOL", StDtype::kBool, 8},        {"F4", StDtype::kF4, 4},
    {"F6_E2M3", StDtype::kF6E2M3, 6},   {"F6_E3M2", StDtype::kF6E3M2, 6},
    {"U8", StDtype::kU8, 8},            {"I8", StDtype::kI8, 8},
    {"F8_E5M2", StDtype::kF8E5M2, 8},   {"F8_E4M3", StDtype::kF8E4M3, 8},
    {"F8_E8M0", StDtype::kF8E8M0, 8},   {"F8_E4M3FNUZ", StDtype::kF8E4M3Fnuz, 8},
    {"F8_E5M2FNUZ", StDtype::kF8E5M2Fnuz, 8}, {"I16", StDtype::kI16, 16},
    {"U16", StDtype::kU16, 16},         {"F16", StDtype::kF16, 16},
    {"BF16", StDtype::kBF16, 16},       {"I32", StDtype::kI32, 32},
    {"U32", StDtype::kU32, 32},         {"F32", StDtype::kF32, 32},
    {"C64", StDtype::kC64, 64},         {"F64", StDtype::kF64, 64},
    {"I64", StDtype::kI64, 64},         {"U64", StDtype::kU64, 64},
}};

/// "syntax error while parsing value - invalid literal; last read: 'x'" from nlohmann's message.
std::string json_reason(const std::string& what) {
  std::string s = what;
  if (const auto p = s.find("]: "); p != std::string::npos && s.rfind("[json.exception", 0) == 0) s = s.substr(p + 3);
  if (s.rfind("parse error at ", 0) == 0)
    if (const auto p = s.find(": "); p != std::string::npos) s = s.substr(p + 2);
  return printable(s, 160);
}

std::string dtype_list() {
  std::string out;
  for (const auto& r : kStDtypes) out += (out.empty() ? "" : ", ") + std::string(r.name);
  return out;
}

/// The header's top-level entries, in order, each value a small Json, from nlohmann's SAX events:
/// no DOM of the whole header (an ordered_json object looks its keys up one by one, so a header
/// of 1155 tensors cost ~n²/2 string compares, and the tree was built, copied and freed).
/// Refuses a key given twice in one object, naming it; JSON errors are nlohmann's, in our form.
class StHeaderSax {
 public:
  StHeaderSax(const std::string& path, const std::vector<st_detail::RawKey>& keys) : path_(path), keys_(keys) {}
  std::vector<std::pair<std::string, Json>> entries;  ///< the top-level object's, in order
  bool object = false;                                ///< the header is a JSON object

  bool null() { return put(Json(nullptr)); }
  bool boolean(bool v) { return put(Json(v)); }
  bool number_integer(std::int64_t v) { return put(Json(v)); }
  bool number_unsigned(std::uint64_t v) { return put(Json(v)); }
  bool number_float(double v, const std::string&) { return put(Json(v)); }
  bool string(std::string& v) { return put(Json(std::move(v))); }
  bool binary(Json::binary_t& v) { return put(Json::binary(std::move(v))); }
  bool start_object(std::size_t) {
    seen_.emplace_back();
    if (!started_) return started_ = object = true;  // the header itself: not materialised
    return open(Json::object());
  }
  bool end_object() {
    seen_.pop_back();
    if (!stack_.empty()) stack_.pop_back();
    return true;
  }
  bool start_array(std::size_t) { return open(Json::array()); }
  bool end_array() {
    stack_.pop_back();
    return true;
  }
  bool key(std::string& k) {
    if (seen_.size() == 1) {
      top_key_ = k;
      ++top_index_;
    }
    if (!seen_.back().insert(k).second) {
      const std::uint64_t at = 8 + (top_index_ - 1 < keys_.size() ? keys_[top_index_ - 1].pos : 0);
      if (seen_.size() == 1)
        fail(path_, at, fmt::format("tensor {}: the name appears twice in the header (duplicate names are not "
                                    "allowed: readers would disagree on which one is meant)",
                                    st_quoted(k)));
      fail(path_, at, fmt::format("tensor {}: its entry gives the field {} twice", st_quoted(top_key_), st_quoted(k)));
    }
    if (stack_.empty()) {
      entries.emplace_back(std::move(k), Json());
    } else {
      key_ = std::move(k);
    }
    return true;
  }
  // A syntax error (parse_error 101), or a number beyond double's range (out_of_range 406).
  bool parse_error(std::size_t byte, const std::string&, const nlohmann::detail::exception& e) {
    const bool overflow = e.id == 406;
    fail(path_, overflow ? 8 : 8 + (byte > 0 ? byte - 1 : 0), "the header is not valid JSON: " + json_reason(e.what()));
  }

 private:
  // Where the next value goes: the open array or object, the current top-level entry, or the
  // root when the header is not an object. Pointers stay valid: a container only grows after
  // the child opened in it has closed.
  Json* slot() {
    started_ = true;
    if (stack_.empty()) return object ? &entries.back().second : &root_;
    Json& p = *stack_.back();
    if (p.is_array()) {
      p.push_back(Json());
      return &p.back();
    }
    return &p[key_];
  }
  bool put(Json v) {
    *slot() = std::move(v);
    return true;
  }
  bool open(Json c) {
    Json* s = slot();
    *s = std::move(c);
    stack_.push_back(s);
    return true;
  }
  const std::string& path_;
  const std::vector<st_detail::RawKey>& keys_;
  std::vector<std::set<std::string>> seen_;
  std::vector<Json*> stack_;
  std::string key_, top_key_;
  std::size_t top_index_ = 0;
  bool started_ = false;
  Json root_;
};

std::uint64_t unsigned_value(const Json& v, const std::string& path, std::uint64_t at, const std::string& name,
                             const char* field) {
  if (!v.is_number_unsigned())
    fail(path, at, fmt::format("tensor {}: {} must hold non-negative integers (got {})", st_quoted(name), field,
                               printable(v.dump(-1, ' ', false, Json::error_handler_t::replace), 40)));
  return v.get<std::uint64_t>();
}

StTensor read_entry(const std::string& name, const Json& e, std::uint64_t at, const std::string& path) {
  StTensor t;
  t.name = name;
  t.header_byte = at;
  if (name.find('\0') != std::string::npos)
    fail(path, at, fmt::format("tensor {}: the name holds a NUL byte (names cut at NUL by C-string readers are not "
                               "allowed)",
                               st_quoted(name)));
  if (name.find_first_of("/\\") != std::string::npos)
    fail(path, at, fmt::format("tensor {}: the name holds a path separator ('/' or '\\'): a tensor name is never a "
                               "path (not allowed)",
                               st_quoted(name)));
  if (!e.is_object())
    fail(path, at, fmt::format("tensor {}: the entry must be an object with dtype, shape and data_offsets", st_quoted(name)));
  for (const char* field : {"dtype", "shape", "data_offsets"})
    if (!e.contains(field)) fail(path, at, fmt::format("tensor {}: the entry has no \"{}\"", st_quoted(name), field));
  const Json& d = e["dtype"];
  if (!d.is_string()) fail(path, at, fmt::format("tensor {}: dtype must be a string", st_quoted(name)));
  const std::string dt = d.get<std::string>();
  const auto row = std::find_if(kStDtypes.begin(), kStDtypes.end(), [&](const auto& r) { return r.name == dt; });
  if (row == kStDtypes.end())
    fail(path, at, fmt::format("tensor {}: unknown dtype {} (safetensors has {})", st_quoted(name), st_quoted(dt), dtype_list()));
  t.dtype = row->dtype;
  const Json& s = e["shape"];
  if (!s.is_array()) fail(path, at, fmt::format("tensor {}: shape must be a list of integers", st_quoted(name)));
  for (const auto& v : s) {
    const std::uint64_t n = unsigned_value(v, path, at, name, "shape");
    t.shape.push_back(n);
    if (__builtin_mul_overflow(t.elements, n, &t.elements))
      fail(path, at, fmt::format("tensor {}: the shape {} holds more than 2^64 elements", st_quoted(name), s.dump()));
  }
  const Json& o = e["data_offsets"];
  if (!o.is_array() || o.size() != 2)
    fail(path, at, fmt::format("tensor {}: data_offsets must be [BEGIN, END]", st_quoted(name)));
  t.begin = unsigned_value(o[0], path, at, name, "data_offsets");
  t.end = unsigned_value(o[1], path, at, name, "data_offsets");
  std::uint64_t bits = 0;
  if (__builtin_mul_overflow(t.elements, std::uint64_t{row->bits}, &bits))
    fail(path, at, fmt::format("tensor {}: {} elements of {} bits overflow 64 bits", st_quoted(name), t.elements, row->bits));
  if (bits % 8 != 0)
    fail(path, at, fmt::format("tensor {}: {} elements of {} ({} bits each) do not fill whole bytes", st_quoted(name),
                               t.elements, dt, row->bits));
  if (t.end < t.begin)
    fail(path, at, fmt::format("tensor {}: data_offsets [{}, {}] end before they begin", st_quoted(name), t.begin, t.end));
  if (t.end - t.begin != bits / 8)
    fail(path, at, fmt::format("tensor {}: data_offsets [{}, {}] hold {} bytes, but {} {} needs {} ({} elements)",
                               st_quoted(name), t.begin, t.end, t.end - t.begin, dt, s.dump(), bits / 8, t.elements));
  return t;
}

void read_metadata(const Json& m, std::uint64_t at, const std::string& path, StFile& f) {
  if (!m.is_object()) fail(path, at, "__metadata__ must be an object of strings");
  for (const auto& [k, v] : m.items()) {
    if (!v.is_string())
      fail(path, at, fmt::format("__metadata__ {}: values must be strings (got {})", st_quoted(k),
                                 printable(v.dump(-1, ' ', false, Json::error_handler_t::replace), 40)));
    f.metadata.emplace_back(k, v.get<std::string>());
  }
}

/// The data section covered exactly: sorted by offsets, from 0, each tensor where the previous
/// one ends, the last one at the end of the file (tensor.rs Metadata::validate).
void check_coverage(const StFile& f) {
  std::vector<const StTensor*> order;
  for (const auto& t : f.tensors) order.push_back(&t);
  std::stable_sort(order.begin(), order.end(),
                   [](const StTensor* a, const StTensor* b) { return a->begin != b->begin ? a->begin < b->begin : a->end < b->end; });
  const std::uint64_t data_size = f.file_size - f.data_offset;
  std::uint64_t pos = 0;
  const StTensor* prev = nullptr;
  for (const StTensor* t : order) {
    if (t->begin > pos)
      fail(f.path, f.data_offset + pos,
           fmt::format("tensor {}: data_offsets [{}, {}] leave a gap of {} bytes after {} (the data must be covered "
                       "exactly, with no holes)",
                       st_quoted(t->name), t->begin, t->end, t->begin - pos,
                       prev ? "tensor " + st_quoted(prev->name) : std::string("the start of the data")));
    if (t->begin < pos)
      fail(f.path, f.data_offset + t->begin,
           fmt::format("tensor {}: data_offsets [{}, {}] overlap tensor {} (which ends at {}); tensors may not share bytes",
                       st_quoted(t->name), t->begin, t->end, st_quoted(prev->name), pos));
    if (t->end > data_size)
      fail(f.path, f.data_offset + t->begin,
           fmt::format("tensor {}: data_offsets [{}, {}] run past the end of the file ({} bytes of data after the "
                       "header)",
                       st_quoted(t->name), t->begin, t->end, data_size));
    pos = t->end;
    prev = t;
  }
  if (pos != data_size)
    fail(f.path, f.data_offset + pos,
         fmt::format("{} trailing bytes after the last tensor{}: the data section must end where the last tensor "
                     "does",
                     data_size - pos, prev ? " (" + st_quoted(prev->name) + ")" : std::string()));
}

}  // namespace

bool st_detail::dtype_named(std::string_view name, StDtype& out) {
  for (const auto& r : kStDtypes)
    if (r.name == name) {
      out = r.dtype;
      return true;
    }
  return false;
}

std::string_view to_string(StDtype t) {
  for (const auto& r : kStDtypes)
    if (r.dtype == t) return r.name;
  return "?";
}

unsigned dtype_bits(StDtype t) {
  for (const auto& r : kStDtypes)
    if (r.dtype == t) return r.bits;
  return 0;
}

StFile parse_safetensors_header(std::string_view head, std::uint64_t file_size, const std::string& path) {
  StFile f;
  f.path = path;
  f.file_size = file_size;
  if (st_detail::looks_like_pytorch(head)) throw Error(pytorch_refusal(path));
  if (file_size < 8 || head.size() < 8)
    fail(path, 0, fmt::format("the file holds {} bytes, fewer than the 8 of a safetensors header length", file_size));
  std::uint64_t n = 0;
  for (int i = 7; i >= 0; --i) n = (n << 8) | static_cast<unsigned char>(head[static_cast<std::size_t>(i)]);
  if (n > kMaxSafetensorsHeader)
    fail(path, 0, fmt::format("header length {} is more than the {} bytes allowed", n, kMaxSafetensorsHeader));
  if (n > file_size - 8)
    fail(path, 0, fmt::format("header length {} runs past the end of the file ({} bytes after the length)", n,
                              file_size - 8));
  if (head.size() < 8 + n) fail(path, 8, "the header was not read whole");
  f.header_size = n;
  f.data_offset = 8 + n;
  const std::string_view text = head.substr(8, n);
  // nlohmann's lexer reads a NUL byte as the end of the input, so "{...}\0anything" would parse;
  // a NUL is never valid JSON outside a string (where it must be written \u0000).
  if (const auto z = text.find('\0'); z != std::string_view::npos)
    fail(path, 8 + z, "the header holds a NUL byte (not JSON; a header may be padded with spaces only)");
  // A header as writers write it is read by the fast path (safetensors_fast.cpp); the general
  // reader below takes any other, and names what is wrong.
  if (st_detail::parse_header_fast(text, f)) {
    check_coverage(f);
    return f;
  }
  f.tensors.clear();
  f.metadata.clear();
  st_detail::parse_header_general(text, path, f);
  check_coverage(f);
  return f;
}

namespace st_detail {

void parse_header_general(std::string_view text, const std::string& path, StFile& f) {
  const auto keys = st_detail::scan_top_keys(text, path, 8);
  StHeaderSax sax(path, keys);
  Json::sax_parse(text.begin(), text.end(), &sax);
  if (!sax.object) fail(path, 8, "the header must be a JSON object {\"NAME\": {...}, ...}");
  std::size_t i = 0;
  for (const auto& [name, entry] : sax.entries) {
    const std::uint64_t at = 8 + (i < keys.size() && keys.size() == sax.entries.size() ? keys[i].pos : 0);
    ++i;
    if (name == "__metadata__") {
      read_metadata(entry, at, path, f);
      continue;
    }
    f.tensors.push_back(read_entry(name, entry, at, path));
  }
}

}  // namespace st_detail

StFile parse_safetensors(std::string_view bytes, const std::string& path) {
  return parse_safetensors_header(bytes, bytes.size(), path);
}

const StTensor* StCheckpoint::find(std::string_view name) const {
  for (const auto& t : tensors)
    if (t.name == name) return &t;
  return nullptr;
}

}  // namespace posenc::formats
