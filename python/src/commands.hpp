#pragma once
// What each Python function asks of the library, without Python types: the module converts the
// keywords (kwargs.hpp) and releases the GIL around these calls.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "posenc/models/model_report.hpp"
#include "posenc/params.hpp"
#include "posenc/render/figure.hpp"
#include "posenc/table.hpp"

namespace posenc::python {

/// The scheme generate uses: `scheme`, else the one of the model at `hf_config`.
std::string generate_scheme(const std::string& scheme, const std::string& hf_config);
/// The values of `scheme` as `posenc generate SCHEME [--hf-config PATH]` takes them: the
/// model's settings for what `given` does not set.
ParamMap generate_values(const std::string& scheme, ParamMap given, const std::string& hf_config);
/// The whole table as float32 (or float64) in row-major order, computed on the library's threads.
void fill_table(const Table& t, float* out);
void fill_table(const Table& t, double* out);

/// `posenc rope … --format json`.
std::string rope_json(const ParamMap& settings);
/// `posenc rope engines --len L --tol T … --format json`; `within`: every convention within tol.
std::string rope_engines_json(const ParamMap& settings, std::int64_t len, double tol, bool& within);
/// `posenc model PATH --format json` (a .gguf as `--gguf`).
/// `posenc model PATH`'s report: the file's mechanisms, with the tables and RoPE tensors its
/// weights hold and their statistics.
models::ModelReport model_report(const std::string& path);
std::string model_json(const std::string& path);

/// `posenc extrapolate`: the command's own options, and its RoPE, ALiBi, T5 and KERPLE settings.
struct ExtrapolateArgs {
  std::int64_t train_len = 0, target_len = 0, samples = 16;
  std::uint64_t seed = 0;
  std::string methods = "none,linear,ntk,yarn,llama3", schemes = "alibi,t5";
  ParamMap rope, alibi, t5, kerple;
};
std::string extrapolate_json(const ExtrapolateArgs& a);
/// The option specs of extrapolate's own options and which settings of which scheme it takes.
std::vector<ParamSpec> extrapolate_specs();
std::vector<std::pair<std::string, std::vector<std::string>>> extrapolate_scheme_settings();

/// A figure and the metadata its PNG/SVG carry.
struct FigureData {
  render::Figure figure;
  render::Metadata metadata;
};
/// `posenc extrapolate … -o x.png`.
FigureData extrapolate_figure(const ExtrapolateArgs& a);
/// `posenc rope engines --len L --tol T … -o x.png`.
FigureData rope_engines_figure(const ParamMap& settings, std::int64_t len, double tol);
/// `posenc rope … -o x.png`.
FigureData rope_figure(const ParamMap& settings);

}  // namespace posenc::python
