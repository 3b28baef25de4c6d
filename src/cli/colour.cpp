#include "posenc/cli/colour.hpp"

#include <fmt/format.h>

#include <cstdlib>
#include <streambuf>
#include <string_view>

#include "posenc/error.hpp"

namespace posenc::cli {
namespace {

ColourMode g_mode = ColourMode::kAuto;

ColourMode parse_mode(std::string_view v) {
  if (v == "auto") return ColourMode::kAuto;
  if (v == "always") return ColourMode::kAlways;
  if (v == "never") return ColourMode::kNever;
  throw Error(fmt::format("--color: '{}' is not one of auto, always, never", v));
}

/// NO_COLOR set to anything but "" (no-color.org), or a terminal that cannot show colour.
bool colour_refused() {
  const char* no = std::getenv("NO_COLOR");
  const char* term = std::getenv("TERM");
  return (no != nullptr && *no != '\0') || (term != nullptr && std::string_view(term) == "dumb");
}

constexpr std::string_view kError = "posenc: error:", kWarning = "posenc: warning:";

}  // namespace

std::vector<std::string> take_colour(const std::vector<std::string>& args) {
  g_mode = ColourMode::kAuto;  // each run starts from the default (tests call run repeatedly)
  std::vector<std::string> rest;
  constexpr std::string_view kFlag = "--color";
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == kFlag) {
      if (i + 1 >= args.size()) throw Error("--color needs a value: auto, always or never");
      g_mode = parse_mode(args[++i]);
    } else if (args[i].rfind("--color=", 0) == 0) {
      g_mode = parse_mode(std::string_view(args[i]).substr(kFlag.size() + 1));
    } else {
      rest.push_back(args[i]);
    }
  }
  return rest;
}

bool preview_colour() { return g_mode == ColourMode::kAlways || (g_mode == ColourMode::kAuto && !colour_refused()); }

bool message_colour(bool is_terminal) {
  return g_mode == ColourMode::kAlways || (g_mode == ColourMode::kAuto && is_terminal && !colour_refused());
}

/// Holds each line until it is complete (or flushed), then writes it with its prefix coloured.
struct MessageColour::Buffer : std::streambuf {
  Buffer(std::streambuf* to, bool is_terminal) : dest(to), terminal(is_terminal) {}

  int_type overflow(int_type ch) override {
    if (traits_type::eq_int_type(ch, traits_type::eof())) return traits_type::not_eof(ch);
    line.push_back(traits_type::to_char_type(ch));
    if (ch == '\n') return emit() ? ch : traits_type::eof();
    return ch;
  }
  int sync() override { return emit() && dest->pubsync() == 0 ? 0 : -1; }

  bool emit() {
    std::string_view rest = line;
    std::string out;
    if (at_line_start && message_colour(terminal)) {
      for (const auto& [prefix, code] : {std::pair{kError, "\x1b[1;31m"}, std::pair{kWarning, "\x1b[1;35m"}}) {
        if (rest.substr(0, prefix.size()) == prefix) {
          out = fmt::format("{}{}\x1b[0m", code, prefix);
          rest.remove_prefix(prefix.size());
          break;
        }
      }
    }
    out += rest;
    // A new line, or a progress bar's redraw or clearing ('\r'): what follows starts a line.
    if (!line.empty()) at_line_start = line.back() == '\n' || line.find('\r') != std::string::npos;
    line.clear();
    return dest->sputn(out.data(), static_cast<std::streamsize>(out.size())) == static_cast<std::streamsize>(out.size());
  }

  std::streambuf* dest;
  bool terminal;
  bool at_line_start = true;
  std::string line;
};

MessageColour::MessageColour(std::ostream& stream, bool is_terminal)
    : stream_(stream), buffer_(std::make_unique<Buffer>(stream.rdbuf(), is_terminal)), previous_(stream.rdbuf()) {
  stream_.rdbuf(buffer_.get());
}

MessageColour::~MessageColour() {
  stream_.flush();
  stream_.rdbuf(previous_);
}

}  // namespace posenc::cli
