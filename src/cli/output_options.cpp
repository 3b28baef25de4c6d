#include "output_options.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cmath>

#include "posenc/error.hpp"
#include "posenc/io/output.hpp"
#include "posenc/io/writers.hpp"
#include "posenc/parallel.hpp"
#include "posenc/render/heatmap.hpp"
#include "validators.hpp"

namespace posenc::cli {
namespace {

/// Passes a table through, counting the NaN and infinite values the writer sees, so that a
/// run can say when its output holds them. Both fills are forwarded, so the inner table's
/// float32 fast path stays in use; blocks are filled on worker threads, hence the atomics.
class FiniteCountingTable : public Table {
 public:
  explicit FiniteCountingTable(const Table& t) : Table(t.info()), inner_(t) {}
  void fill(std::size_t first, std::size_t count, std::span<double> out) const override {
    inner_.fill(first, count, out);
    count_non_finite(out.first(count * cols()));
  }
  void fill_f32(std::size_t first, std::size_t count, std::span<float> out) const override {
    inner_.fill_f32(first, count, out);
    count_non_finite(out.first(count * cols()));
  }
  std::size_t nan_count() const { return nan_.load(); }
  std::size_t inf_count() const { return inf_.load(); }

 private:
  template <class T>
  void count_non_finite(std::span<T> values) const {
    std::size_t nan = 0, inf = 0;
    for (const T v : values) {
      nan += std::isnan(v) ? 1 : 0;
      inf += std::isinf(v) ? 1 : 0;
    }
    if (nan != 0) nan_ += nan;
    if (inf != 0) inf_ += inf;
  }
  const Table& inner_;
  mutable std::atomic<std::size_t> nan_{0}, inf_{0};
};

std::string why_not_finite(const TableInfo& info) {
  for (const auto& [k, v] : info.params)
    if (info.scheme == "alibi" && k == "form" && to_string(v) == "causal") return " (causal alibi masks future keys with -inf)";
  return " (the computation overflowed or lost all precision: check the parameters)";
}

}  // namespace

void OutputOptions::bind(CLI::App& app, const std::vector<io::Format>& formats) {
  allowed = formats;
  const bool draws_figures = std::find(formats.begin(), formats.end(), io::Format::kPng) != formats.end();
  if (draws_figures) allowed.insert(allowed.end(), {io::Format::kSvg, io::Format::kAnsi});
  app.add_option("-o,--output", path, "output file, or - for stdout")->capture_default_str()->type_name("PATH")->check(non_empty_path());
  app.add_option("--format", format, "output format (default: from the extension of -o)")
      ->check(CLI::IsMember(io::format_names(allowed)));
  app.add_option("--dtype", dtype, "element type of .npy output and of printed values")
      ->capture_default_str()
      ->check(CLI::IsMember({"float32", "float64"}));
  app.add_option("--threads", threads, "threads computing blocks of rows (default: all cores); output is the same for any value")
      ->check(CLI::Range(1, 1024))
      ->each([](const std::string& v) { set_threads(static_cast<unsigned>(std::stoul(v))); });
  if (draws_figures) figure.bind(app);
}

io::Format OutputOptions::resolve() const { return io::resolve_format(format, path, allowed); }

void OutputOptions::check_path() const {
  if (path != "-") io::check_writable(path);
}

void emit(Context& ctx, const OutputOptions& o, bool binary, const std::function<void(std::ostream&)>& write) {
  if (o.path == "-") {
    if (binary && ctx.out_is_terminal)
      throw Error("refusing to write binary output to a terminal: give -o FILE or redirect stdout");
    write(ctx.out);
    ctx.out.flush();
    return;
  }
  io::write_atomically(o.path, binary, write);
}

void emit_table(Context& ctx, const OutputOptions& o, const Table& table) {
  const FiniteCountingTable t(table);
  emit_table_unchecked(ctx, o, t);
  if (t.nan_count() + t.inf_count() == 0) return;
  const char* what = t.nan_count() == 0 ? "infinite" : t.inf_count() == 0 ? "nan" : "nan and infinite";
  ctx.err << fmt::format("posenc: warning: the output holds {} values{}\n", what, why_not_finite(table.info()));
}

void emit_table_unchecked(Context& ctx, const OutputOptions& o, const Table& t) {
  const io::Format f = o.resolve();
  const io::DType dtype = io::parse_dtype(o.dtype);
  switch (f) {
    case io::Format::kCsv:
      return emit(ctx, o, false, [&](std::ostream& s) { io::write_csv(t, s, dtype); });
    case io::Format::kJson:
      return emit(ctx, o, false, [&](std::ostream& s) { io::write_json(t, s, dtype); });
    case io::Format::kNpy:
      return emit(ctx, o, true, [&](std::ostream& s) { io::write_npy(t, s, dtype); });
    case io::Format::kPng:
    case io::Format::kSvg:
    case io::Format::kAnsi:
      return emit_figure(ctx, o, table_heatmap(t, o.figure), figure_metadata(t.info().title, t.info().params));
    case io::Format::kText:
      break;
  }
  throw Error(fmt::format("--format {} is not available here", io::info(f).name));
}

void emit_figure(Context& ctx, const OutputOptions& o, render::Figure fig, const render::Metadata& metadata) {
  const io::Format f = o.resolve();
  o.figure.apply(fig);
  const std::string bytes = figure_bytes(fig, f, metadata);
  emit(ctx, o, io::info(f).binary, [&](std::ostream& s) { s << bytes; });
}

}  // namespace posenc::cli
