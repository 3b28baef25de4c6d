#pragma once
// Replacing an existing output file as the shell's `>` would allow it: refused when the user
// may not write the file itself, and, when a rename would change what other users or other
// names see (the owner, the group, hard links), written into the file in place instead.
#include <sys/stat.h>

#include <string>

namespace posenc::formats {

/// Throws Error "-o 'PATH': cannot write: Permission denied" (or the reason) when the existing
/// regular file `file` may not be opened for writing by this process (effective ids: root may,
/// as with `>`). Nothing when `file` does not exist.
void check_replaceable(const std::string& path, const std::string& file);

/// Gives the temporary file `tmp_fd` the mode, owner and group of `existing`. Returns false when
/// the owner or group cannot be kept (not root, the file belongs to someone else): the file must
/// then be written in place.
bool copy_attributes(int tmp_fd, const struct stat& existing);

/// Copies the whole temporary file `tmp_fd` into `file` in place (same inode: owner, group,
/// mode and every hard link kept), like `cat tmp > file`: the space is reserved first, so a
/// full disk is reported before the old contents are touched; then overwritten, truncated to
/// the new size and fsync'ed. Throws Error naming -o `path`.
void copy_in_place(int tmp_fd, const std::string& file, const std::string& path);

}  // namespace posenc::formats
