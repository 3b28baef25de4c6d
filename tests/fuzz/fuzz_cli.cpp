// libFuzzer target: cli::run with a fuzzed argv (arguments separated by newlines), stdout and
// stderr captured in memory. It must return 0, 1 or 2 with no crash or sanitizer report, and
// a code 2 must come with exactly one line on stderr.
//
// The harness never lets a run touch the file system or run for long: arguments that name
// an output file (-o/--output, except "-o -"), the memory limit, or absolute paths are
// skipped, and every number in the arguments must be at most kMaxNumber.
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "posenc/cli/run.hpp"

namespace {

constexpr double kMaxNumber = 300;

// Every maximal run of number-like characters must parse to at most kMaxNumber.
bool small_numbers(const std::string& a) {
  std::size_t i = 0;
  while (i < a.size()) {
    if (!std::isdigit(static_cast<unsigned char>(a[i]))) {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < a.size() && (std::isalnum(static_cast<unsigned char>(a[j])) || a[j] == '.' || a[j] == '+' || a[j] == '-'))
      ++j;
    const std::string run = a.substr(i, j - i);
    if (run.size() > 6 || std::abs(std::strtod(run.c_str(), nullptr)) > kMaxNumber) return false;
    i = j;
  }
  const std::string low = [&] {
    std::string s = a;
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
  }();
  return low.find("inf") == std::string::npos && low.find("0x") == std::string::npos;
}

bool allowed(const std::vector<std::string>& args) {
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a.find('/') != std::string::npos || a.find("max-memory") != std::string::npos) return false;
    if (a.rfind("--o", 0) == 0 || (a.rfind("-o", 0) == 0 && a != "-o")) return false;
    if (a == "-o" && (i + 1 >= args.size() || args[i + 1] != "-")) return false;
    if (!small_numbers(a)) return false;
  }
  return true;
}

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
  std::ostringstream out, err;
  const int code = posenc::cli::run(args, out, err);
  if (code < 0 || code > 2) __builtin_trap();
  const std::string e = err.str();
  if (code == 2 && std::count(e.begin(), e.end(), '\n') != 1) __builtin_trap();
  return 0;
}
