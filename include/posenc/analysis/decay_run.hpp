#pragma once
/// One `posenc decay` run: the curves of every source (a scheme setting, one per --vary value,
/// each --compare, or a table of the user's) under one DecayRequest, with their legends, and the
/// rule that refuses options that shaped no curve. Any front end gets the same run from here.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "posenc/analysis/scheme_decay.hpp"
#include "posenc/params.hpp"
#include "posenc/table.hpp"

namespace posenc::analysis {

/// What makes one group of curves: `scheme` with `params` (len fitted), or, when `scheme` is "",
/// the table `make_table` returns (called when the curves are computed).
struct DecaySource {
  std::string label;  ///< "" or what names the curves ("sinusoidal base=100", a --compare spec)
  std::string scheme;
  ParamMap params;
  std::function<std::unique_ptr<Table>()> make_table;
};

/// Every curve of a run, with its figure legend, and what the options did.
struct DecayRun {
  std::vector<Series> all;           ///< named "LABEL: curve" when the source has a label
  std::vector<std::string> legend;   ///< just the label when its source has one curve
  std::vector<std::string> methods;  ///< how the curves were computed, once each
  bool uses_metric = false, uses_qk = false, has_extras = false;
  /// The methods joined with "; ".
  std::string method() const;
};

/// The curves of every source for `r`. With `normalise` (a figure of several schemes' dot
/// products) each source's curves are divided by their value at Δ = 0 (normalise_at_zero),
/// said in the legend as " (/64)".
DecayRun decay_run(const std::vector<DecaySource>& sources, const DecayRequest& r, bool normalise);

/// Options the user gave that shaped no curve of `run` are an Error saying what they apply to:
/// --metric (`metric_given`), --qk or --seed (`qk_given`), --no-extras. `who`: the scheme, or
/// "an --input table".
void refuse_unused_decay_options(const DecayRun& run, const std::string& who, bool metric_given, bool qk_given,
                                 bool no_extras);

}  // namespace posenc::analysis
