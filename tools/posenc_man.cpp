// Writes the man pages of posenc into a folder: posenc.1 and posenc-COMMAND.1 for each command,
// from the same command-line model that --help prints (run by the build; see CMakeLists.txt).
//   posenc_man DIR [DATE [DOCDIR]]   (DOCDIR: the installed documentation, default /usr/share/doc/posenc)
#include <cstdio>
#include <fstream>
#include <iostream>

#include "../src/cli/cli_model.hpp"

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: posenc_man DIR [DATE]\n";
    return 2;
  }
  const std::string dir = argv[1];
  const std::string date = argc > 2 ? argv[2] : "2026-11-24";
  const std::string docdir = argc > 3 ? argv[3] : "/usr/share/doc/posenc";
  const auto full = posenc::cli::make_full_app();
  const auto root = posenc::cli::describe(full->app);
  auto write = [&](const posenc::cli::CommandModel& cmd) {
    std::ofstream f(dir + "/" + posenc::cli::man_page_name(cmd) + ".1");
    f << posenc::cli::man_page(root, cmd, date, docdir);
    return static_cast<bool>(f);
  };
  bool ok = write(root);
  for (const auto& sub : root.subcommands) ok = write(sub) && ok;
  if (!ok) {
    std::cerr << "posenc_man: cannot write into " << dir << "\n";
    return 1;
  }
  return 0;
}
