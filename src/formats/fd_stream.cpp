#include "posenc/formats/fd_stream.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace posenc::formats {

namespace {
constexpr std::size_t kBufferSize = std::size_t{1} << 16;
}

FdOutBuf::FdOutBuf(int fd) : fd_(fd), buf_(kBufferSize) { setp(buf_.data(), buf_.data() + buf_.size()); }

FdOutBuf::~FdOutBuf() {
  if (error_ == 0) drain();
}

bool FdOutBuf::write_all(const char* p, std::size_t n) {
  if (error_ != 0) return false;  // one failure is enough: stop at once (a full disk stays full)
  while (n > 0) {
    const ssize_t w = ::write(fd_, p, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      error_ = errno != 0 ? errno : EIO;
      return false;
    }
    p += w;
    n -= static_cast<std::size_t>(w);
  }
  return true;
}

bool FdOutBuf::drain() {
  const bool ok = write_all(pbase(), static_cast<std::size_t>(pptr() - pbase()));
  setp(buf_.data(), buf_.data() + buf_.size());  // written or dropped: the buffer is free again
  return ok;
}

FdOutBuf::int_type FdOutBuf::overflow(int_type c) {
  if (!drain()) return traits_type::eof();
  if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
  *pptr() = traits_type::to_char_type(c);
  pbump(1);
  return c;
}

std::streamsize FdOutBuf::xsputn(const char* s, std::streamsize n) {
  const auto size = static_cast<std::size_t>(n);
  if (size <= static_cast<std::size_t>(epptr() - pptr())) {
    std::memcpy(pptr(), s, size);
    pbump(static_cast<int>(n));
    return n;
  }
  // A large write (a block of rows) goes straight out after what is buffered.
  if (!drain() || !write_all(s, size)) return 0;
  return n;
}

int FdOutBuf::sync() { return drain() ? 0 : -1; }

std::string stream_error(const std::ostream& out) {
  if (const auto* b = dynamic_cast<const FdOutBuf*>(out.rdbuf()); b != nullptr && b->error() != 0)
    return std::strerror(b->error());
  return "write failed";
}

}  // namespace posenc::formats
