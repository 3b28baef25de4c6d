#pragma once
// Where `-o PATH` really writes: a regular file replaced atomically (symbolic links followed
// to the file they name), or something written straight through: a file descriptor
// (/dev/stdout, /dev/fd/N, /proc/self/fd/N), a character device or a FIFO.
#include <string>

namespace posenc::formats {

struct OutputTarget {
  enum class Kind { kFile, kFd, kDevice };
  Kind kind = Kind::kFile;
  std::string file;  ///< kFile: the file to create or replace; kDevice: the path to open
  int fd = -1;       ///< kFd: the descriptor named
};

/// Resolves `path` (not "-"). Throws Error naming -o for a folder, a block device or a loop
/// of symbolic links.
OutputTarget resolve_output(const std::string& path);

/// The folder a new file `file` goes into ("." for a bare name).
std::string folder_of(const std::string& file);

}  // namespace posenc::formats
