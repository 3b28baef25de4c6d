#pragma once
// Runs posenc::cli::run with captured streams, for CLI tests.
#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "posenc/cli/run.hpp"

struct CliResult {
  int code;
  std::string out;
  std::string err;
};

inline CliResult run_cli(const std::vector<std::string>& args) {
  std::ostringstream out, err;
  const int code = posenc::cli::run(args, out, err);
  return {code, out.str(), err.str()};
}

/// True when `s` is exactly one non-empty line.
inline bool one_line(const std::string& s) {
  return !s.empty() && s.back() == '\n' && std::count(s.begin(), s.end(), '\n') == 1;
}
