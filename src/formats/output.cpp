#include "posenc/formats/output.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>

#include "output_replace.hpp"
#include "output_target.hpp"
#include "posenc/error.hpp"
#include "posenc/formats/fd_stream.hpp"
#include "posenc/memory.hpp"

namespace posenc::formats {

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

/// Unix permissions a new file gets: 0666 minus the umask.
mode_t new_file_mode() {
  const mode_t mask = ::umask(0);
  ::umask(mask);
  return 0666 & ~mask;
}

std::string error_text(int err) { return err != 0 ? std::strerror(err) : "write failed"; }

Error cannot_write(const std::string& path, const std::string& why) {
  return Error(fmt::format("-o '{}': cannot write: {}", path, why));
}

/// A write that failed once under way (exit 3, not a usage error).
OutputError write_failed(const std::string& path, const std::string& why) {
  return OutputError(fmt::format("-o '{}': cannot write: {}", path, why));
}

/// `.NAME.XXXXXX.tmp`, with NAME cut so that the whole stays within NAME_MAX (255 bytes).
std::string temp_name(const std::string& file) {
  const std::string name = std::filesystem::path(file).filename().string();
  return fmt::format(".{}.XXXXXX.tmp", name.substr(0, 200));
}

/// Runs `write` on `out` with every write checked; a failed write throws Error(`fail(why)`).
template <class Fail>
void checked_write(std::ostream& out, const std::function<void(std::ostream&)>& write, const Fail& fail) {
  if (!out) throw fail(stream_error(out));
  const auto old = out.exceptions();
  out.exceptions(std::ios::badbit);  // the first failed write throws, mid-table
  try {
    write(out);
    out.flush();
  } catch (const std::ios_base::failure&) {
    out.exceptions(old);
    throw fail(stream_error(out));
  } catch (...) {
    out.exceptions(old);
    throw;
  }
  out.exceptions(old);
}

void refuse_terminal(int fd, bool binary, const std::string& kind) {
  if (binary && ::isatty(fd) != 0)
    throw Error(fmt::format("refusing to write binary {} to a terminal: give -o FILE or redirect stdout", kind));
}

/// A device, FIFO or descriptor: written as it is, like the shell's `>`.
void write_through(const std::string& path, const OutputTarget& t, bool binary, const std::string& kind,
                   const std::function<void(std::ostream&)>& write) {
  int fd = t.fd;
  if (t.kind == OutputTarget::Kind::kDevice) {
    fd = ::open(t.file.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) throw cannot_write(path, error_text(errno));
  } else if (::fcntl(fd, F_GETFL) < 0) {
    throw cannot_write(path, error_text(errno));
  }
  struct Closer {
    int fd;
    bool own;
    ~Closer() {
      if (own) ::close(fd);
    }
  } closer{fd, t.kind == OutputTarget::Kind::kDevice};
  refuse_terminal(fd, binary, kind);
  FdOStream out(fd);
  checked_write(out, write, [&](const std::string& why) { return write_failed(path, why); });
}

void write_file(const std::string& path, bool binary, const std::string& kind,
                const std::function<void(std::ostream&)>& write, std::uint64_t min_bytes) {
  if (path == "-") {
    refuse_terminal(STDOUT_FILENO, binary, kind);
    return write_to_stdout(std::cout, write);
  }
  const OutputTarget target = resolve_output(path);
  if (target.kind != OutputTarget::Kind::kFile) return write_through(path, target, binary, kind, write);
  const std::string& file = target.file;  // the file a symbolic link names, or `path`
  check_replaceable(path, file);  // refused where `>` would be: before any byte is written
  check_free_space(path, min_bytes);
  std::string tmp = (std::filesystem::path(folder_of(file)) / temp_name(file)).string();
  int fd = ::mkstemps(tmp.data(), 4);
  if (fd < 0) throw cannot_write(path, error_text(errno));
  const std::size_t slot = register_temp(tmp);
  try {
    // mkstemp creates 0600: a new file gets the usual permissions, a replaced one its own
    // mode, owner and group. When the owner or group cannot be kept (another user's file we
    // may write) or other hard links share the file, a rename would change what they see:
    // the finished output is then copied into the file in place, as `>` would write it.
    struct stat existing {};
    const bool exists = ::stat(file.c_str(), &existing) == 0;
    const bool in_place = exists && (!copy_attributes(fd, existing) || existing.st_nlink > 1);
    if (!exists) ::fchmod(fd, new_file_mode());
    // Reserve the bytes the output is known to need (exact for .npy, a lower bound for text) in
    // one call: the filesystem allocates one extent instead of growing the file block by block
    // (system time of a 537 MB .npy in six interleaved runs: 0.14-0.18 s without, 0.10-0.14 s with). KEEP_SIZE leaves the size at
    // 0 until written, so a failed run never shows a file of zeros. Filesystems without
    // fallocate (tmpfs on old kernels, some network filesystems) just skip it.
    if (min_bytes > 0) (void)::fallocate(fd, FALLOC_FL_KEEP_SIZE, 0, static_cast<off_t>(min_bytes));
    {
      // Written through the descriptor mkstemps opened: no reopening, no O_TRUNC (on ext4,
      // truncating a file, even an empty one, makes close() wait for its writeback).
      FdOStream out(fd);
      checked_write(out, write, [&](const std::string& why) { return write_failed(path, why); });
    }
    // When an existing file is replaced, the new data must be on disk before the rename, or a
    // crash of the machine could leave neither version. A new file has nothing to lose, and
    // fsync would make a run wait for the disk instead of the page cache (seconds for 1 GB).
    if (in_place) {
      copy_in_place(fd, file, path);
    } else if (exists && ::fsync(fd) != 0 && errno != EINVAL) {
      throw write_failed(path, error_text(errno));
    }
    const int closed = ::close(fd);  // NFS and some filesystems report a failed write only here
    fd = -1;
    if (closed != 0) throw write_failed(path, error_text(errno));
    if (in_place) {
      ::unlink(tmp.c_str());
    } else if (std::rename(tmp.c_str(), file.c_str()) != 0) {  // a name the folder refuses: usage, exit 2
      throw cannot_write(path, error_text(errno));
    }
  } catch (...) {
    if (fd >= 0) ::close(fd);
    ::unlink(tmp.c_str());
    unregister_temp(slot);
    throw;
  }
  unregister_temp(slot);
}

}  // namespace

