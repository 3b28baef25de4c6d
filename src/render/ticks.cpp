#include "posenc/render/ticks.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace posenc::render {
namespace {

// Number of multiples of `step` inside [lo, hi].
double count_in(double lo, double hi, double step) {
  return std::floor(hi / step + 1e-9) - std::ceil(lo / step - 1e-9) + 1;
}

// "1e+06" → "1e6", "2.5e-05" → "2.5e-5".
std::string tidy_exponent(std::string s) {
  const auto e = s.find('e');
  if (e == std::string::npos) return s;
  std::string mant = s.substr(0, e), exp = s.substr(e + 1);
  const bool neg = !exp.empty() && exp[0] == '-';
  if (!exp.empty() && (exp[0] == '+' || exp[0] == '-')) exp.erase(0, 1);
  exp.erase(0, std::min(exp.find_first_not_of('0'), exp.size() - 1));
  return mant + "e" + (neg ? "-" : "") + exp;
}

std::string with_minus_sign(std::string s) {
  if (!s.empty() && s[0] == '-') s.replace(0, 1, "\u2212");
  return s;
}

}  // namespace

double nice_step(double lo, double hi, int max_ticks, double min_step) {
  const double range = hi - lo;
  if (!(range > 0) || !std::isfinite(range)) return std::max(min_step, 1.0);
  max_ticks = std::max(max_ticks, 2);
  double decade = std::pow(10.0, std::floor(std::log10(range / max_ticks)) - 1);
  for (int guard = 0; guard < 8; ++guard, decade *= 10)
    for (double m : {1.0, 2.0, 5.0}) {
      const double step = m * decade;
      if (step >= min_step && count_in(lo, hi, step) <= max_ticks) return step;
    }
  return std::max(min_step, range);
}

std::vector<Tick> linear_ticks(double lo, double hi, int max_ticks, double min_step) {
  if (!std::isfinite(lo) || !std::isfinite(hi)) return {};
  if (!(hi > lo)) return {{lo, tick_label(lo, std::max(std::abs(lo), 1.0))}};
  const double step = nice_step(lo, hi, max_ticks, min_step);
  std::vector<Tick> out;
  const auto first = static_cast<long long>(std::ceil(lo / step - 1e-9));
  const auto last = static_cast<long long>(std::floor(hi / step + 1e-9));
  // One format for the whole axis: the largest tick decides between plain and scientific.
  const double largest = std::max(std::abs(static_cast<double>(first)), std::abs(static_cast<double>(last))) * step;
  for (long long k = first; k <= last; ++k) {
    const double v = static_cast<double>(k) * step;  // k·step, not a running sum: no drift
    out.push_back({v, tick_label(v, step, largest)});
  }
  return out;
}

std::vector<Tick> log_ticks(double lo, double hi, int max_ticks) {
  if (!(lo > 0) || !(hi >= lo) || !std::isfinite(hi)) return {};
  const int e0 = static_cast<int>(std::ceil(std::log10(lo) - 1e-9));
  const int e1 = static_cast<int>(std::floor(std::log10(hi) + 1e-9));
  std::vector<Tick> out;
  if (e1 - e0 < 2) {
    // Few decades: 1, 2, 5 × 10^k, labelled as plain numbers.
    for (int e = e0 - 1; e <= e1; ++e)
      for (double m : {1.0, 2.0, 5.0}) {
        const double v = m * std::pow(10.0, e);
        if (v >= lo * (1 - 1e-9) && v <= hi * (1 + 1e-9)) out.push_back({v, ""});
      }
    // Labels once the largest is known: one form for the axis (plain, or scientific from 1e6).
    const double largest = out.empty() ? 0.0 : out.back().value;
    for (auto& t : out) t.label = tick_label(t.value, std::pow(10.0, std::floor(std::log10(t.value) + 1e-9)), largest);
    if (static_cast<int>(out.size()) <= max_ticks) return out;
    out.clear();
  }
  const int every = std::max(1, (e1 - e0 + max_ticks) / std::max(max_ticks, 1));
  for (int e = e0; e <= e1; ++e)
    if (e % every == 0) out.push_back({std::pow(10.0, e), power_of_ten_label(e)});
  return out.empty() ? linear_ticks(lo, hi, max_ticks) : out;
}

std::string tick_label(double v, double step, double axis_max) {
  if (std::abs(v) < step * 1e-9) v = 0;  // k·step for k = 0 can be −0 or a rounding residue
  const double big = std::max({std::abs(v), step, std::abs(axis_max)});
  if (big >= 1e6 || step < 1e-4) {
    if (v == 0) return "0";
    // Significant digits: from the leading digit of v down to the digit of the step.
    const int digits = std::max(1, static_cast<int>(std::floor(std::log10(std::abs(v)) + 1e-9) -
                                                    std::floor(std::log10(step) + 1e-9)) + 1);
    // The mantissa without trailing zeros ("1e6", not "1.0e6"), so an axis reads 9e5, 1e6.
    std::string text = fmt::format("{:.{}e}", v, digits - 1);
    const auto e = text.find('e'), dot = text.find('.');
    if (dot != std::string::npos && dot < e) {
      std::size_t end = e;
      while (text[end - 1] == '0') --end;
      if (text[end - 1] == '.') --end;
      text.erase(end, e - end);
    }
    return with_minus_sign(tidy_exponent(text));
  }
  const int decimals = std::max(0, -static_cast<int>(std::floor(std::log10(step) + 1e-9)));
  return with_minus_sign(fmt::format("{:.{}f}", v, decimals));
}

std::string power_of_ten_label(int exponent) {
  static const char* const kDigits[] = {"⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"};
  std::string out = "10";
  if (exponent < 0) out += "⁻";
  const std::string digits = std::to_string(std::abs(exponent));
  for (char d : digits) out += kDigits[d - '0'];
  return out;
}

}  // namespace posenc::render
