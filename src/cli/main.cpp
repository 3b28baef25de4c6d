#include "posenc/cli/run.hpp"

int main(int argc, char** argv) { return posenc::cli::run(argc, argv); }
