// posenc tensors: a safetensors file and a sharded folder written here (8 bytes little-endian
// header length, JSON header, data), and a GGUF from the spec-written test writer, whose ne[]
// must come out reversed (PyTorch order) with ggml's type names.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <tuple>
#include <vector>
#include <nlohmann/json.hpp>

#include "cli/cli_helpers.hpp"
#include "formats/gguf_writer.hpp"
#include "posenc/formats/tensor_list.hpp"

using Catch::Contains;

namespace {

std::string tensors_st_file(const nlohmann::ordered_json& header, std::size_t data_bytes) {
  const std::string h = header.dump();
  std::string out(8, '\0');
  for (int i = 0; i < 8; ++i) out[static_cast<std::size_t>(i)] = static_cast<char>((h.size() >> (8 * i)) & 0xFF);
  return out + h + std::string(data_bytes, '\0');
}

std::filesystem::path tensors_dir() {
  const auto dir = std::filesystem::temp_directory_path() / ("posenc_tensors_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

}  // namespace

TEST_CASE("posenc tensors lists a safetensors file as text and JSON, with --filter", "[tensors]") {
  const auto dir = tensors_dir();
  nlohmann::ordered_json h;
  h["__metadata__"] = {{"format", "pt"}};
  h["transformer.wpe.weight"] = {{"dtype", "F32"}, {"shape", {1024, 768}}, {"data_offsets", {0, 3145728}}};
  h["transformer.h.0.attn.c_attn.weight"] = {{"dtype", "BF16"}, {"shape", {768, 2304}}, {"data_offsets", {3145728, 6684672}}};
  const std::string file = (dir / "model.safetensors").string();
  std::ofstream(file, std::ios::binary) << tensors_st_file(h, 6684672);

  const CliResult text = run_cli({"tensors", file});
  REQUIRE(text.code == 0);
  CHECK_THAT(text.out, Contains("safetensors, 2 tensors in 1 file, 6684672 bytes (6.4 MiB) of tensor data"));
  CHECK_THAT(text.out, Contains("metadata:\n  format = pt\n"));
  CHECK_THAT(text.out, Contains("transformer.wpe.weight              F32    [1024, 768]  3145728  model.safetensors"));
  CHECK_THAT(text.out, Contains("transformer.h.0.attn.c_attn.weight  BF16   [768, 2304]  3538944  model.safetensors"));

  const CliResult js = run_cli({"tensors", file, "--format", "json", "--filter", "*.wpe.*"});
  REQUIRE(js.code == 0);
  const auto j = nlohmann::json::parse(js.out);
  REQUIRE(j["tensors"].size() == 1);
  CHECK(j["tensors"][0]["name"] == "transformer.wpe.weight");
  CHECK(j["tensors"][0]["dtype"] == "F32");
  CHECK(j["tensors"][0]["shape"] == nlohmann::json::array({1024, 768}));
  CHECK(j["tensors"][0]["bytes"] == 3145728);
  CHECK(j["tensors"][0]["file"] == "model.safetensors");
  CHECK(j["metadata"]["format"] == "pt");
  CHECK(j["total_tensors"] == 2);

  // A hostile file: exit 2, one line naming the file, the byte and the tensor (its key is at
  // header byte 32, after {"__metadata__":{"format":"pt"},: file byte 40).
  h["transformer.wpe.weight"]["data_offsets"] = {0, 3145720};
  std::ofstream(file, std::ios::binary) << tensors_st_file(h, 6684672);
  const CliResult bad = run_cli({"tensors", file});
  CHECK(bad.code == 2);
  CHECK(one_line(bad.err));
  CHECK_THAT(bad.err, Contains("model.safetensors': byte 40: tensor 'transformer.wpe.weight': data_offsets [0, 3145720] "
                               "hold 3145720 bytes, but F32 [1024,768] needs 3145728"));
  std::filesystem::remove_all(dir);
}

TEST_CASE("posenc tensors as text: names with escapes or non-ASCII keep the general rows", "[tensors]") {
  // Plain names take the direct rows, others printable() and fmt's padding; the columns are
  // worked out here by hand. "c\x01" is shown as the 5 bytes c\x01 (the name column 5 wide);
  // "é" (2 bytes, 1 column wide) pads to the column's width in characters.
  const auto dir = tensors_dir();
  for (const auto& [second, row, head] :
       std::vector<std::tuple<std::string, std::string, std::string>>{
           {"c\x01", "c\\x01  F32    [2]        8  w.safetensors\n", "name   dtype  shape  bytes  file\n"},
           {"\xc3\xa9", "\xc3\xa9     F32    [2]        8  w.safetensors\n", "name  dtype  shape  bytes  file\n"},
           {"cd", "cd    F32    [2]        8  w.safetensors\n", "name  dtype  shape  bytes  file\n"}}) {
    nlohmann::ordered_json h;
    h["ab"] = {{"dtype", "F32"}, {"shape", {2}}, {"data_offsets", {0, 8}}};
    h[second] = {{"dtype", "F32"}, {"shape", {2}}, {"data_offsets", {8, 16}}};
    const std::string file = (dir / "w.safetensors").string();
    std::ofstream(file, std::ios::binary) << tensors_st_file(h, 16);
    const CliResult text = run_cli({"tensors", file});
    INFO(text.out);
    REQUIRE(text.code == 0);
    const std::string width = head.substr(0, head.find("dtype"));  // "name" and its padding
    const std::string ab = "ab" + std::string(width.size() - 2, ' ') + "F32    [2]        8  w.safetensors\n";
    CHECK_THAT(text.out, Contains(head + ab + row));
  }
  std::filesystem::remove_all(dir);
}

TEST_CASE("posenc tensors: a listing longer than one 64 KiB part, as JSON and as text", "[tensors]") {
  // 1500 tensors: the JSON (about 250 KB) and the text (about 100 KB) are written in parts. The
  // JSON must be exactly nlohmann's dump(2) of the listing built here from the header's values,
  // and the text must hold one row per tensor, in order, with widths worked out here.
  const auto dir = tensors_dir();
  nlohmann::ordered_json h, want_tensors = nlohmann::ordered_json::array();
  std::uint64_t at = 0;
  std::vector<std::string> rows;
  for (int i = 0; i < 1500; ++i) {
    const std::string name = "model.layers." + std::to_string(i) + ".w";
    const std::uint64_t r = 1 + static_cast<std::uint64_t>(i % 7), cols = 3;
    h[name] = {{"dtype", "F32"}, {"shape", {r, cols}}, {"data_offsets", {at, at + 4 * r * cols}}};
    want_tensors.push_back({{"name", name}, {"dtype", "F32"}, {"shape", {r, cols}}, {"bytes", 4 * r * cols}, {"file", "big.safetensors"}});
    // name column: the longest name, "model.layers.1499.w" (19); shape "[7, 3]" (6); bytes up to 84 (2 -> 5).
    rows.push_back(name + std::string(19 - name.size(), ' ') + "  F32    [" + std::to_string(r) + ", 3]  " +
                   std::string(5 - std::to_string(4 * r * cols).size(), ' ') + std::to_string(4 * r * cols) +
                   "  big.safetensors\n");
    at += 4 * r * cols;
  }
  const std::string file = (dir / "big.safetensors").string();
  std::ofstream(file, std::ios::binary) << tensors_st_file(h, at);
  const CliResult js = run_cli({"tensors", file, "--format", "json"});
  REQUIRE(js.code == 0);
  nlohmann::ordered_json want;
  want["path"] = file;
  want["format"] = "safetensors";
  want["files"] = 1;
  want["total_tensors"] = 1500;
  want["total_bytes"] = at;
  want["tensors"] = want_tensors;
  want["metadata"] = nlohmann::ordered_json::object();
  CHECK(js.out.size() > (1u << 17));
  CHECK(js.out == want.dump(2) + "\n");
  const CliResult text = run_cli({"tensors", file});
  REQUIRE(text.code == 0);
  std::string body = "name                 dtype  shape   bytes  file\n";
  for (const auto& r : rows) body += r;
  CHECK(text.out.size() > (1u << 16));
  CHECK(text.out.substr(text.out.find("\nname") + 1) == body);
  std::filesystem::remove_all(dir);
}

TEST_CASE("posenc tensors on a GGUF: shapes in PyTorch order, ggml type names", "[tensors]") {
  const auto dir = tensors_dir();
  posenc::test::GgufWriter w;
  w.str("general.architecture", "gpt2");
  w.tensor("position_embd.weight", {768, 1024}, 0, std::string(768 * 1024 * 4, '\0'));  // ne = [768, 1024], F32
  w.tensor("blk.0.attn_qkv.weight", {256, 8}, 12, std::string(8 * 144, '\0'));         // Q4_K: 256 per 144-byte block
  w.save(dir / "m.gguf");
  const auto l = posenc::formats::list_tensors((dir / "m.gguf").string());
  REQUIRE(l.tensors.size() == 2);
  CHECK(l.format == "gguf");
  CHECK(l.tensors[0].shape == std::vector<std::uint64_t>{1024, 768});
  CHECK(l.tensors[0].dtype == "F32");
  CHECK(l.tensors[0].bytes == 768 * 1024 * 4);
  CHECK(l.tensors[1].dtype == "Q4_K");
  CHECK(l.tensors[1].shape == std::vector<std::uint64_t>{8, 256});
  CHECK(l.tensors[1].bytes == 8 * 144);
  CHECK(l.file_names.at(l.tensors[1].file) == "m.gguf");
  CHECK(l.metadata.front() == std::pair<std::string, std::string>{"general.architecture", "\"gpt2\""});
  const CliResult text = run_cli({"tensors", (dir / "m.gguf").string(), "--filter", "blk.*"});
  REQUIRE(text.code == 0);
  CHECK_THAT(text.out, Contains("gguf, 2 tensors in 1 file") && Contains("(1 shown)"));
  CHECK_THAT(text.out, Contains("blk.0.attn_qkv.weight  Q4_K   [8, 256]   1152  m.gguf"));
  std::filesystem::remove_all(dir);
}
