#include "posenc/formats/file.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "posenc/error.hpp"
#include "posenc/memory.hpp"

namespace posenc::formats {

std::uint64_t regular_file_size(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return UINT64_MAX;
  return static_cast<std::uint64_t>(st.st_size);
}

std::string read_small_file(const std::string& path, std::string_view option, std::uint64_t limit, std::string_view why) {
  const auto too_big = [&](const std::string& size) {
    return Error(fmt::format("{} '{}': the file holds {}, more than the {} allowed{}", option, path, size,
                             format_bytes(static_cast<double>(limit)), why));
  };
  // "-" is stdin (a duplicate, so that closing it leaves fd 0 alone).
  const int fd = path == "-" ? ::fcntl(0, F_DUPFD_CLOEXEC, 0) : ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) throw Error(fmt::format("{} '{}': cannot read: {}", option, path, std::strerror(errno)));
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  struct stat st {};
  if (::fstat(fd, &st) != 0) throw Error(fmt::format("{} '{}': cannot read: {}", option, path, std::strerror(errno)));
  if (S_ISDIR(st.st_mode)) throw Error(fmt::format("{} '{}' is a folder: give a file", option, path));
  const bool regular = S_ISREG(st.st_mode);
  if (regular && static_cast<std::uint64_t>(st.st_size) > limit)
    throw too_big(format_bytes(static_cast<double>(st.st_size)));
  // A regular file is read to its end (it may have grown); anything else up to the limit + 1
  // byte, which tells "exactly the limit" from "more".
  std::string bytes;
  if (regular) bytes.reserve(static_cast<std::size_t>(st.st_size));
  char buf[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw Error(fmt::format("{} '{}': cannot read: {}", option, path, std::strerror(errno)));
    }
    if (n == 0) break;
    bytes.append(buf, static_cast<std::size_t>(n));
    if (bytes.size() <= limit) continue;
    if (regular) throw too_big(format_bytes(static_cast<double>(bytes.size())));
    throw Error(fmt::format("{} '{}': not a regular file, and it gives more than the {} allowed{}", option, path,
                            format_bytes(static_cast<double>(limit)), why));
  }
  return bytes;
}

}  // namespace posenc::formats
