#include "output_options.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cmath>
#include <cstdint>
#include <vector>
#include <type_traits>

#include "posenc/analysis/scheme_traits.hpp"
#include "posenc/error.hpp"
#include "posenc/io/output.hpp"
#include "posenc/io/writers.hpp"
#include "posenc/parallel.hpp"
#include "posenc/render/heatmap.hpp"
#include "posenc/render/text.hpp"
#include "posenc/toeplitz.hpp"
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
    fill_counting<double>(first, count, out, [this](std::size_t f, std::size_t n, std::span<double> o) { inner_.fill(f, n, o); });
  }
  void fill_f32(std::size_t first, std::size_t count, std::span<float> out) const override {
    fill_counting<float>(first, count, out, [this](std::size_t f, std::size_t n, std::span<float> o) { inner_.fill_f32(f, n, o); });
  }
  std::size_t nan_count() const { return nan_.load(); }
  std::size_t inf_count() const { return inf_.load(); }

 private:
  /// Fills a few rows at a time and counts them while they are still in the L1/L2 cache
  /// (counting a whole 512 KiB block afterwards cost 15% of a float32 .npy run).
  template <class T, class Fill>
  void fill_counting(std::size_t first, std::size_t count, std::span<T> out, const Fill& fill) const {
    const std::size_t c = cols();
    const std::size_t step = std::max<std::size_t>(1, 8192 / std::max<std::size_t>(1, c));
    for (std::size_t done = 0; done < count; done += step) {
      const std::size_t n = std::min(step, count - done);
      const auto part = out.subspan(done * c, n * c);
      fill(first + done, n, part);
      count_non_finite(part, (first + done) * c);
    }
  }
  /// Counts the nan and infinite values of `values` (flat index `at` of values[0]).
  template <class T>
  void count_non_finite(std::span<T> values, std::size_t at) const {
    // First a vectorisable count of values whose exponent bits are all ones (nan or inf),
    // then, only when there are some, which kind they are and where the first one is.
    using Bits = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;
    constexpr auto kExponent = static_cast<Bits>(sizeof(T) == 4 ? 0x7f800000u : 0x7ff0000000000000u);
    std::size_t bad = 0;
    for (std::size_t i = 0; i < values.size(); i += 65536) {  // a counter as wide as a value
      Bits chunk = 0;
      for (const T v : values.subspan(i, std::min<std::size_t>(65536, values.size() - i)))
        chunk += (std::bit_cast<Bits>(v) & kExponent) == kExponent ? 1u : 0u;
      bad += chunk;
    }
    if (bad == 0) return;
    std::size_t nan = 0;
    for (std::size_t i = 0; i < values.size(); ++i) {
      if (std::isnan(values[i])) {
        ++nan;
        keep_first(first_nan_, at + i);
      } else if (std::isinf(values[i])) {
        keep_first(first_inf_, at + i);
      }
    }
    if (nan != 0) nan_ += nan;
    if (bad != nan) inf_ += bad - nan;
  }
  static void keep_first(std::atomic<std::size_t>& slot, std::size_t index) {
    std::size_t seen = slot.load();
    while (index < seen && !slot.compare_exchange_weak(seen, index)) {
    }
  }

 public:
  /// Flat index of the first nan / infinite value seen (SIZE_MAX when none).
  std::size_t first_nan() const { return first_nan_.load(); }
  std::size_t first_inf() const { return first_inf_.load(); }

 private:
  const Table& inner_;
  mutable std::atomic<std::size_t> nan_{0}, inf_{0};
  mutable std::atomic<std::size_t> first_nan_{SIZE_MAX}, first_inf_{SIZE_MAX};
};

/// The double value at flat index `at` of `t` (one row filled).
double value_at(const Table& t, std::size_t at) {
  std::vector<double> row(t.cols());
  t.fill(at / t.cols(), 1, row);
  return row[at % t.cols()];
}

/// Why the output holds non-finite values, from what is known about each kind: causal alibi
/// masks, a user's file holding them, float32 overflow of finite doubles, or the computation.
/// Every value and its float32 rounding are finite (from the diagonals of every slice).
bool toeplitz_all_finite(const ToeplitzTable& t) {
  for (std::size_t s = 0; s < t.slices(); ++s)
    for (const double v : t.all_diagonals(s))
      if (!std::isfinite(to_f32(v))) return false;
  return true;
}

