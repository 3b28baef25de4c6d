#include "posenc/cli/run.hpp"

#include <iostream>

namespace posenc::cli {

int run(int argc, const char* const* argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  return run(args, std::cout, std::cerr);
}

int run(const std::vector<std::string>& /*args*/, std::ostream& /*out*/, std::ostream& err) {
  err << "posenc: not built yet\n";
  return 2;
}

}  // namespace posenc::cli
