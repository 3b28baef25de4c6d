#include "rope_gguf_diff.hpp"

#include <fmt/format.h>

#include "posenc/models/gguf_check.hpp"
#include "posenc/error.hpp"
#include "posenc/reports/gguf_check_writers.hpp"

namespace posenc::cli {

int run_gguf_diff(Context& ctx, const ReportOutput& output, formats::Format f, const rope::RopeConfig& a,
                  const rope::RopeConfig& b, const ParamMap& params_a, const std::string& label_a,
                  const std::string& label_b, std::int64_t max_model_len, double tol) {
  if (f != formats::Format::kText && f != formats::Format::kJson)
    throw Error(fmt::format("--format {}: rope diff with a .gguf side writes text or json", formats::info(f).name));
  const auto k = models::check_gguf_conversion(a, b, max_model_len, tol, &params_a);
  output.emit(ctx, f, [&](std::ostream& s) {
    if (f == formats::Format::kJson) {
      reports::write_gguf_check_json(k, label_a, label_b, s);
    } else {
      reports::write_gguf_check_text(k, label_a, label_b, s);
    }
  });
  return k.ok() ? kOk : kCheckFailed;
}

}  // namespace posenc::cli
