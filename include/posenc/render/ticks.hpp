#pragma once
/// Tick values and labels for figure axes: the "nice number" rule (steps of 1, 2 or 5
/// × 10^k) for linear axes, powers of ten for log axes.
#include <string>
#include <vector>

namespace posenc::render {

struct Tick {
  double value = 0;
  std::string label;
};

/// The smallest step of the form {1, 2, 5} × 10^k, at least `min_step`, that puts at most
/// `max_ticks` multiples of itself inside [lo, hi].
double nice_step(double lo, double hi, int max_ticks, double min_step = 0.0);

/// Ticks at the multiples of nice_step inside [lo, hi] (lo == hi: that one value).
/// `min_step` = 1 keeps the ticks of cell indices on integers.
std::vector<Tick> linear_ticks(double lo, double hi, int max_ticks, double min_step = 0.0);

/// Ticks of a log axis over [lo, hi] (lo > 0): powers of ten labelled 10ⁿ, every
/// k-th decade when there are too many; within less than two decades 2× and 5× too.
std::vector<Tick> log_ticks(double lo, double hi, int max_ticks);

/// Label of `v` on an axis with tick spacing `step` whose largest |value| is `axis_max`: just
/// enough decimals for the step ("0.25", "40"), or scientific form ("2.5e-5", "1e6", "9e5",
/// mantissa without trailing zeros) when the step is below 1e-4 or the axis reaches 1e6, so
/// every label of one axis has the same form (not "900000" beside "1e6"); negative numbers
/// use the minus sign U+2212, as typeset figures do.
std::string tick_label(double v, double step, double axis_max = 0);

/// "10" followed by the exponent in Unicode superscript digits ("10⁻³").
std::string power_of_ten_label(int exponent);

}  // namespace posenc::render
