#pragma once
/// An ostream over a file descriptor that remembers why a write failed (errno), so that a
/// full disk, `ulimit -f` or a closed pipe becomes a message naming the cause. Used for
/// temporary output files, devices and FIFOs written straight through, and stdout.
#include <ostream>
#include <streambuf>
#include <string>
#include <vector>

namespace posenc::formats {

/// Buffered writes to `fd` (not closed by the buffer). A failed write(2) sets error() to its
/// errno and makes the stream bad; the unwritten bytes are dropped.
class FdOutBuf : public std::streambuf {
 public:
  explicit FdOutBuf(int fd);
  FdOutBuf(const FdOutBuf&) = delete;
  FdOutBuf& operator=(const FdOutBuf&) = delete;
  ~FdOutBuf() override;
  int fd() const { return fd_; }
  /// errno of the first failed write, 0 when none failed.
  int error() const { return error_; }

 protected:
  int_type overflow(int_type c) override;
  std::streamsize xsputn(const char* s, std::streamsize n) override;
  int sync() override;

 private:
  bool write_all(const char* p, std::size_t n);
  bool drain();
  int fd_;
  int error_ = 0;
  std::vector<char> buf_;
};

/// std::ostream writing to a file descriptor through FdOutBuf.
class FdOStream : public std::ostream {
 public:
  explicit FdOStream(int fd) : std::ostream(nullptr), buf_(fd) { rdbuf(&buf_); }
  int error() const { return buf_.error(); }

 private:
  FdOutBuf buf_;
};

/// Why writing to `out` failed: strerror of the errno an FdOutBuf recorded, else "write failed".
std::string stream_error(const std::ostream& out);

}  // namespace posenc::formats
