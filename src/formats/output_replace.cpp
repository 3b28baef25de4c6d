#include "output_replace.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include "posenc/error.hpp"

namespace posenc::formats {

namespace {

std::string reason(int err) { return err != 0 ? std::strerror(err) : "write failed"; }

Error cannot_write(const std::string& path, int err) {
  return Error(fmt::format("-o '{}': cannot write: {}", path, reason(err)));
}

/// Failures once the copy is under way: exit 3, as every failed write.
OutputError write_failed(const std::string& path, int err) {
  return OutputError(fmt::format("-o '{}': cannot write: {}", path, reason(err)));
}

}  // namespace

void check_replaceable(const std::string& path, const std::string& file) {
  struct stat st {};
  if (::stat(file.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return;
  // The test `>` makes: may this process open the file for writing? (AT_EACCESS: the effective
  // ids, as open(2) uses; root passes whatever the mode bits say, as with `>`.)
  if (::faccessat(AT_FDCWD, file.c_str(), W_OK, AT_EACCESS) != 0) throw cannot_write(path, errno);
}

bool copy_attributes(int tmp_fd, const struct stat& existing) {
  // The owner first: fchown clears set-user-ID and set-group-ID bits, fchmod sets them back.
  const bool owner_kept = ::fchown(tmp_fd, existing.st_uid, existing.st_gid) == 0;
  (void)::fchmod(tmp_fd, existing.st_mode & 07777);
  return owner_kept;
}

void copy_in_place(int tmp_fd, const std::string& file, const std::string& path) {
  struct stat st {};
  if (::fstat(tmp_fd, &st) != 0) throw write_failed(path, errno);
  const off_t size = st.st_size;
  const int fd = ::open(file.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) throw write_failed(path, errno);
  struct Closer {
    int fd;
    ~Closer() {
      if (fd >= 0) ::close(fd);
    }
  } closer{fd};
  // Reserve the blocks of the new contents before overwriting anything: a disk that cannot
  // hold them fails here, with the old file intact. KEEP_SIZE leaves the file's size as it
  // is; filesystems without fallocate skip the check.
  if (size > 0 && ::fallocate(fd, FALLOC_FL_KEEP_SIZE, 0, size) != 0 && errno != EOPNOTSUPP && errno != ENOSYS)
    throw write_failed(path, errno);
  std::vector<char> buf(std::size_t{1} << 20);
  for (off_t at = 0; at < size;) {
    const ssize_t n = ::pread(tmp_fd, buf.data(), buf.size(), at);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw write_failed(path, n < 0 ? errno : EIO);
    for (ssize_t done = 0; done < n;) {
      const ssize_t w = ::pwrite(fd, buf.data() + done, static_cast<std::size_t>(n - done), at + done);
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0) throw write_failed(path, w < 0 ? errno : EIO);
      done += w;
    }
    at += n;
  }
  if (::ftruncate(fd, size) != 0) throw write_failed(path, errno);
  if (::fsync(fd) != 0 && errno != EINVAL) throw write_failed(path, errno);
  closer.fd = -1;
  if (::close(fd) != 0) throw write_failed(path, errno);
}

}  // namespace posenc::formats
