#pragma once
/// Reading a whole input file with its size checked first, so that a huge file, or a
/// symbolic link to /dev/zero, is refused instead of filling the memory.
#include <cstdint>
#include <string>
#include <string_view>

namespace posenc::formats {

/// The largest config.json read (real ones are a few KiB).
inline constexpr std::uint64_t kMaxConfigBytes = std::uint64_t{16} << 20;

/// The bytes of the file `path` ("-": stdin), named in messages as `option` ("--input", "--hf-config").
/// A regular file larger than `limit` bytes is refused before reading; a file of unknown
/// size (FIFO, device, /proc) is read up to `limit` bytes and refused past it. Throws Error:
/// "--input 'x.csv': the file holds 40 MiB, more than the 10 MiB allowed (--max-memory)",
/// "... is a folder", "... cannot read: <reason>". `why` follows the limit in the message
/// (e.g. " (--max-memory)").
std::string read_small_file(const std::string& path, std::string_view option, std::uint64_t limit,
                            std::string_view why = {});

/// The size of the regular file `path`; UINT64_MAX when it is not a regular file or cannot
/// be read (read_small_file then decides).
std::uint64_t regular_file_size(const std::string& path);

}  // namespace posenc::formats