void remove_pending_temp_files() {
  for (std::size_t i = 0; i < kSlots; ++i) {
    if (g_used[i].load()) ::unlink(g_paths[i]);
  }
}

void write_atomically(const std::string& path, bool binary, const std::function<void(std::ostream&)>& write,
                      std::uint64_t min_bytes) {
  write_file(path, binary, "output", write, min_bytes);
}

void write_atomically(const std::string& path, Format format, const std::function<void(std::ostream&)>& write,
                      std::uint64_t min_bytes) {
  write_file(path, info(format).binary, info(format).name, write, min_bytes);
}

void write_to_stdout(std::ostream& out, const std::function<void(std::ostream&)>& write) {
  checked_write(out, write, [](const std::string& why) { return OutputError("cannot write to stdout: " + why); });
}

void check_free_space(const std::string& path, std::uint64_t bytes) {
  if (path == "-" || bytes == 0) return;
  const OutputTarget target = resolve_output(path);
  if (target.kind != OutputTarget::Kind::kFile) return;
  struct statvfs fs {};
  // A missing folder is reported elsewhere; /proc and other pseudo filesystems have no blocks.
  if (::statvfs(folder_of(target.file).c_str(), &fs) != 0 || fs.f_blocks == 0) return;
  const double free = static_cast<double>(fs.f_bavail) * static_cast<double>(fs.f_frsize);
  if (static_cast<double>(bytes) <= free) return;
  throw Error(fmt::format("-o '{}': the output needs at least {}, the disk has {} free", path,
                          format_bytes(static_cast<double>(bytes)), format_bytes(free)));
}

void check_writable(const std::string& path) {
  if (path == "-") return;
  const OutputTarget target = resolve_output(path);  // refuses folders and block devices
  if (target.kind == OutputTarget::Kind::kFd) return;
  if (target.kind == OutputTarget::Kind::kDevice) {
    if (::access(target.file.c_str(), W_OK) != 0) throw cannot_write(path, error_text(errno));
    return;
  }
  const std::filesystem::path dir = folder_of(target.file);
  std::error_code ec;
  if (!std::filesystem::exists(dir, ec)) {
    throw Error(fmt::format("-o '{}': folder '{}' does not exist", path, dir.string()));
  }
  if (!std::filesystem::is_directory(dir, ec)) throw Error(fmt::format("-o '{}': '{}' is not a folder", path, dir.string()));
  if (::access(dir.c_str(), W_OK) != 0) {
    throw Error(fmt::format("-o '{}': folder '{}' is not writable", path, dir.string()));
  }
  check_replaceable(path, target.file);
}

}  // namespace posenc::formats
