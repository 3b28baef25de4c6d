#include "posenc/formats/output.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "posenc/error.hpp"
#include "posenc/formats/fd_stream.hpp"

namespace fs = std::filesystem;

namespace {

struct TempDir {
  fs::path path = fs::temp_directory_path() / ("posenc_output_test_" + std::to_string(::getpid()));
  TempDir() {
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() { fs::remove_all(path); }
  std::size_t entries() const { return static_cast<std::size_t>(std::distance(fs::directory_iterator(path), {})); }
};

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace

TEST_CASE("write_atomically creates the file whole", "[output]") {
  TempDir dir;
  const auto file = (dir.path / "out.csv").string();
  posenc::formats::write_atomically(file, false, [](std::ostream& out) { out << "a,b\n1,2\n"; });
  CHECK(slurp(file) == "a,b\n1,2\n");
  CHECK(dir.entries() == 1);  // no temporary file left
  struct stat st {};
  REQUIRE(::stat(file.c_str(), &st) == 0);
  const mode_t mask = ::umask(0);
  ::umask(mask);
  CHECK((st.st_mode & 0777) == (0666 & ~mask));  // not mkstemp's 0600
}

TEST_CASE("a writer that throws midway leaves the old file untouched", "[output]") {
  TempDir dir;
  const auto file = (dir.path / "pe.npy").string();
  std::ofstream(file, std::ios::binary) << "original bytes";
  CHECK_THROWS_WITH(posenc::formats::write_atomically(file, true,
                                                 [](std::ostream& out) {
                                                   out << std::string(100000, 'x');
                                                   throw posenc::Error("--len must be positive (got 0)");
                                                 }),
                    "--len must be positive (got 0)");
  CHECK(slurp(file) == "original bytes");
  CHECK(dir.entries() == 1);
}

TEST_CASE("a stream failure is an error and leaves no file", "[output]") {
  TempDir dir;
  const auto file = (dir.path / "new.json").string();
  CHECK_THROWS_AS(posenc::formats::write_atomically(file, false, [](std::ostream& out) { out.setstate(std::ios::badbit); }),
                  posenc::Error);
  CHECK(!fs::exists(file));
  CHECK(dir.entries() == 0);
}

TEST_CASE("write_atomically replaces an existing file", "[output]") {
  TempDir dir;
  const auto file = (dir.path / "pe.csv").string();
  std::ofstream(file) << "old";
  posenc::formats::write_atomically(file, posenc::formats::Format::kCsv, [](std::ostream& out) { out << "new"; });
  CHECK(slurp(file) == "new");
  CHECK(dir.entries() == 1);
}

TEST_CASE("a missing folder is refused before and during writing", "[output]") {
  TempDir dir;
  const auto file = (dir.path / "nope" / "x.csv").string();
  CHECK_THROWS_WITH(posenc::formats::check_writable(file),
                    "-o '" + file + "': folder '" + (dir.path / "nope").string() + "' does not exist");
  CHECK_THROWS_WITH(posenc::formats::write_atomically(file, false, [](std::ostream&) {}),
                    "-o '" + file + "': cannot write: No such file or directory");
  CHECK_THROWS_WITH(posenc::formats::check_writable(dir.path.string()),
                    "-o '" + dir.path.string() + "' is a folder: give a file name");
  CHECK_NOTHROW(posenc::formats::check_writable((dir.path / "ok.csv").string()));
  CHECK_NOTHROW(posenc::formats::check_writable("-"));
  CHECK_NOTHROW(posenc::formats::check_writable("relative.csv"));
}

TEST_CASE("pending temporary files can be removed from a signal handler", "[output]") {
  TempDir dir;
  const auto file = (dir.path / "big.npy").string();
  const auto interrupted = [&](std::ostream& out) {
    out << "partial";
    out.flush();
    CHECK(dir.entries() == 1);  // the temporary file
    posenc::formats::remove_pending_temp_files();
    CHECK(dir.entries() == 0);
    throw posenc::Error("interrupted");
  };
  CHECK_THROWS_WITH(posenc::formats::write_atomically(file, true, interrupted), "interrupted");
  CHECK(dir.entries() == 0);
}

TEST_CASE("output through a symbolic link replaces the file it names and keeps the link", "[output]") {
  TempDir dir;
  const auto real = dir.path / "real.csv", link = dir.path / "link.csv";
  std::ofstream(real) << "old";
  fs::create_symlink("real.csv", link);
  posenc::formats::write_atomically(link.string(), false, [](std::ostream& out) { out << "new"; });
  CHECK(fs::is_symlink(link));
  CHECK(fs::read_symlink(link) == "real.csv");
  CHECK(slurp(real) == "new");
  CHECK(dir.entries() == 2);  // the link and its file, no temporary file

  // A dangling link: its file is created, next to the link's target path.
  const auto dangling = dir.path / "dangling.csv";
  fs::create_symlink("made.csv", dangling);
  posenc::formats::write_atomically(dangling.string(), false, [](std::ostream& out) { out << "made"; });
  CHECK(fs::is_symlink(dangling));
  CHECK(slurp(dir.path / "made.csv") == "made");
}

TEST_CASE("output to a FIFO writes straight into it", "[output]") {
  TempDir dir;
  const auto fifo = dir.path / "pipe.csv";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  std::string got;
  std::thread reader([&] { got = slurp(fifo); });
  posenc::formats::write_atomically(fifo.string(), false, [](std::ostream& out) { out << "a,b\n1,2\n"; });
  reader.join();
  CHECK(got == "a,b\n1,2\n");
  struct stat st {};
  REQUIRE(::lstat(fifo.c_str(), &st) == 0);
  CHECK(S_ISFIFO(st.st_mode));  // still a FIFO, not replaced by a regular file
  CHECK(dir.entries() == 1);
}

TEST_CASE("a write error through a FIFO is an error naming -o, found at the first failed write", "[output]") {
  TempDir dir;
  const auto fifo = dir.path / "closed.csv";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  struct sigaction ignore {}, old {};
  ignore.sa_handler = SIG_IGN;
  sigaction(SIGPIPE, &ignore, &old);  // EPIPE instead of death
  std::thread reader([&] {
    const int fd = ::open(fifo.c_str(), O_RDONLY);
    char c = 0;
    CHECK(::read(fd, &c, 1) == 1);
    ::close(fd);  // the reader goes away after one byte
  });
  std::size_t blocks = 0;
  CHECK_THROWS_WITH(posenc::formats::write_atomically(fifo.string(), false,
                                                 [&](std::ostream& out) {
                                                   for (; blocks < 100000; ++blocks) out << std::string(1 << 16, 'x');
                                                 }),
                    "-o '" + fifo.string() + "': cannot write: Broken pipe");
  reader.join();
  sigaction(SIGPIPE, &old, nullptr);
  CHECK(blocks < 100);  // stopped at once, not after writing everything
}

TEST_CASE("writes to stdout are checked and name the cause", "[output]") {
  const int fd = ::open("/dev/full", O_WRONLY);  // read-only use of the device: never -o /dev/full
  REQUIRE(fd >= 0);
  {
    posenc::formats::FdOStream out(fd);
    std::size_t blocks = 0;
    CHECK_THROWS_WITH(posenc::formats::write_to_stdout(out,
                                                  [&](std::ostream& s) {
                                                    for (; blocks < 1000; ++blocks) s << std::string(1 << 17, 'x');
                                                  }),
                      "cannot write to stdout: No space left on device");
    CHECK(blocks == 0);  // the first block failed: nothing more was computed
    CHECK(out.error() == ENOSPC);
  }
  {
    posenc::formats::FdOStream out(fd);  // a short text, only flushed at the end
    CHECK_THROWS_WITH(posenc::formats::write_to_stdout(out, [](std::ostream& s) { s << "ok\n"; }),
                      "cannot write to stdout: No space left on device");
  }
  ::close(fd);
}

TEST_CASE("a temporary file name stays within NAME_MAX for long file names", "[output]") {
  TempDir dir;
  const auto file = dir.path / (std::string(246, 'n') + ".csv");  // 250 bytes, a valid name
  posenc::formats::write_atomically(file.string(), false, [](std::ostream& out) { out << "x"; });
  CHECK(slurp(file) == "x");
  CHECK(dir.entries() == 1);
}

TEST_CASE("an output larger than the free disk space is refused before writing", "[output]") {
  TempDir dir;
  const auto file = (dir.path / "huge.csv").string();
  std::ofstream(file) << "old";
  bool called = false;
  const std::uint64_t petabyte = std::uint64_t{1} << 50;
  try {
    posenc::formats::write_atomically(file, false, [&](std::ostream&) { called = true; }, petabyte);
    FAIL("no error");
  } catch (const posenc::Error& e) {
    CHECK_THAT(e.what(), Catch::StartsWith("-o '" + file + "': the output needs at least 1 PiB, the disk has "));
    CHECK_THAT(e.what(), Catch::EndsWith(" free"));
  }
  CHECK(!called);
  CHECK(slurp(file) == "old");
  CHECK(dir.entries() == 1);
  CHECK_NOTHROW(posenc::formats::check_free_space(file, 1));
}
