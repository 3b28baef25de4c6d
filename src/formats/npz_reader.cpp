// parse_npz, declared in readers.hpp: numpy's .npz (np.savez, np.savez_compressed), a zip
// archive of .npy members, stored or deflated, with ZIP64 extra fields (numpy writes every
// member with force_zip64). The archive is read by libzip (Debian's libzip-dev): it parses
// the central directory, checks it against the local headers (ZIP_CHECKCONS), inflates and
// verifies each member's CRC-32, all of it fuzzed upstream (OSS-Fuzz); a zip parser of our
// own would have to get each of these right again on hostile bytes.
// libzip is loaded (dlopen) the first time an .npz is read, not linked: linked, it and what it
// pulls in (libcrypto, libbz2, liblzma, libzstd, libz) were loaded and relocated at the start
// of every posenc run, about 1 ms of CPU each time (docs/performance.md, issue 28).
#include <dlfcn.h>
#include <fmt/format.h>
#include <zip.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "posenc/error.hpp"
#include "posenc/formats/readers.hpp"
#include "posenc/memory.hpp"
#include "posenc/text.hpp"

namespace posenc::formats {

namespace {

[[noreturn]] void fail_npz(const std::string& name, const std::string& what) {
  throw Error(fmt::format("--input '{}': {}", name, what));
}

/// The libzip functions the reader calls, looked up in the soname the build was compiled
/// against (libzip.so.4: Debian's libzip4, which the .deb depends on). Types from <zip.h>.
struct LibZip {
  decltype(&::zip_error_init) error_init = nullptr;
  decltype(&::zip_error_fini) error_fini = nullptr;
  decltype(&::zip_error_strerror) error_strerror = nullptr;
  decltype(&::zip_source_buffer_create) source_buffer_create = nullptr;
  decltype(&::zip_source_free) source_free = nullptr;
  decltype(&::zip_open_from_source) open_from_source = nullptr;
  decltype(&::zip_discard) discard = nullptr;
  decltype(&::zip_strerror) strerror = nullptr;
  decltype(&::zip_get_num_entries) get_num_entries = nullptr;
  decltype(&::zip_get_name) get_name = nullptr;
  decltype(&::zip_stat_init) stat_init = nullptr;
  decltype(&::zip_stat_index) stat_index = nullptr;
  decltype(&::zip_fopen_index) fopen_index = nullptr;
  decltype(&::zip_fread) fread = nullptr;
  decltype(&::zip_fclose) fclose = nullptr;
  decltype(&::zip_file_strerror) file_strerror = nullptr;
};

template <class F>
void zip_symbol(void* handle, F& f, const char* symbol, std::string& missing) {
  f = reinterpret_cast<F>(::dlsym(handle, symbol));
  if (f == nullptr && missing.empty()) missing = symbol;
}

/// Loaded once, on the first .npz; an Error naming the library when it cannot be.
const LibZip& libzip(const std::string& name) {
  static const LibZip lib = [] {
    LibZip l;
    void* h = ::dlopen("libzip.so.4", RTLD_NOW | RTLD_LOCAL);
    if (h == nullptr) return l;
    std::string missing;
    zip_symbol(h, l.error_init, "zip_error_init", missing);
    zip_symbol(h, l.error_fini, "zip_error_fini", missing);
    zip_symbol(h, l.error_strerror, "zip_error_strerror", missing);
    zip_symbol(h, l.source_buffer_create, "zip_source_buffer_create", missing);
    zip_symbol(h, l.source_free, "zip_source_free", missing);
    zip_symbol(h, l.open_from_source, "zip_open_from_source", missing);
    zip_symbol(h, l.discard, "zip_discard", missing);
    zip_symbol(h, l.strerror, "zip_strerror", missing);
    zip_symbol(h, l.get_num_entries, "zip_get_num_entries", missing);
    zip_symbol(h, l.get_name, "zip_get_name", missing);
    zip_symbol(h, l.stat_init, "zip_stat_init", missing);
    zip_symbol(h, l.stat_index, "zip_stat_index", missing);
    zip_symbol(h, l.fopen_index, "zip_fopen_index", missing);
    zip_symbol(h, l.fread, "zip_fread", missing);
    zip_symbol(h, l.fclose, "zip_fclose", missing);
    zip_symbol(h, l.file_strerror, "zip_file_strerror", missing);
    if (!missing.empty()) l.error_init = nullptr;  // an unusable libzip: refused below
    return l;
  }();
  if (lib.error_init == nullptr)
    fail_npz(name, "reading an .npz needs libzip (libzip.so.4, Debian's package libzip4), which could not be loaded: "
                   "install it, or save the array with np.save as an .npy");
  return lib;
}

struct Archive {
  const LibZip& lib;
  zip_t* z = nullptr;
  ~Archive() {
    if (z != nullptr) lib.discard(z);
  }
};

struct Member {
  const LibZip& lib;
  zip_file_t* f = nullptr;
  ~Member() {
    if (f != nullptr) lib.fclose(f);
  }
};

bool ends_with(const std::string& s, std::string_view tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

/// The member names, as np.load(...).files shows them: without ".npy".
std::string member_list(const std::vector<std::string>& names) {
  std::vector<std::string> shown;
  for (std::size_t i = 0; i < names.size() && i < 20; ++i) {
    const std::string& n = names[i];
    // (fmt, not "'" + string: g++ 12 -O3 sees a false -Wstringop-overflow in that operator+)
    shown.push_back(fmt::format("'{}'", printable(ends_with(n, ".npy") ? n.substr(0, n.size() - 4) : n, 60)));
  }
  if (names.size() > 20) shown.push_back(fmt::format("and {} more", names.size() - 20));
  return fmt::format("{}", fmt::join(shown, ", "));
}

}  // namespace

NpyArray parse_npz(std::string_view bytes, const std::string& name, const ReadOptions& opts,
                   std::vector<std::string>* notes) {
  if (bytes.substr(0, 4) != std::string_view("PK\x03\x04", 4) && bytes.substr(0, 4) != std::string_view("PK\x05\x06", 4))
    fail_npz(name, "not an .npz file (no zip signature 'PK\\x03\\x04' at byte 0)");
  const LibZip& lz = libzip(name);
  zip_error_t error;
  lz.error_init(&error);
  zip_source_t* source = lz.source_buffer_create(bytes.data(), bytes.size(), 0, &error);
  if (source == nullptr) fail_npz(name, fmt::format("cannot read the .npz: {}", lz.error_strerror(&error)));
  Archive archive{lz};
  archive.z = lz.open_from_source(source, ZIP_RDONLY | ZIP_CHECKCONS, &error);
  if (archive.z == nullptr) {
    lz.source_free(source);
    const std::string why = lz.error_strerror(&error);
    lz.error_fini(&error);
    fail_npz(name, fmt::format("not a readable .npz (zip) archive: {}", why));
  }
  lz.error_fini(&error);
  const zip_int64_t count = lz.get_num_entries(archive.z, 0);
  std::vector<std::string> names;
  for (zip_int64_t i = 0; i < count; ++i) {
    const char* n = lz.get_name(archive.z, static_cast<zip_uint64_t>(i), ZIP_FL_ENC_RAW);
    names.emplace_back(n == nullptr ? "" : n);
  }
  // The member: --npz-key NAME (with or without .npy), else the first .npy.
  std::size_t chosen = names.size();
  const std::string& key = opts.npz_key;
  for (std::size_t i = 0; i < names.size() && chosen == names.size(); ++i) {
    if (key.empty() ? ends_with(names[i], ".npy") : (names[i] == key || names[i] == key + ".npy")) chosen = i;
  }
  if (chosen == names.size()) {
    if (names.empty()) fail_npz(name, "the .npz archive holds no arrays");
    if (key.empty()) fail_npz(name, fmt::format("the .npz archive holds no .npy member (it holds {})", member_list(names)));
    fail_npz(name, fmt::format("--npz-key '{}': no such array in the .npz; it holds {}", printable(key), member_list(names)));
  }
  const std::string& chosen_name = names[chosen];
  const std::string label = name + ":" + printable(chosen_name, 200);
  zip_stat_t st;
  lz.stat_init(&st);
  if (lz.stat_index(archive.z, chosen, 0, &st) != 0 || (st.valid & ZIP_STAT_SIZE) == 0)
    fail_npz(label, fmt::format("cannot read the member: {}", lz.strerror(archive.z)));
  // The member's bytes are refused past the memory limit before they are inflated; the
  // stated size is checked again against what inflating gives.
  const std::uint64_t limit = memory_limit();
  if (st.size > limit) {
    fail_npz(label, fmt::format("the member inflates to {}, more than the memory limit of {}: give --max-memory SIZE to "
                            "allow it",
                            format_bytes(static_cast<double>(st.size)), format_bytes(static_cast<double>(limit))));
  }
  Member file{lz};
  file.f = lz.fopen_index(archive.z, chosen, 0);
  if (file.f == nullptr) fail_npz(label, fmt::format("cannot read the member: {}", lz.strerror(archive.z)));
  std::string data(static_cast<std::size_t>(st.size), '\0');
  std::size_t got = 0;
  while (got < data.size()) {
    const zip_int64_t n = lz.fread(file.f, data.data() + got, data.size() - got);
    if (n < 0) fail_npz(label, fmt::format("cannot read the member: {}", lz.file_strerror(file.f)));
    if (n == 0) break;
    got += static_cast<std::size_t>(n);
  }
  char extra = 0;
  const zip_int64_t more = got == data.size() ? lz.fread(file.f, &extra, 1) : 0;
  if (more < 0) fail_npz(label, fmt::format("cannot read the member: {}", lz.file_strerror(file.f)));
  if (got != data.size() || more != 0)
    fail_npz(label, fmt::format("the member's data does not match the {} bytes its zip entry states", st.size));
  auto array = parse_npy_array(data, label, opts);
  const auto arrays = std::count_if(names.begin(), names.end(), [](const auto& n) { return ends_with(n, ".npy"); });
  if (notes != nullptr && key.empty() && arrays > 1)
    notes->push_back(fmt::format("--input '{}': read the first of its {} arrays, {} ({}); --npz-key NAME reads another",
                                 name, arrays, member_list({chosen_name}), member_list(names)));
  return array;
}

}  // namespace posenc::formats
