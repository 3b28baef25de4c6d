#include "output_target.hpp"

#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <optional>

#include "posenc/error.hpp"

namespace posenc::formats {

namespace fs = std::filesystem;

namespace {

/// The descriptor a path names on Linux without being a file of its own: /dev/stdout,
/// /dev/fd/N, /proc/self/fd/N (`>(cat)` gives /dev/fd/63). Opening such a path would make
/// a new open file (losing O_APPEND, or truncating what the shell set up); writing to the
/// descriptor keeps the shell's redirection as it is.
std::optional<int> fd_alias(const std::string& p) {
  if (p == "/dev/stdin") return 0;
  if (p == "/dev/stdout") return 1;
  if (p == "/dev/stderr") return 2;
  for (const std::string& prefix : {std::string("/dev/fd/"), std::string("/proc/self/fd/"),
                                   std::string("/proc/thread-self/fd/"), fmt::format("/proc/{}/fd/", ::getpid())}) {
    if (p.rfind(prefix, 0) != 0) continue;
    const char* first = p.data() + prefix.size();
    const char* last = p.data() + p.size();
    int fd = -1;
    const auto [end, ec] = std::from_chars(first, last, fd);
    if (ec == std::errc() && end == last && first != last && fd >= 0) return fd;
  }
  return std::nullopt;
}

std::string absolute_text(const fs::path& p) {
  std::error_code ec;
  const fs::path a = fs::absolute(p, ec);
  return (ec ? p : a).lexically_normal().string();
}

}  // namespace

std::string folder_of(const std::string& file) {
  const fs::path p(file);
  return p.has_parent_path() ? p.parent_path().string() : std::string(".");
}

OutputTarget resolve_output(const std::string& path) {
  fs::path p(path);
  for (int hop = 0; hop < 40; ++hop) {
    if (const auto fd = fd_alias(absolute_text(p))) return {OutputTarget::Kind::kFd, path, *fd};
    struct stat st {};
    if (::lstat(p.c_str(), &st) != 0) return {OutputTarget::Kind::kFile, p.string(), -1};  // a new file
    if (S_ISLNK(st.st_mode)) {
      // Replace the file the link names, next to it: the link itself survives.
      std::error_code ec;
      const fs::path to = fs::read_symlink(p, ec);
      if (ec) throw Error(fmt::format("-o '{}': cannot read the symbolic link: {}", path, ec.message()));
      p = to.is_absolute() ? to : p.parent_path() / to;
      continue;
    }
    if (S_ISREG(st.st_mode)) return {OutputTarget::Kind::kFile, p.string(), -1};
    if (S_ISDIR(st.st_mode)) throw Error(fmt::format("-o '{}' is a folder: give a file name", path));
    if (S_ISBLK(st.st_mode)) throw Error(fmt::format("-o '{}' is a block device: give a file name", path));
    return {OutputTarget::Kind::kDevice, p.string(), -1};  // character device, FIFO or socket
  }
  throw Error(fmt::format("-o '{}': {}", path, std::strerror(ELOOP)));
}

}  // namespace posenc::formats
