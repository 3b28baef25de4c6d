#pragma once
// posenc.similarity and posenc.check: analyses of a scheme's table (analyses.cpp).
#include <pybind11/pybind11.h>

#include <memory>
#include <string>

#include "kwargs.hpp"
#include "posenc/analysis/decay_run.hpp"
#include "posenc/analysis/project_table.hpp"
#include "posenc/reports/decay_writers.hpp"
#include "posenc/table.hpp"

namespace posenc::python {

/// The values of SCHEME or of the model at hf_config=/gguf= as the analyses take them. Sets `scheme`.
ParamMap analysis_values(const std::string& scheme_arg, Keywords& kw, std::string& scheme);
/// The table a command analyses: SCHEME or hf_config=/gguf= (the model's), with the analyses'
/// defaults for what the keywords leave (rope in float64 unless precision=). Sets `scheme`.
std::unique_ptr<Table> analysis_table(const std::string& scheme_arg, Keywords& kw, std::string& scheme, ParamMap& params);
/// The table's JSON keys (`posenc … --format json`) with its values as one array (the buffer
/// the library filled): scheme, params, results, shape, axes, columns, dtype, first_position, data.
pybind11::dict table_dict(const Table& t, bool float64);

/// `posenc decay SCHEME …` or `posenc decay --input FILE …`: its options' keywords (max_offset,
/// from, metric, symmetric, qk, seed, no_extras, dtype, vary, compare: a spec or a list of
/// them, input) and the scheme's. `for_figure`: as -o x.png computes it (several schemes' dot
/// products normalised at offset 0).
struct DecayOutcome {
  reports::DecayJsonSettings settings;
  std::vector<std::int64_t> offsets;
  analysis::DecayRun run;
  bool normalised = false;
};
DecayOutcome decay_outcome(const std::string& scheme, Keywords& kw, bool for_figure = false);
/// `posenc decay … --format json`.
std::string decay(const std::string& scheme, pybind11::dict kwargs);
/// `posenc project SCHEME …` (dims= as "0,1,3", pca=, dtype=); `float64` from dtype=.
analysis::Projection projection(const std::string& scheme, Keywords& kw, bool& float64);
/// `posenc project … --format json` as table_dict (a rank note is a UserWarning).
pybind11::dict project(const std::string& scheme, pybind11::dict kwargs);
/// `posenc similarity SCHEME …`'s table (metric=, qk=, seed=, dtype= sets `float64`);
/// `for_figure` as the command computes it for -o x.png.
std::unique_ptr<Table> similarity_table(const std::string& scheme, Keywords& kw, bool for_figure, bool& float64);
pybind11::dict similarity(const std::string& scheme, pybind11::dict kwargs);
/// {"scheme", "params", "options", "all_hold", "identities", "skipped"} as `posenc check
/// --format json` has them (but "command").
pybind11::dict check(const std::string& scheme, pybind11::dict kwargs);

}  // namespace posenc::python
