#include "gguf_source.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

namespace posenc::formats::gguf_detail {
namespace {

constexpr std::size_t kBlock = std::size_t{1} << 16;

class FileSource : public Source {
 public:
  FileSource(std::FILE* f, std::uint64_t size, std::string path) : f_(f), size_(size), path_(std::move(path)) {}
  ~FileSource() override { std::fclose(f_); }
  FileSource(const FileSource&) = delete;
  FileSource& operator=(const FileSource&) = delete;
  std::uint64_t size() const override { return size_; }
  void read(std::uint64_t offset, char* dst, std::size_t n) const override {
    if (fseeko(f_, static_cast<off_t>(offset), SEEK_SET) != 0 || std::fread(dst, 1, n, f_) != n)
      throw Error(fmt::format("'{}': cannot read bytes {}..{}: {}", path_, offset, offset + n,
                              std::ferror(f_) ? std::strerror(errno) : "the file shrank while it was read"));
  }

 private:
  std::FILE* f_;
  std::uint64_t size_;
  std::string path_;
};

}  // namespace

void MemorySource::read(std::uint64_t offset, char* dst, std::size_t n) const {
  std::memcpy(dst, b_.data() + offset, n);
}

std::unique_ptr<Source> open_file(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw Error(fmt::format("'{}' is a folder, not a GGUF file", path));
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) throw Error(fmt::format("'{}': cannot read: {}", path, std::strerror(errno)));
  if (fseeko(f, 0, SEEK_END) != 0) {
    std::fclose(f);
    throw Error(fmt::format("'{}': cannot read: not a regular file (a GGUF file is read by seeking)", path));
  }
  const off_t size = ftello(f);
  if (size < 0) {
    std::fclose(f);
    throw Error(fmt::format("'{}': cannot read: {}", path, std::strerror(errno)));
  }
  return std::make_unique<FileSource>(f, static_cast<std::uint64_t>(size), path);
}

TypeInfo ggml_type_info(std::uint32_t type) {
  // ggml.c type_traits (blck_size, type_size); ids 4, 5, 31-33 and 36-38 were removed.
  static constexpr TypeInfo kTypes[] = {
      {"F32", 1, 4},       {"F16", 1, 2},      {"Q4_0", 32, 18},    {"Q4_1", 32, 20},    {"", 0, 0},
      {"", 0, 0},          {"Q5_0", 32, 22},   {"Q5_1", 32, 24},    {"Q8_0", 32, 34},    {"Q8_1", 32, 36},
      {"Q2_K", 256, 84},   {"Q3_K", 256, 110}, {"Q4_K", 256, 144},  {"Q5_K", 256, 176},  {"Q6_K", 256, 210},
      {"Q8_K", 256, 292},  {"IQ2_XXS", 256, 66}, {"IQ2_XS", 256, 74}, {"IQ3_XXS", 256, 98}, {"IQ1_S", 256, 50},
      {"IQ4_NL", 32, 18},  {"IQ3_S", 256, 110}, {"IQ2_S", 256, 82}, {"IQ4_XS", 256, 136}, {"I8", 1, 1},
      {"I16", 1, 2},       {"I32", 1, 4},      {"I64", 1, 8},       {"F64", 1, 8},       {"IQ1_M", 256, 56},
      {"BF16", 1, 2},      {"", 0, 0},         {"", 0, 0},          {"", 0, 0},          {"TQ1_0", 256, 54},
      {"TQ2_0", 256, 66},  {"", 0, 0},         {"", 0, 0},          {"", 0, 0},          {"MXFP4", 32, 17},
  };
  return type < std::size(kTypes) ? kTypes[type] : TypeInfo{};
}

void Reader::bytes(char* dst, std::size_t n, const char* what) {
  if (n > remaining())
    fail(pos_, fmt::format("the file ends after {} bytes: {} needs {} bytes, {} left", size(), what, n, remaining()));
  if (n > kBlock) {  // large reads go straight to the source
    src_.read(pos_, dst, n);
    pos_ += n;
    return;
  }
  if (pos_ < buf_start_ || pos_ + n > buf_start_ + buf_.size()) {
    buf_start_ = pos_;
    buf_.resize(static_cast<std::size_t>(std::min<std::uint64_t>(kBlock, remaining())));
    src_.read(buf_start_, buf_.data(), buf_.size());
  }
  std::memcpy(dst, buf_.data() + (pos_ - buf_start_), n);
  pos_ += n;
}

void Reader::skip(std::uint64_t n, const char* what) {
  if (n > remaining())
    fail(pos_, fmt::format("the file ends after {} bytes: {} needs {} bytes, {} left", size(), what, n, remaining()));
  pos_ += n;
}

std::uint64_t Reader::length(const char* what) {
  const std::uint64_t at = pos_;
  const std::uint64_t n = count(what);
  if (n > remaining())
    fail(at, fmt::format("{} {} runs past the end of the file ({} bytes left)", what, n, remaining()));
  return n;
}

void Reader::skip_strings(std::uint64_t count, const char* what_len, const char* what) {
  const std::size_t w = v1 ? 4 : 8;
  for (std::uint64_t i = 0; i < count; ++i) {
    if (pos_ >= buf_start_ && pos_ + w <= buf_start_ + buf_.size()) {
      const auto* p = reinterpret_cast<const unsigned char*>(buf_.data() + (pos_ - buf_start_));
      std::uint64_t n = 0;
      for (std::size_t k = 0; k < w; ++k) n |= static_cast<std::uint64_t>(p[swap ? w - 1 - k : k]) << (8 * k);
      if (n <= size_ - pos_ - w) {  // what length() and skip() accept
        pos_ += w + n;
        continue;
      }
    }
    skip(length(what_len), what);  // a refill of the buffer, or the error in their words
  }
}

std::string Reader::text(std::size_t n, const char* what) {
  std::string s(n, '\0');
  bytes(s.data(), n, what);
  return s;
}

}  // namespace posenc::formats::gguf_detail
