#pragma once
/// A whole file mapped read-only into memory (POSIX mmap, PROT_READ, MAP_PRIVATE): tensors are
/// then views of the page cache, with no copy. The mapping lives as long as the object; share
/// it (std::shared_ptr) with whatever holds pointers into it.
#include <cstdint>
#include <memory>
#include <string>

namespace posenc::formats {

class MappedFile {
 public:
  /// Maps `path`; throws Error "PATH: cannot map: REASON" (an empty file maps to no bytes).
  static std::shared_ptr<const MappedFile> open(const std::string& path);
  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  const unsigned char* data() const { return data_; }
  std::uint64_t size() const { return size_; }
  const std::string& path() const { return path_; }
  /// The bytes [offset, offset + bytes) of the file; throws Error naming the file and the byte
  /// offset when they are not all inside it (a file that shrank since its header was read).
  const unsigned char* range(std::uint64_t offset, std::uint64_t bytes) const;

 private:
  MappedFile(std::string path, const unsigned char* data, std::uint64_t size)
      : path_(std::move(path)), data_(data), size_(size) {}
  std::string path_;
  const unsigned char* data_ = nullptr;
  std::uint64_t size_ = 0;
};

}  // namespace posenc::formats
