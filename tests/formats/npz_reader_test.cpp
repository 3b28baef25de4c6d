// .npz files written by numpy (tests/data/npz/README.md), and hostile variants of them.
#include <catch2/catch.hpp>

#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "posenc/error.hpp"
#include "posenc/formats/readers.hpp"
#include "posenc/memory.hpp"
#include "test_data.hpp"

using posenc::formats::parse_npz;
using posenc::formats::ReadOptions;

namespace {

std::string bytes_of(const std::string& relative) {
  std::ifstream in(posenc::test::data_path(relative), std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::string npz_error_of(const std::string& bytes, const ReadOptions& opts = {}) {
  try {
    parse_npz(bytes, "x.npz", opts);
  } catch (const posenc::Error& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

TEST_CASE("npz: stored and deflated members, the first or the one --npz-key names", "[readers][npz]") {
  for (const char* file : {"npz/two.npz", "npz/two_compressed.npz"}) {
    INFO(file);
    const std::string bytes = bytes_of(file);
    REQUIRE(bytes.size() > 100);
    std::vector<std::string> notes;
    const auto pe = parse_npz(bytes, "t.npz", {}, &notes);
    CHECK(pe.shape == std::vector<std::size_t>{2, 3});
    CHECK(pe.values(1, 2) == 1.25);  // np.arange(6.0).reshape(2, 3) / 4
    REQUIRE(notes.size() == 1);
    CHECK(notes[0] == "--input 't.npz': read the first of its 2 arrays, 'pe' ('pe', 'other'); --npz-key NAME reads "
                      "another");
    ReadOptions key;
    key.npz_key = "other";
    const auto other = parse_npz(bytes, "t.npz", key);
    CHECK(other.values(0, 1) == -2);  // big-endian int16
    key.npz_key = "other.npy";
    CHECK(parse_npz(bytes, "t.npz", key).values(0, 0) == 1);
    key.npz_key = "wpe";
    CHECK(npz_error_of(bytes, key) == "--input 'x.npz': --npz-key 'wpe': no such array in the .npz; it holds 'pe', 'other'");
  }
}

TEST_CASE("npz: hostile archives are refused in one line", "[readers][npz]") {
  const std::string stored = bytes_of("npz/two.npz");
  const std::string deflated = bytes_of("npz/two_compressed.npz");
  CHECK(npz_error_of("") == "--input 'x.npz': not an .npz file (no zip signature 'PK\\x03\\x04' at byte 0)");
  CHECK(npz_error_of("\x93NUMPY") == "--input 'x.npz': not an .npz file (no zip signature 'PK\\x03\\x04' at byte 0)");
  CHECK_THAT(npz_error_of(stored.substr(0, stored.size() / 2)), Catch::StartsWith("--input 'x.npz': not a readable .npz"));
  CHECK_THAT(npz_error_of(std::string("PK\x03\x04", 4) + std::string(40, '\0')),
             Catch::StartsWith("--input 'x.npz': not a readable .npz (zip) archive: "));
  // a flipped byte in pe.npy's deflated data: an inflate or CRC error, naming the member
  std::string flipped = deflated;
  flipped[60] = static_cast<char>(flipped[60] ^ 0xFF);
  CHECK_THAT(npz_error_of(flipped), Catch::StartsWith("--input 'x.npz:pe.npy': "));
  // a flipped byte in the stored data of pe.npy (its first value): the CRC-32 no longer matches
  std::string crc = stored;
  const auto at = crc.find("\x93NUMPY");
  REQUIRE(at != std::string::npos);
  crc[at + 130] = static_cast<char>(crc[at + 130] ^ 0x01);
  CHECK(npz_error_of(crc) == "--input 'x.npz:pe.npy': cannot read the member: CRC error");
  // a member larger than the memory limit is refused before it is inflated
  posenc::set_memory_limit(100);
  CHECK(npz_error_of(stored) == "--input 'x.npz:pe.npy': the member inflates to 176 B, more than the memory limit of "
                            "100 B: give --max-memory SIZE to allow it");
  posenc::set_memory_limit(0);
}
