#pragma once
// Colour in terminal output: `--color auto|always|never` (anywhere on the line) and the
// NO_COLOR convention (https://no-color.org), for the ANSI preview and for messages.
#include <memory>
#include <ostream>
#include <string>
#include <vector>

namespace posenc::cli {

enum class ColourMode { kAuto, kAlways, kNever };

/// Sets the mode from `--color WHEN` / `--color=WHEN` anywhere in `args` (the last one wins;
/// auto when absent) and returns the other arguments. Throws Error naming --color and the
/// choices for anything else.
std::vector<std::string> take_colour(const std::vector<std::string>& args);

/// The ANSI preview (`--format ansi`) is coloured: always → yes, never → no, auto → unless
/// NO_COLOR is set to a non-empty value or TERM is "dumb". Auto colours a preview written to
/// a pipe or file too: the format was asked for (`| less -R` shows it).
bool preview_colour();

/// Messages ("posenc: error:", "posenc: warning:") on a stream are coloured: always → yes,
/// never → no, auto → only on a terminal (`is_terminal`), unless NO_COLOR or TERM=dumb.
bool message_colour(bool is_terminal);

/// While alive, `stream`'s line-start prefixes "posenc: error:" (bold red) and
/// "posenc: warning:" (bold magenta) are coloured whenever message_colour(is_terminal) holds
/// at the time of writing; everything else passes through unchanged.
class MessageColour {
 public:
  MessageColour(std::ostream& stream, bool is_terminal);
  ~MessageColour();
  MessageColour(const MessageColour&) = delete;
  MessageColour& operator=(const MessageColour&) = delete;

 private:
  struct Buffer;
  std::ostream& stream_;
  std::unique_ptr<Buffer> buffer_;
  std::streambuf* previous_;
};

}  // namespace posenc::cli
