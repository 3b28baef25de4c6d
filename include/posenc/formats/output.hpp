#pragma once
/// Safe output: a file appears whole or not at all, and every write is checked.
#include <cstdint>
#include <functional>
#include <ostream>
#include <string>

#include "posenc/formats/format.hpp"

namespace posenc::formats {

/// Runs `write` on an ostream for `path` (`-o PATH`):
/// - "-" is stdout (as write_to_stdout);
/// - a regular file, new or existing, is written to a temporary file `.NAME.XXXXXX.tmp` in
///   the same folder and renamed over `path` only when `write` returns and every byte was
///   written (data fsync'ed first when an existing file is replaced). A symbolic link is
///   followed: the file it names is replaced, next to it, and the link stays;
/// - a character device, FIFO or socket, and /dev/stdout, /dev/fd/N, /proc/self/fd/N, are
///   written straight through (no temporary file, no rename).
/// Before a file is created, `min_bytes` (a lower bound of the output's size) is compared
/// with the free space of its disk. Every write is checked as it happens: the first failure
/// (full disk, `ulimit -f`, closed pipe) stops `write` at once. On any failure the temporary
/// file is removed, `path` is left as it was, and Error is thrown naming -o ("-o 'PATH':
/// cannot write: <reason>"); an exception thrown by `write` itself is rethrown unchanged.
/// `binary` output is refused to a terminal. An existing file the process may not write (as
/// `>` would find) is refused before anything is written: "-o 'PATH': cannot write: Permission
/// denied". A replaced file keeps its mode, owner and group; when it has other hard links, or
/// its owner or group cannot be kept, the finished temporary file is copied into it in place
/// (same inode, like `>`) instead of renamed over it. A new file gets 0666 & ~umask.
void write_atomically(const std::string& path, bool binary, const std::function<void(std::ostream&)>& write,
                      std::uint64_t min_bytes = 0);

/// Same, with `binary` and the name in the terminal refusal taken from `format`
/// ("refusing to write binary png to a terminal: ...").
void write_atomically(const std::string& path, Format format, const std::function<void(std::ostream&)>& write,
                      std::uint64_t min_bytes = 0);

/// Runs `write` on `out` (stdout) with every write checked: the first failed write (or the
/// final flush) stops it with Error "cannot write to stdout: <reason>".
void write_to_stdout(std::ostream& out, const std::function<void(std::ostream&)>& write);

/// Throws Error if `path`'s folder does not exist or is not writable, `path` is a folder, or
/// `path` exists and may not be written (checked before work starts, so a long computation
/// does not end in a failed write).
void check_writable(const std::string& path);

/// Throws Error "-o 'PATH': the output needs at least 16 GiB, the disk has 3 GiB free" when
/// `bytes` exceed the free space of the disk a new `path` would be written to. Nothing for
/// "-", devices and FIFOs, or when the free space cannot be read.
void check_free_space(const std::string& path, std::uint64_t bytes);

/// Unlinks the temporary files of writes in progress. Only async-signal-safe calls
/// (no allocation, no locks): meant for a SIGINT/SIGTERM handler before it re-raises.
void remove_pending_temp_files();

}  // namespace posenc::formats
