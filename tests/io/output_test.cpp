#include "posenc/io/output.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "posenc/error.hpp"

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
  posenc::io::write_atomically(file, false, [](std::ostream& out) { out << "a,b\n1,2\n"; });
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
  CHECK_THROWS_WITH(posenc::io::write_atomically(file, true,
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
  CHECK_THROWS_AS(posenc::io::write_atomically(file, false, [](std::ostream& out) { out.setstate(std::ios::badbit); }),
                  posenc::Error);
  CHECK(!fs::exists(file));
  CHECK(dir.entries() == 0);
}

TEST_CASE("write_atomically replaces an existing file", "[output]") {
  TempDir dir;
  const auto file = (dir.path / "pe.csv").string();
  std::ofstream(file) << "old";
  posenc::io::write_atomically(file, posenc::io::Format::kCsv, [](std::ostream& out) { out << "new"; });
  CHECK(slurp(file) == "new");
  CHECK(dir.entries() == 1);
}

TEST_CASE("a missing folder is refused before and during writing", "[output]") {
  TempDir dir;
  const auto file = (dir.path / "nope" / "x.csv").string();
  CHECK_THROWS_WITH(posenc::io::check_writable(file),
                    "-o '" + file + "': folder '" + (dir.path / "nope").string() + "' does not exist");
  CHECK_THROWS_WITH(posenc::io::write_atomically(file, false, [](std::ostream&) {}),
                    "cannot write '" + file + "': No such file or directory");
  CHECK_THROWS_WITH(posenc::io::check_writable(dir.path.string()),
                    "-o '" + dir.path.string() + "' is a folder: give a file name");
  CHECK_NOTHROW(posenc::io::check_writable((dir.path / "ok.csv").string()));
  CHECK_NOTHROW(posenc::io::check_writable("-"));
  CHECK_NOTHROW(posenc::io::check_writable("relative.csv"));
}

TEST_CASE("pending temporary files can be removed from a signal handler", "[output]") {
  TempDir dir;
  const auto file = (dir.path / "big.npy").string();
  const auto interrupted = [&](std::ostream& out) {
    out << "partial";
    out.flush();
    CHECK(dir.entries() == 1);  // the temporary file
    posenc::io::remove_pending_temp_files();
    CHECK(dir.entries() == 0);
    throw posenc::Error("interrupted");
  };
  CHECK_THROWS_WITH(posenc::io::write_atomically(file, true, interrupted), "interrupted");
  CHECK(dir.entries() == 0);
}
