// A test-only tool, not installed and not a posenc command: the library's GGUF tensor reader
// (formats::read_gguf_tensor) driven from outside, for tests/integration/test_gguf_tensors.py
// (every tensor of a file to raw float32 files, compared with a numpy transcription of ggml) and
// bench/dequant.py (seconds per read of one tensor).
//   gguf_tensor_dump FILE.gguf OUTDIR
//       writes OUTDIR/<i>.f32 (float32, little-endian, row-major) for tensor i, prints one line per
//       tensor: "i<TAB>name<TAB>dtype<TAB>d0,d1,..." (PyTorch order)
//   gguf_tensor_dump --time FILE.gguf NAME RUNS
//       prints "read SECONDS decode SECONDS BYTES": the fastest of RUNS read_gguf_tensor calls (pread +
//       decode into a new vector), and of RUNS decodes of the tensor's bytes (held in memory), piece
//       by piece, into one reused 64 KiB buffer with dequantize_ggml
// An Error exits 2 with "gguf_tensor_dump: error: MESSAGE" on stderr.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "posenc/error.hpp"
#include "posenc/formats/gguf.hpp"
#include "posenc/formats/gguf_tensors.hpp"

namespace {

using posenc::formats::GgufFile;

int dump(const std::string& path, const std::string& dir) {
  const GgufFile f = posenc::formats::read_gguf(path);
  for (std::size_t i = 0; i < f.tensors.size(); ++i) {
    const auto t = posenc::formats::read_gguf_tensor(f, f.tensors[i]);
    std::ofstream out(fmt::format("{}/{}.f32", dir, i), std::ios::binary);
    out.write(reinterpret_cast<const char*>(t.values.data()), static_cast<std::streamsize>(t.values.size() * 4));
    if (!out) throw posenc::Error(fmt::format("cannot write {}/{}.f32", dir, i));
    fmt::print("{}\t{}\t{}\t{}\n", i, f.tensors[i].name, t.dtype, fmt::join(t.shape, ","));
  }
  return 0;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

int time_tensor(const std::string& path, const std::string& name, int runs) {
  const GgufFile f = posenc::formats::read_gguf(path);
  const auto* t = f.tensor(name);
  if (t == nullptr) throw posenc::Error(fmt::format("no tensor '{}' in {}", name, path));
  double read_best = 1e300, decode_best = 1e300;
  std::size_t n = 0;
  for (int r = 0; r < runs; ++r) {
    const auto start = std::chrono::steady_clock::now();
    const auto data = posenc::formats::read_gguf_tensor(f, *t);
    read_best = std::min(read_best, seconds_since(start));
    n = data.values.size();
  }
  std::string bytes(static_cast<std::size_t>(t->bytes), '\0');
  {
    std::ifstream in(path, std::ios::binary);
    in.seekg(static_cast<std::streamoff>(f.data_offset + t->offset));
    in.read(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  }
  // Decode in pieces of 16384 values into one reused buffer (64 KiB, in L2), as the reader does:
  // the cost of decoding alone, without the page faults of a new result.
  const std::size_t block = t->type <= 1 || t->type == 30 ? 1 : t->type >= 10 && t->type != 20 && t->type != 39 ? 256 : 32;
  const std::size_t blocks = n / block, block_bytes = blocks == 0 ? 0 : bytes.size() / blocks;
  const std::size_t piece = std::max<std::size_t>(1, 16384 / block);
  std::vector<float> buf(piece * block);
  for (int r = 0; r < runs; ++r) {
    const auto start = std::chrono::steady_clock::now();
    for (std::size_t b = 0; b < blocks; b += piece) {
      const std::size_t m = std::min(piece, blocks - b);
      posenc::formats::dequantize_ggml(t->type, std::string_view(bytes).substr(b * block_bytes, m * block_bytes),
                                       std::span<float>(buf.data(), m * block));
    }
    decode_best = std::min(decode_best, seconds_since(start));
  }
  fmt::print("read {:.6f} decode {:.6f} {}\n", read_best, decode_best, bytes.size());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const std::vector<std::string> args(argv + 1, argv + argc);
    if (args.size() == 2) return dump(args[0], args[1]);
    if (args.size() == 4 && args[0] == "--time") return time_tensor(args[1], args[2], std::stoi(args[3]));
    std::fputs("usage: gguf_tensor_dump FILE.gguf OUTDIR | --time FILE.gguf NAME RUNS\n", stderr);
    return 2;
  } catch (const posenc::Error& e) {
    std::fprintf(stderr, "gguf_tensor_dump: error: %s\n", e.what());
    return 2;
  }
}
