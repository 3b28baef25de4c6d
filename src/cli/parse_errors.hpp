#pragma once
// CLI11's parse errors in posenc's one-line form ("posenc: error: ..." is added by the caller).
#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace posenc::cli {

/// The message for a CLI11 parse error raised while parsing under `app` (the top-level app):
/// one line, lower case, naming the option or word, what is accepted, and a suggestion where
/// one is close ("unexpected argument '--le' for 'posenc generate sinusoidal', did you mean
/// '--len'?"). Each CLI11 error kind has its own wording; see docs/cli.md "Errors".
std::string parse_error_message(const CLI::App& app, const CLI::Error& e);

/// "--len", "--dim", ...: the long option names `app` accepts (its own and those of the apps
/// above it), for "did you mean" suggestions.
std::vector<std::string> long_option_names(const CLI::App& app);

/// `msg` fit for a terminal: bytes that are not UTF-8 or are control characters as \xNN,
/// newlines as spaces, nlohmann_json's "[json.exception.parse_error.101] " tags left out.
std::string tidy_message(std::string msg);

}  // namespace posenc::cli
