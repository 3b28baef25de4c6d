#pragma once
/// Errors and exit codes shared by the library and the command line.
#include <stdexcept>

namespace posenc {

/// Process exit codes, like diff(1) and cmp(1).
enum ExitCode { kOk = 0, kCheckFailed = 1, kUsageError = 2 };

/// Anything the user can fix (bad option, bad file). The message is one line,
/// lower case, names the option or field and states what is accepted.
struct Error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace posenc
