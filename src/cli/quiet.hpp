#pragma once
// --quiet: warnings and notes off, errors kept (see quiet.cpp).
#include <memory>
#include <ostream>
#include <streambuf>
#include <string>
#include <vector>

namespace posenc::cli {

/// Takes `--quiet` out of `args` wherever it stands (like --color and --max-memory); `quiet`
/// says whether it was there.
std::vector<std::string> take_quiet(const std::vector<std::string>& args, bool& quiet);

/// An ostream over `dest` that drops every line starting with "posenc: warning:" or
/// "posenc: note:" and passes the others (errors, progress) on unchanged.
class QuietStream : public std::ostream {
 public:
  explicit QuietStream(std::ostream& dest);
  ~QuietStream() override;

 private:
  struct Buffer;
  std::unique_ptr<Buffer> buffer_;
};

}  // namespace posenc::cli
