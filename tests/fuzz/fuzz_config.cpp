// libFuzzer target: config.json text -> RopeConfig -> validated -> frequencies, and the same
// text -> posenc model's report (family defaults, layer plan, every mechanism). Anything but
// a result or posenc::Error (a crash, a sanitizer report, another exception) is a bug.
#include <cstddef>
#include <cstdint>
#include <string>

#include "posenc/rope/rope.hpp"
#include "posenc/models/rope_settings.hpp"
#include "posenc/rope/rope_config.hpp"
#include "posenc/error.hpp"
#include "posenc/memory.hpp"
#include "posenc/models/model_report.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  posenc::set_memory_limit(std::uint64_t{64} << 20);
  try {
    auto c = posenc::models::parse_hf_config(std::string(reinterpret_cast<const char*>(data), size));
    posenc::rope::finalize_rope_config(c);
    const auto f = posenc::rope::compute_frequencies(c);
    if (f.inv_freq.empty()) __builtin_trap();
  } catch (const posenc::Error&) {
  }
  try {
    const auto r = posenc::models::parse_model(std::string(reinterpret_cast<const char*>(data), size), "config.json");
    if (r.source.empty()) __builtin_trap();
  } catch (const posenc::Error&) {
  }
  return 0;
}
