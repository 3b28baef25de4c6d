// libFuzzer target: cli::run with a fuzzed argv (arguments separated by newlines), stdout and
// stderr captured in memory. It must return 0, 1, 2 or 3 (the 1 MiB stdout filled) with no crash or
// sanitizer report; a code 2 or 3 must come with exactly one line on stderr, and never "internal error" (an exception
// that escaped every check: a bug, see cli::run).
//
// The harness never lets a run touch the file system or run for long: arguments that name
// an output file (-o/--output, except "-o -"), the memory limit, or absolute paths are
// skipped; every run gets --max-memory 256M and a stdout that fails past 1 MiB (so a
// streamed table stops at once). Numbers: any text that is not a plain integer (1e999,
// 0x10, inf, nan, 2.5, 99999999999999999999), and plain integers up to kMaxNumber or past
// 2^31 (every size option refuses them), are fuzzed; plain integers in between could be real
// sizes (--len 100000 --dim 60000) and are skipped.
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <ostream>
#include <sstream>
#include <streambuf>
#include <string>
#include <vector>

#include "posenc/cli/run.hpp"

namespace {

constexpr double kMaxNumber = 300;

/// Sizes an option could accept: plain decimal integers in (kMaxNumber, 2^31].
bool plausible_size(const std::string& run) {
  std::size_t i = 0;
  while (i < run.size() && (run[i] == '+' || run[i] == '-')) ++i;
  if (i == run.size()) return false;
  for (std::size_t k = i; k < run.size(); ++k)
    if (!std::isdigit(static_cast<unsigned char>(run[k]))) return false;  // 1e9, 0x10, 2.5, 12abc: not a size
  const double v = std::strtod(run.c_str() + i, nullptr);
  return v > kMaxNumber && v <= 2147483648.0;
}

// No maximal run of number-like characters may be a plausible size.
bool no_big_sizes(const std::string& a) {
  std::size_t i = 0;
  while (i < a.size()) {
    if (!std::isdigit(static_cast<unsigned char>(a[i]))) {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < a.size() && (std::isalnum(static_cast<unsigned char>(a[j])) || a[j] == '.' || a[j] == '+' || a[j] == '-'))
      ++j;
    if (plausible_size(a.substr(i, j - i))) return false;
    i = j;
  }
  return true;
}

bool allowed(const std::vector<std::string>& args) {
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a.find('/') != std::string::npos || a.find("max-memory") != std::string::npos) return false;
    if (a.rfind("--o", 0) == 0 || (a.rfind("-o", 0) == 0 && a != "-o")) return false;
    if (a == "-o" && (i + 1 >= args.size() || args[i + 1] != "-")) return false;
    if (!no_big_sizes(a)) return false;
  }
  return true;
}

/// A stdout that takes 1 MiB and then fails every write (like a full disk).
class BoundedBuf : public std::streambuf {
 protected:
  int_type overflow(int_type c) override {
    if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
    if (size_ >= kLimit) return traits_type::eof();
    ++size_;
    return c;
  }
  std::streamsize xsputn(const char*, std::streamsize n) override {
    if (size_ + static_cast<std::size_t>(n) > kLimit) return 0;
    size_ += static_cast<std::size_t>(n);
    return n;
  }

 private:
  static constexpr std::size_t kLimit = std::size_t{1} << 20;
  std::size_t size_ = 0;
};

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  // A fresh empty folder, so that relative --input/--hf-config names find nothing.
  char dir[] = "/tmp/posenc_fuzz_cli.XXXXXX";
  if (::mkdtemp(dir) == nullptr || ::chdir(dir) != 0) std::abort();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<std::string> args(1);
  for (std::size_t i = 0; i < size; ++i) {
    if (data[i] == '\n') {
      if (args.size() == 24) return 0;
      args.emplace_back();
    } else {
      args.back() += static_cast<char>(data[i]);
    }
  }
  if (!allowed(args)) return -1;  // -1: keep out of the corpus
  args.insert(args.end(), {"--max-memory", "256M"});
  BoundedBuf out_buf;
  std::ostream out(&out_buf);
  std::ostringstream err;
  const int code = posenc::cli::run(args, out, err);
  if (code < 0 || code > 3) __builtin_trap();
  const std::string e = err.str();
  if (code >= 2 && std::count(e.begin(), e.end(), '\n') != 1) __builtin_trap();
  // An exception that escaped every check (cli::run's last catch): our bug. Matched at the
  // start of stderr: user words echoed later in other messages may hold the same text.
  if (e.rfind("posenc: error: internal error (please report): ", 0) == 0) __builtin_trap();
  return 0;
}
