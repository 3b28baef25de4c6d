#pragma once
/// A tensor given as `--input FILE:NAME` as a Table read on demand: each fill() reads and decodes
/// only the rows asked for, so a writer streams a tensor of any size in bounded memory (a 1 GiB
/// F16 tensor to a float32 .npy holds a few blocks of rows at a time, never the tensor).
#include <memory>
#include <string>
#include <vector>

#include "posenc/formats/readers.hpp"
#include "posenc/table.hpp"

namespace posenc::formats {

/// The tensor `input` names (FILE.safetensors:NAME, FILE.gguf:NAME, a folder or index :NAME;
/// NAME[i…] selects a slice; opts.rows keeps rows A … B-1 as read_input does) as a Table of the
/// values read_input gives: fill() decodes exactly (F16, BF16, F8 widened, GGUF blocks
/// dequantised as ggml does) and fill_f32() gives those values rounded to float32, decoding
/// F16, BF16 and F32 in bulk. Its info holds shape {rows, cols} and first_position; the notes
/// read_input would give go to `notes`. nullptr when `input` names no tensor; the errors of
/// read_input otherwise.
std::unique_ptr<Table> open_tensor_table(const std::string& input, const ReadOptions& opts,
                                         std::vector<std::string>* notes);

}  // namespace posenc::formats