std::string why_not_finite(const Table& table, const FiniteCountingTable& counted, io::DType dtype) {
  const TableInfo& info = table.info();
  std::vector<std::string> causes;
  const auto add = [&](std::string c) {
    if (std::find(causes.begin(), causes.end(), c) == causes.end()) causes.push_back(std::move(c));
  };
  // the file's values as they are (a long-form CSV keeps its value name: "bias")
  const bool input = info.scheme == "input" && (info.value_name == "value" || info.title.rfind("table from ", 0) == 0);
  const auto kind = [&](std::size_t at, const char* what) {
    if (dtype == io::DType::kFloat32 && std::isfinite(value_at(table, at))) {
      add("values beyond the float32 range became infinite: use --dtype float64");
    } else if (input) {
      add(fmt::format("the --input file holds {} values", what));
    } else if (const std::string masked = analysis::masked_entries_reason(info); !masked.empty()) {
      add(masked);
    } else if (info.value_name == "cosine" && std::string(what) == "nan") {
      add("the cosine with a zero vector is 0/0");
    } else {
      add("the computation overflowed or lost all precision: check the parameters");
    }
  };
  if (counted.nan_count() > 0) kind(counted.first_nan(), "nan");
  if (counted.inf_count() > 0) kind(counted.first_inf(), "infinite");
  return fmt::format(" ({})", fmt::join(causes, "; "));
}

// Every text a person gave or a table named that a figure draws (titles, labels, legend
// entries, panel titles); ticks are digits and signs, which the font has.
void figure_texts(const render::LineFigure& l, std::vector<std::string>& out) {
  out.insert(out.end(), {l.title, l.subtitle, l.x_label, l.y_label});
  for (const auto& s : l.series) out.push_back(s.name);
  for (const auto& r : l.references) out.push_back(r.label);
  for (const auto& p : l.panels) figure_texts(p, out);
}

/// PNG figures draw text with the embedded DejaVu Sans: a character it lacks comes out as a
/// box. Say so once, naming them (SVG leaves text to the viewer's fonts; ansi to the terminal).
void warn_missing_glyphs(Context& ctx, const render::Figure& fig) {
  std::vector<std::string> texts;
  if (const auto* h = std::get_if<render::HeatmapFigure>(&fig)) {
    texts = {h->title, h->subtitle, h->x_label, h->y_label, h->value_label};
    for (const auto& p : h->panels) texts.insert(texts.end(), {p.title, p.short_title});
  } else if (const auto* l = std::get_if<render::LineFigure>(&fig)) {
    figure_texts(*l, texts);
  } else {
    const auto& s = std::get<render::ScatterFigure>(fig);
    texts = {s.title, s.subtitle, s.colour_label};
    texts.insert(texts.end(), s.axis_labels.begin(), s.axis_labels.end());
  }
  std::string all;
  for (const auto& t : texts) all += t + "\n";
  const auto missing = render::missing_glyphs(all);
  if (missing.empty()) return;
  std::vector<std::string> named;
  for (const char32_t c : missing) named.push_back(fmt::format("'{}' (U+{:04X})", render::encode_utf8({c}), static_cast<std::uint32_t>(c)));
  ctx.err << fmt::format("posenc: warning: the figure's font (DejaVu Sans, built in) has no glyph for {}: drawn as "
                         "boxes; an SVG (-o NAME.svg) leaves them to the viewer's fonts\n",
                         fmt::join(named, ", "));
}

}  // namespace

