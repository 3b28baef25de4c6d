// `posenc rope diff --weights` (qk_order_check.hpp): parse, call, write.
#include "qk_order_check.hpp"

#include "posenc/error.hpp"
#include "posenc/models/qk_order.hpp"
#include "posenc/reports/qk_order_writers.hpp"

namespace posenc::cli {

int run_qk_order_check(Context& ctx, const ReportOutput& output, formats::Format f,
                       const std::optional<std::string>& hf, const std::optional<std::string>& gguf) {
  if (!gguf)
    throw Error("--weights needs --config-b FILE.gguf (and --config-a HF_FOLDER for the q/k row order)");
  if (f != formats::Format::kText && f != formats::Format::kJson)
    throw Error("--weights writes text or json (--format text|json)");
  const models::QkOrderReport r = hf ? models::check_qk_order(*hf, *gguf) : models::check_gguf_rope_tensors(*gguf);
  output.emit(ctx, f, [&](std::ostream& s) {
    if (f == formats::Format::kJson) reports::write_qk_order_json(r, s);
    else reports::write_qk_order_text(r, s);
  });
  return r.ok() ? kOk : kCheckFailed;
}

}  // namespace posenc::cli
