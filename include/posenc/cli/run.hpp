#pragma once
/// The command line: `main()` is `return posenc::cli::run(argc, argv);`, tests call it too.
#include <ostream>
#include <string>
#include <vector>

namespace posenc::cli {

/// Parses and runs one command line; returns the exit code (0 ok, 1 check failed, 2 bad usage).
int run(int argc, const char* const* argv);

/// Same, for tests: argv without the program name, with stdout and stderr captured.
int run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

/// Same, telling whether `out` is a terminal (binary output is then refused).
int run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err, bool out_is_terminal);

}  // namespace posenc::cli
