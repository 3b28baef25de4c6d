#pragma once
/// Safe output: a file appears whole or not at all.
#include <functional>
#include <ostream>
#include <string>

namespace posenc::io {

/// Runs `write` on an ostream for `path`: "-" is stdout; otherwise a temporary file in
/// the same folder, renamed over `path` only when `write` returns and the stream is
/// good. On any failure the temporary file is removed, `path` is untouched, and Error
/// is thrown. `binary` output is refused when stdout is a terminal.
void write_atomically(const std::string& path, bool binary,
                      const std::function<void(std::ostream&)>& write);

/// Throws Error if `path`'s folder does not exist or is not writable (checked before work starts).
void check_writable(const std::string& path);

}  // namespace posenc::io
