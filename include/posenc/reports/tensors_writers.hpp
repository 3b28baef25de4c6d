#pragma once
/// Writers of `posenc tensors` (formats/tensor_list.hpp).
#include <ostream>

#include "posenc/formats/tensor_list.hpp"

namespace posenc::reports {

/// Text: a summary line, the metadata (values cut to one line of about 100 bytes, control bytes
/// escaped), then one aligned row per tensor: name, dtype, shape, bytes, file.
void write_tensors_text(const formats::TensorListing& l, std::ostream& out);

/// JSON: {"path", "format", "files", "total_tensors", "total_bytes",
/// "tensors": [{"name", "dtype", "shape", "bytes", "file"}, ...], "metadata": {KEY: "VALUE", ...}}.
void write_tensors_json(const formats::TensorListing& l, std::ostream& out);

}  // namespace posenc::reports
