#include "posenc/formats/mapped_file.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cerrno>
#include <cstring>

#include "posenc/error.hpp"

namespace posenc::formats {

std::shared_ptr<const MappedFile> MappedFile::open(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw Error(fmt::format("{}: cannot map: {}", path, std::strerror(errno)));
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    const int e = errno;
    ::close(fd);
    throw Error(fmt::format("{}: cannot map: {}", path, std::strerror(e)));
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    throw Error(fmt::format("{}: cannot map: not a regular file", path));
  }
  const auto size = static_cast<std::uint64_t>(st.st_size);
  void* p = nullptr;
  if (size > 0) {
    p = ::mmap(nullptr, static_cast<std::size_t>(size), PROT_READ, MAP_PRIVATE, fd, 0);
    if (p == MAP_FAILED) {
      const int e = errno;
      ::close(fd);
      throw Error(fmt::format("{}: cannot map: {}", path, std::strerror(e)));
    }
  }
  ::close(fd);  // the mapping keeps the file
  return std::shared_ptr<const MappedFile>(new MappedFile(path, static_cast<const unsigned char*>(p), size));
}

MappedFile::~MappedFile() {
  if (data_ != nullptr) ::munmap(const_cast<unsigned char*>(data_), static_cast<std::size_t>(size_));
}

const unsigned char* MappedFile::range(std::uint64_t offset, std::uint64_t bytes) const {
  if (offset > size_ || bytes > size_ - offset)
    throw Error(fmt::format("{}: byte {}: {} bytes of tensor data run past the end of the file ({} bytes)", path_,
                            offset, bytes, size_));
  return data_ + offset;
}

}  // namespace posenc::formats
