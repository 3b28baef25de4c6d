#include "posenc/io/output.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "posenc/error.hpp"

namespace posenc::io {

namespace {

// Temporary files being written, as fixed buffers so that a signal handler can unlink
// them without allocating (remove_pending_temp_files).
constexpr std::size_t kSlots = 8;
constexpr std::size_t kPathMax = 4096;
char g_paths[kSlots][kPathMax];
std::atomic<bool> g_used[kSlots];

/// Records a temp file; returns its slot, or kSlots when full or too long (then not recorded).
std::size_t register_temp(const std::string& path) {
  if (path.size() >= kPathMax) return kSlots;
  for (std::size_t i = 0; i < kSlots; ++i) {
    if (g_used[i].load()) continue;
    std::memcpy(g_paths[i], path.c_str(), path.size() + 1);
    g_used[i].store(true);
    return i;
  }
  return kSlots;
}

void unregister_temp(std::size_t slot) {
  if (slot < kSlots) g_used[slot].store(false);
}

/// Unix permissions a new file would get (0666 minus the umask), or those of the file replaced.
mode_t target_mode(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) return st.st_mode & 07777;
  const mode_t mask = ::umask(0);
  ::umask(mask);
  return 0666 & ~mask;
}

std::string error_text(int err) { return err != 0 ? std::strerror(err) : "write failed"; }

}  // namespace

void remove_pending_temp_files() {
  for (std::size_t i = 0; i < kSlots; ++i) {
    if (g_used[i].load()) ::unlink(g_paths[i]);
  }
}

namespace {

void write_file(const std::string& path, bool binary, const std::string& kind,
                const std::function<void(std::ostream&)>& write) {
  if (path == "-") {
    if (binary && ::isatty(STDOUT_FILENO) != 0) {
      throw Error(fmt::format("refusing to write binary {} to a terminal: give -o FILE or redirect stdout", kind));
    }
    write(std::cout);
    std::cout.flush();
    if (!std::cout) throw Error(fmt::format("cannot write to stdout: {}", error_text(errno)));
    return;
  }
  const std::filesystem::path target(path);
  const std::filesystem::path dir = target.has_parent_path() ? target.parent_path() : ".";
  std::string tmp = (dir / fmt::format(".{}.XXXXXX.tmp", target.filename().string())).string();
  const int fd = ::mkstemps(tmp.data(), 4);
  if (fd < 0) throw Error(fmt::format("cannot write '{}': {}", path, error_text(errno)));
  const std::size_t slot = register_temp(tmp);
  const auto discard = [&] {
    ::close(fd);
    ::unlink(tmp.c_str());
    unregister_temp(slot);
  };
  try {
    ::fchmod(fd, target_mode(path));  // mkstemp creates 0600; give the usual permissions
    {
      // mkstemps made the file, empty: open it without O_TRUNC ("r+"). On ext4, truncating a
      // file (even an empty one) marks it for block allocation at close, so close() would
      // start writeback of everything written and wait for it (0.12 s for 512 MB).
      const auto mode = std::ios::in | std::ios::out;
      std::ofstream out(tmp, binary ? mode | std::ios::binary : mode);
      errno = 0;
      if (out) write(out);
      out.flush();
      if (!out) throw Error(fmt::format("cannot write '{}': {}", path, error_text(errno)));
      out.close();
      if (!out) throw Error(fmt::format("cannot write '{}': {}", path, error_text(errno)));
    }
    // When an existing file is replaced, the new data must be on disk before the rename, or a
    // crash of the machine could leave neither version. A new file has nothing to lose, and
    // fsync would make a run wait for the disk instead of the page cache (seconds for 1 GB).
    struct stat existing {};
    if (::stat(path.c_str(), &existing) == 0 && ::fsync(fd) != 0 && errno != EINVAL)
      throw Error(fmt::format("cannot write '{}': {}", path, error_text(errno)));
    if (std::rename(tmp.c_str(), path.c_str()) != 0) {
      throw Error(fmt::format("cannot write '{}': {}", path, error_text(errno)));
    }
  } catch (...) {
    discard();
    throw;
  }
  ::close(fd);
  unregister_temp(slot);
}

}  // namespace

void write_atomically(const std::string& path, bool binary, const std::function<void(std::ostream&)>& write) {
  write_file(path, binary, "output", write);
}

void write_atomically(const std::string& path, Format format, const std::function<void(std::ostream&)>& write) {
  write_file(path, info(format).binary, info(format).name, write);
}

void check_writable(const std::string& path) {
  if (path == "-") return;
  const std::filesystem::path target(path);
  const std::filesystem::path dir = target.has_parent_path() ? target.parent_path() : ".";
  std::error_code ec;
  if (std::filesystem::is_directory(target, ec)) throw Error(fmt::format("-o '{}' is a folder: give a file name", path));
  if (!std::filesystem::exists(dir, ec)) {
    throw Error(fmt::format("-o '{}': folder '{}' does not exist", path, dir.string()));
  }
  if (!std::filesystem::is_directory(dir, ec)) throw Error(fmt::format("-o '{}': '{}' is not a folder", path, dir.string()));
  if (::access(dir.c_str(), W_OK) != 0) {
    throw Error(fmt::format("-o '{}': folder '{}' is not writable", path, dir.string()));
  }
}

}  // namespace posenc::io
