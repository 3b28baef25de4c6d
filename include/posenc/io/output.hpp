#pragma once
/// Safe output: a file appears whole or not at all.
#include <functional>
#include <ostream>
#include <string>

#include "posenc/io/format.hpp"

namespace posenc::io {

/// Runs `write` on an ostream for `path`: "-" is stdout; otherwise a temporary file
/// `.NAME.XXXXXX.tmp` in the same folder, renamed over `path` only when `write` returns and
/// the stream is good (data fsync'ed first). On any failure the temporary file is removed,
/// `path` is left as it was, and Error is thrown ("cannot write 'PATH': <reason>"); an
/// exception thrown by `write` itself is rethrown unchanged. `binary` output is refused when
/// stdout is a terminal. A replaced file keeps its permissions; a new one gets 0666 & ~umask.
void write_atomically(const std::string& path, bool binary,
                      const std::function<void(std::ostream&)>& write);

/// Same, with `binary` and the name in the terminal refusal taken from `format`
/// ("refusing to write binary png to a terminal: ...").
void write_atomically(const std::string& path, Format format,
                      const std::function<void(std::ostream&)>& write);

/// Throws Error if `path`'s folder does not exist or is not writable, or `path` is a folder
/// (checked before work starts, so a long computation does not end in a failed write).
void check_writable(const std::string& path);

/// Unlinks the temporary files of writes in progress. Only async-signal-safe calls
/// (no allocation, no locks): meant for a SIGINT/SIGTERM handler before it re-raises.
void remove_pending_temp_files();

}  // namespace posenc::io
