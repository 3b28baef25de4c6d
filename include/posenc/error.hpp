#pragma once
/// Errors and exit codes shared by the library and the command line.
#include <stdexcept>

namespace posenc {

/// Process exit codes, like diff(1) and cmp(1).
enum ExitCode { kOk = 0, kCheckFailed = 1, kUsageError = 2, kOutputError = 3 };

/// Anything the user can fix (bad option, bad file). The message is one line,
/// lower case, names the option or field and states what is accepted.
struct Error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Output that failed while being written (a full disk, `ulimit -f`, a reader that closed the
/// pipe, an I/O error): the command was right, the output went wrong. Exit kOutputError.
struct OutputError : Error {
  using Error::Error;
};

}  // namespace posenc
