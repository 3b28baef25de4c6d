#pragma once
/// `posenc model FILE.gguf`: the position mechanisms llama.cpp uses for a GGUF file, in the same
/// report (and stable keys) as for a config.json, under the ggml convention: RoPE per layer type
/// (sliding-window bases of gemma2/gemma3/cohere2/olmo2/gpt-oss), layers without RoPE (llama4,
/// smollm3), M-RoPE sections, DeepSeek MLA, ALiBi (attention.max_alibi_bias, or the bias
/// llama.cpp hard-codes), T5 buckets (attention.relative_buckets_count) and learned tables, each
/// setting with the key it came from or the default llama.cpp applies. The RoPE numbers come from
/// models::gguf_rope_config (the resolver `posenc rope --gguf` uses).
/// Rules: ggml-org/llama.cpp @ 81ff7abe50b95fb81cc70a6cdba1eb1a02a48f62 (docs/gguf.md).
#include <string>

#include "posenc/models/rope_gguf.hpp"
#include "posenc/models/model_report.hpp"

namespace posenc::formats {
struct GgufFile;
}

namespace posenc::models {

/// The report of a parsed GGUF header; `read` reads the frequency tensors. Throws Error for a
/// file llama.cpp cannot run (no architecture, a required key absent, a bad key type) and for
/// an architecture llama.cpp runs without any position information (recurrent models).
ModelReport gguf_model(const formats::GgufFile& f, const models::GgufTensorReader& read);

/// Reads the header of the GGUF file at `path` and reports it (gguf_model).
ModelReport read_gguf_model(const std::string& path);

}  // namespace posenc::models
