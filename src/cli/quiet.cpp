#include "quiet.hpp"

#include <algorithm>
#include <string_view>

namespace posenc::cli {

std::vector<std::string> take_quiet(const std::vector<std::string>& args, bool& quiet) {
  quiet = false;
  std::vector<std::string> rest;
  for (const auto& a : args) {
    if (a == "--quiet")
      quiet = true;
    else
      rest.push_back(a);
  }
  return rest;
}

/// Holds each line until it ends (or is flushed), then passes it on whole, or drops it: a line
/// written in one piece keeps its "posenc: error:" prefix together for MessageColour (std::cerr
/// is unit-buffered, so pieces would reach it one by one).
struct QuietStream::Buffer : std::streambuf {
  explicit Buffer(std::ostream& to) : dest(to) {}

  int_type overflow(int_type ch) override {
    if (traits_type::eq_int_type(ch, traits_type::eof())) return traits_type::not_eof(ch);
    const char c = traits_type::to_char_type(ch);
    if (state != kDrop) held.push_back(c);
    if (c == '\n') {
      decide(true);
      if (state != kDrop) dest << held;
      held.clear();
      state = kUndecided;
    }
    return dest ? ch : traits_type::eof();
  }

  // A flush in mid-line passes on what is held once it is known not to be a dropped line.
  int sync() override {
    decide(false);
    if (state == kPass && !held.empty()) dest << held;
    if (state != kUndecided) held.clear();
    dest.flush();
    return dest ? 0 : -1;
  }

  /// kDrop once the held bytes start with a dropped prefix, kPass once they cannot (or the line
  /// has ended), else kUndecided.
  void decide(bool line_ended) {
    if (state != kUndecided) return;
    bool could_drop = false;
    for (const std::string_view prefix : {std::string_view("posenc: warning:"), std::string_view("posenc: note:")}) {
      const std::size_t n = std::min(prefix.size(), held.size());
      if (std::string_view(held).substr(0, n) != prefix.substr(0, n)) continue;
      if (held.size() >= prefix.size()) {
        state = kDrop;
        return;
      }
      could_drop = true;
    }
    if (!could_drop || line_ended) state = kPass;
  }

  void finish() {
    decide(true);
    if (state != kDrop) dest << held;
    held.clear();
    dest.flush();
  }

  enum State { kUndecided, kPass, kDrop };
  std::ostream& dest;
  State state = kUndecided;
  std::string held;
};

QuietStream::QuietStream(std::ostream& dest) : std::ostream(nullptr), buffer_(std::make_unique<Buffer>(dest)) {
  rdbuf(buffer_.get());
}

QuietStream::~QuietStream() { buffer_->finish(); }

}  // namespace posenc::cli
