// --color auto|always|never and NO_COLOR: the message prefixes and the preview's mode.
#include "posenc/cli/colour.hpp"

#include <catch2/catch.hpp>
#include <stdlib.h>

#include <sstream>

#include "posenc/error.hpp"

using namespace posenc::cli;

namespace {

// What `text` becomes on a stream coloured by MessageColour.
std::string through_colour(const std::string& text, bool terminal) {
  std::ostringstream s;
  s << std::unitbuf;  // like std::cerr: flushed after each insertion
  {
    MessageColour c(s, terminal);
    s << text;
  }
  return s.str();
}

struct NoColourEnv {
  explicit NoColourEnv(const char* value) {
    if (value) setenv("NO_COLOR", value, 1);
    else unsetenv("NO_COLOR");
    setenv("TERM", "xterm", 1);
  }
  ~NoColourEnv() { unsetenv("NO_COLOR"); }
};

}  // namespace

TEST_CASE("the --color option is taken from anywhere on the line, the last one winning", "[cli][colour]") {
  using V = std::vector<std::string>;
  CHECK(take_colour({"generate", "--color", "never", "sinusoidal"}) == V{"generate", "sinusoidal"});
  CHECK(take_colour({"--color=always", "list"}) == V{"list"});
  const NoColourEnv env("1");
  CHECK(preview_colour());  // always, despite NO_COLOR
  take_colour({"--color=always", "list", "--color", "never"});
  CHECK_FALSE(preview_colour());
  take_colour({"list"});  // absent: auto again
  CHECK_FALSE(preview_colour());  // NO_COLOR=1
  CHECK_THROWS_WITH(take_colour({"list", "--color", "sometimes"}), "--color: 'sometimes' is not one of auto, always, never");
  CHECK_THROWS_WITH(take_colour({"list", "--color"}), "--color needs a value: auto, always or never");
}

TEST_CASE("NO_COLOR set to anything but the empty string turns auto colour off", "[cli][colour]") {
  take_colour({});
  {
    const NoColourEnv env(nullptr);
    CHECK(preview_colour());
    CHECK(message_colour(true));
    CHECK_FALSE(message_colour(false));  // messages: only on a terminal
  }
  {
    const NoColourEnv env("");
    CHECK(preview_colour());
  }
  {
    const NoColourEnv env("0");
    CHECK_FALSE(preview_colour());
    CHECK_FALSE(message_colour(true));
  }
  const NoColourEnv env(nullptr);
  setenv("TERM", "dumb", 1);
  CHECK_FALSE(preview_colour());
  setenv("TERM", "xterm", 1);
}

TEST_CASE("error and warning prefixes are coloured at line starts, the rest untouched", "[cli][colour]") {
  const NoColourEnv env(nullptr);
  take_colour({});
  CHECK(through_colour("posenc: error: bad --dim\n", true) == "\x1b[1;31mposenc: error:\x1b[0m bad --dim\n");
  CHECK(through_colour("posenc: warning: rounded\nposenc: error: x\n", true) ==
        "\x1b[1;35mposenc: warning:\x1b[0m rounded\n\x1b[1;31mposenc: error:\x1b[0m x\n");
  CHECK(through_colour("note: posenc: error: quoted\n", true) == "note: posenc: error: quoted\n");
  CHECK(through_colour("posenc: error: bad\n", false) == "posenc: error: bad\n");  // auto, not a terminal
  take_colour({"--color", "always"});
  CHECK(through_colour("posenc: error: bad\n", false) == "\x1b[1;31mposenc: error:\x1b[0m bad\n");
  take_colour({"--color", "never"});
  CHECK(through_colour("posenc: error: bad\n", true) == "posenc: error: bad\n");
  take_colour({});
}
