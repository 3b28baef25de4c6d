// libFuzzer target: config.json text -> everything `posenc model` and `--hf-config` read from it:
// the model report (family defaults, layer plan, every mechanism), the layer plan alone, each
// layer type's rope config (finalized, its frequencies computed), the report written as
// text and JSON, and the flags each scheme's --hf-config takes from it (scheme_of_config: ALiBi,
// T5 stacks, sinusoidal, learned, DeBERTa buckets, M-RoPE with vision_config, NoPE layers). Anything but a result or posenc::Error (a crash, a sanitizer report, another
// exception) is a bug.
#include <cstddef>
#include <cstdint>
#include <set>
#include <sstream>
#include <string>

#include "posenc/rope/rope.hpp"
#include "posenc/rope/rope_config.hpp"
#include "posenc/error.hpp"
#include "posenc/reports/model_writers.hpp"
#include "posenc/memory.hpp"
#include "posenc/models/layers.hpp"
#include "posenc/models/model_report.hpp"
#include "posenc/models/model_schemes.hpp"

namespace {

void model_fuzz_layer_type(const std::string& text, const std::string& type) {
  try {
    auto c = posenc::models::parse_layer_type_config(text, "config.json", type);
    posenc::rope::finalize_rope_config(c);
    const auto f = posenc::rope::compute_frequencies(c);
    if (f.inv_freq.empty()) __builtin_trap();
  } catch (const posenc::Error&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  posenc::set_memory_limit(std::uint64_t{64} << 20);
  const std::string text(reinterpret_cast<const char*>(data), size);
  std::set<std::string> kinds = {""};  // the scheme --hf-config decides, and each mechanism's
  try {
    const auto r = posenc::models::parse_model(text, "config.json");
    for (const auto& m : r.mechanisms) kinds.insert(std::string(posenc::models::to_string(m.kind)));
    if (r.source.empty()) __builtin_trap();
    std::ostringstream out;
    posenc::reports::write_model_text(r, out);
    posenc::reports::write_model_json(r, out);
    if (out.str().empty()) __builtin_trap();
  } catch (const posenc::Error&) {
  }
  std::set<std::string> types;
  try {
    const auto plan = posenc::models::parse_layer_plan(text, "config.json");
    if (plan.layer_types.size() > static_cast<std::size_t>(plan.num_layers)) __builtin_trap();
    for (const auto& t : plan.layer_types) {
      if (types.size() >= 4) break;
      types.insert(t);
    }
    if (!plan.layer_types.empty()) (void)posenc::models::layers_of_type(plan, plan.layer_types.front());
  } catch (const posenc::Error&) {
  }
  types.insert("");
  for (const auto& t : types) model_fuzz_layer_type(text, t);
  for (const auto& scheme : kinds) {  // a scheme the model does not use only throws the refusal
    for (const char* mode : {"", "causal"}) {  // T5: the encoder's and the decoder's stack
      if (*mode != 0 && scheme != "t5") continue;
      try {
        const auto m = posenc::models::scheme_of_config(text, "config.json", "config.json", scheme, mode);
        if (m.scheme.empty()) __builtin_trap();
      } catch (const posenc::Error&) {
      }
    }
  }
  return 0;
}