void OutputOptions::bind(CLI::App& app, const std::vector<io::Format>& formats) {
  allowed = formats;
  const bool draws_figures = std::find(formats.begin(), formats.end(), io::Format::kPng) != formats.end();
  if (draws_figures) allowed.insert(allowed.end(), {io::Format::kSvg, io::Format::kAnsi});
  app.add_option("-o,--output", path, "output file, or - for stdout")->capture_default_str()->type_name("PATH")->check(non_empty_path());
  app.add_option("--format", format, "output format (default: from the extension of -o; csv on stdout)")
      ->check(CLI::IsMember(io::format_names(allowed)));
  const bool writes_npy = std::find(formats.begin(), formats.end(), io::Format::kNpy) != formats.end();
  app.add_option("--dtype", dtype,
                 writes_npy ? "float32 or float64: element type of .npy, and precision of the csv/json values"
                            : "float32 or float64: precision of the csv/json values (float32: each value as the nearest "
                              "float, in its shortest text)")
      ->capture_default_str()
      ->check(CLI::IsMember({"float32", "float64"}));
  integer_option(app.add_option("--threads", threads, "threads computing blocks of rows; output is the same for any value"), 1, 1024)
      ->default_str("all cores")
      ->each([](const std::string& v) { set_threads(static_cast<unsigned>(std::stoul(v))); });
  if (draws_figures) figure.bind(app);
}

io::Format OutputOptions::resolve() const { return io::resolve_format(format, path, allowed); }

void OutputOptions::check_path() const {
  if (path != "-") io::check_writable(path);
}

void emit(Context& ctx, const OutputOptions& o, bool binary, const std::function<void(std::ostream&)>& write,
          std::uint64_t min_bytes) {
  if (o.path == "-") {
    if (binary && ctx.out_is_terminal)
      throw Error("refusing to write binary output to a terminal: give -o FILE or redirect stdout");
    io::write_to_stdout(ctx.out, write);
    return;
  }
  io::write_atomically(o.path, binary, write, min_bytes);
}

void emit_table(Context& ctx, const OutputOptions& o, const Table& table) {
  // A drawn Toeplitz table is read from its diagonals, not its rows: passed as it is when
  // every value is finite (nothing to warn about), else counted row by row as any table.
  if (const ToeplitzTable* tt = as_toeplitz(table); tt && draws(o.resolve()) && toeplitz_all_finite(*tt))
    return emit_table_unchecked(ctx, o, table);
  const FiniteCountingTable t(table);
  emit_table_unchecked(ctx, o, t);
  // float32 holds every integer up to 2^24 only: past it, integer positions are rounded.
  const auto f = o.resolve();
  const std::size_t last = table.info().first_position + table.rows() - 1;
  if (analysis::values_are_positions(table.info().scheme) && table.rows() > 0 && last > (std::size_t{1} << 24) &&
      io::parse_dtype(o.dtype) == io::DType::kFloat32 && !draws(f)) {
    ctx.err << fmt::format("posenc: warning: positions above 16777216 (2^24) are rounded in float32 (the last, {}, "
                           "is written as {}): use --dtype float64\n",
                           last, static_cast<double>(static_cast<float>(last)));
  }
  if (t.nan_count() + t.inf_count() == 0) return;
  const char* what = t.nan_count() == 0 ? "infinite" : t.inf_count() == 0 ? "nan" : "nan and infinite";
  ctx.err << fmt::format("posenc: warning: the output holds {} values{}\n", what,
                         why_not_finite(table, t, io::parse_dtype(o.dtype)));
}

void emit_table_unchecked(Context& ctx, const OutputOptions& o, const Table& t) {
  const io::Format f = o.resolve();
  const io::DType dtype = io::parse_dtype(o.dtype);
  switch (f) {
    case io::Format::kCsv:
      return emit(ctx, o, false, [&](std::ostream& s) { io::write_csv(t, s, dtype); }, io::min_output_bytes(t, f, dtype));
    case io::Format::kJson:
      return emit(ctx, o, false, [&](std::ostream& s) { io::write_json(t, s, dtype); }, io::min_output_bytes(t, f, dtype));
    case io::Format::kNpy:
      return emit(ctx, o, true, [&](std::ostream& s) { io::write_npy(t, s, dtype); }, io::min_output_bytes(t, f, dtype));
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
  if (f == io::Format::kPng) warn_missing_glyphs(ctx, fig);
  const std::string bytes = figure_bytes(fig, f, metadata);
  emit(ctx, o, io::info(f).binary, [&](std::ostream& s) { s << bytes; });
}

}  // namespace posenc::cli
