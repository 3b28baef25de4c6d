#pragma once
// --help as posenc shows it: "--len INT in 1..2147483648 (default: 50)" instead of CLI11's
// "--len INT:FLOAT in [1 - 2.14748e+09]=50".
#include <CLI/CLI.hpp>

#include <memory>

namespace posenc::cli {

/// A CLI11 formatter that writes each option's default as "(default: X)" after its type.
std::shared_ptr<CLI::Formatter> help_formatter();

}  // namespace posenc::cli
