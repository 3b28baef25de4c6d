#include "posenc/analysis/scheme_identities.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>

#include "posenc/analysis/identity_bias.hpp"
#include "posenc/models/rope_settings.hpp"
#include "posenc/analysis/identity_sinusoids.hpp"
#include "posenc/analysis/axial_rope_case.hpp"
#include "posenc/analysis/mrope_case.hpp"
#include "posenc/analysis/xpos_identity.hpp"
#include "posenc/analysis/rope_case.hpp"
#include "posenc/analysis/rope_identity.hpp"
#include "posenc/analysis/scheme_traits.hpp"
#include "posenc/analysis/sinusoids.hpp"
#include "posenc/rope/rope_config.hpp"
#include "posenc/memory.hpp"
#include "posenc/error.hpp"
#include "posenc/text.hpp"

namespace posenc::analysis {
namespace {

bool contains(const std::vector<std::string>& v, const std::string& s) { return std::find(v.begin(), v.end(), s) != v.end(); }

IdentityResult run_absolute(const std::string& name, const Table& table, const Matrix& pe, const CheckSettings& s) {
  if (name == "shift-linear") return check_shift_linear(pe, known_sinusoids(table.info()), s.max_offset, s.tolerance);
  if (name == "dot-shift-invariant") return check_dot_shift_invariant(pe, s.max_offset, s.tolerance);
  if (name == "dot-symmetric") return check_dot_symmetric(pe, s.max_offset, s.tolerance);
  if (name == "unique") return check_unique(pe, s.min_distance);
  if (name == "bounded") return check_bounded(pe, s.bound);
  if (name == "bias-symmetric") return check_bias_symmetric(table, s.tolerance);
  return check_bias_relative(table, s.tolerance);
}

/// The identities the closed forms of a sin/cos table decide (issue 15.8); nullopt for the others.
std::vector<std::optional<IdentityResult>> closed_forms(const Table& table, const Sinusoids& known,
                                                        const std::vector<std::string>& names, const CheckSettings& s) {
  std::vector<std::optional<IdentityResult>> out(names.size());
  const auto dev = sinusoid_deviation(table, known);
  if (!dev.finite) return out;  // the direct checks name the first NaN or inf
  for (std::size_t i = 0; i < names.size(); ++i) {
    const std::string& n = names[i];
    if (n == "shift-linear") out[i] = closed_shift_linear(dev, table.rows(), s.tolerance);
    if (n == "dot-shift-invariant" || n == "dot-symmetric")
      out[i] = closed_dot_identity(n.c_str(), dev, known, table.rows(), s.tolerance);
    if (n == "unique") out[i] = closed_unique(table, known, dev, s.min_distance);
    if (n == "bounded") out[i] = closed_bounded(dev, table.rows(), table.cols(), s.bound);
  }
  return out;
}

IdentityResult run_rope(const std::string& name, const RopeCheckCase& c, double tol) {
  if (name == "rope-relative") return check_rope_relative(c, tol);
  if (name == "rope-norm") return check_rope_norm(c, tol);
  if (name == "rope-forms-agree") return check_rope_forms_agree(c, tol);
  if (name == "layouts-agree") return check_layouts_agree(c, tol);
  if (name == "dot-shift-invariant") return check_rope_dot_shift_invariant(c, tol);
  return check_rope_dot_symmetric(c, tol);
}

// Schemes with several position axes (is_axial): the case their identities are checked on.
AxialCase axial_case(const std::string& scheme, const ParamMap& params, const CheckSettings& s) {
  if (scheme == "axial-rope")
    return make_axial_rope_case(rope::axial_rope_options(params), params.integer("len"),
                                          parse_qk(s.qk), s.seed);
  return make_mrope_case(rope::mrope_options(params), parse_qk(s.qk), s.seed);
}

IdentityResult run_axial(const std::string& name, const AxialCase& c, double tol) {
  if (name == "axial-relative") return check_axial_relative(c, tol);
  if (name == "text-reduces-to-rope") return check_text_reduces_to_rope(c, tol);
  return check_axial_norm(c, tol);
}

// Refuses direct checks whose estimated work exceeds settings.max_work, naming the option
// that bounds each (issue 26 item 11: unique on 200000 x 256 ran 14 minutes without a word).
void check_work(const std::vector<std::string>& direct, const Table& table, bool lsq, const CheckSettings& s) {
  std::vector<std::pair<double, std::string>> parts;
  double total = 0.0;
  for (const auto& n : direct) {
    const double w = direct_check_work(n, table.rows(), table.cols(), s.max_offset, lsq && n == "shift-linear");
    parts.emplace_back(w, n);
    total += w;
  }
  if (total <= s.max_work) return;
  std::sort(parts.begin(), parts.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  std::vector<std::string> text, fit;  // fit: the cheapest ones that stay within the limit together
  for (const auto& [w, n] : parts) text.push_back(fmt::format("{} {:.2g}", n, w));
  double used = 0.0;
  for (auto it = parts.rbegin(); it != parts.rend(); ++it)
    if (used + it->first <= s.max_work) fit.push_back(it->second), used += it->first;
  bool dots = false;
  for (const auto& [w, n] : parts) dots |= n == "dot-shift-invariant" || n == "dot-symmetric";
  std::vector<std::string> ways;
  if (!fit.empty()) ways.push_back(fmt::format("give --identity {} to leave out the costly ones", fmt::join(fit, ",")));
  if (dots) ways.push_back("lower --max-offset (dot identities)");
  std::string how;
  for (std::size_t i = 0; i < ways.size(); ++i) how += ways[i] + (i + 1 < ways.size() ? ", " : " or ");
  throw Error(fmt::format("check of a {} x {} table needs about {:.2g} operations ({}), above --max-work {:.2g}{}: "
                          "{}raise --max-work",
                          table.rows(), table.cols(), total, fmt::join(text, ", "), s.max_work,
                          parts.front().second == "unique" ? " (unique compares every pair of positions)" : "", how));
}

}  // namespace

double direct_check_work(const std::string& name, std::size_t n, std::size_t d, std::int64_t max_offset, bool lsq) {
  const auto nn = static_cast<double>(n), dd = static_cast<double>(d);
  const auto k = static_cast<double>(effective_max_offset(n, max_offset));
  if (name == "unique") return nn * (nn - 1.0) / 2.0 * dd;
  if (name == "dot-shift-invariant") return (k + 1.0) * nn * dd;
  if (name == "dot-symmetric") return std::min(k, std::floor((nn - 1.0) / 2.0)) * nn * dd;
  if (name == "shift-linear") return lsq ? 4.0 * nn * dd * dd : k * nn * dd;
  return nn * dd;  // bounded, bias-relative, bias-symmetric: each value once
}

std::vector<std::string> default_identities(const std::string& scheme) {
  if (scheme == "xpos") return {"xpos-relative"};
  if (scheme == "axial-rope") return {"axial-relative", "rope-norm"};
  if (is_axial(scheme)) return {"axial-relative", "text-reduces-to-rope", "rope-norm"};
  switch (scheme_kind(scheme)) {
    case SchemeKind::kRope: return {"rope-relative", "rope-norm", "rope-forms-agree", "layouts-agree"};
    case SchemeKind::kBias:
      if (scheme == "kerple" || scheme == "sandwich") return {"bias-relative", "bias-symmetric"};  // functions of |i - j|
      return {"bias-relative"};
    case SchemeKind::kAbsolute: break;
  }
  return {"shift-linear", "dot-shift-invariant", "dot-symmetric", "unique", "bounded"};
}

std::vector<std::string> applicable_identities(const std::string& scheme) {
  auto out = default_identities(scheme);
  // Appended from named strings: GCC 12 warns (-Warray-bounds, a false positive) on push_back of literals.
  const std::vector<std::string> dots = {"dot-shift-invariant", "dot-symmetric"},
                                 input = {"bias-relative", "bias-symmetric"}, symmetric = {"bias-symmetric"};
  if (scheme_kind(scheme) == SchemeKind::kRope) out.insert(out.end(), dots.begin(), dots.end());
  if (scheme.empty()) out.insert(out.end(), input.begin(), input.end());  // a user's own N x M bias matrix
  if (scheme == "alibi") out.insert(out.end(), symmetric.begin(), symmetric.end());
  return out;
}

CheckRun run_identities(const std::string& scheme, const ParamMap& params, const Table& table,
                        const std::vector<std::string>& requested, const CheckSettings& s) {
  const bool explicit_list = !requested.empty();
  // An H x N x M --input is a bias per head: only bias-relative applies to it.
  const bool heads_input = scheme.empty() && table.info().shape.size() == 3;
  std::vector<std::string> names = explicit_list ? requested : default_identities(scheme);
  if (heads_input && !explicit_list) names = {"bias-relative"};
  const auto applicable =
      heads_input ? std::vector<std::string>{"bias-relative", "bias-symmetric"} : applicable_identities(scheme);
  const std::string who = heads_input ? fmt::format("a {}-D --input table (H x N x M biases)", table.info().shape.size())
                          : scheme.empty() ? "an --input table" : "scheme " + scheme;
  for (const auto& n : names)
    if (!contains(applicable, n))
      throw Error(fmt::format("identity '{}' does not apply to {}; it applies to: {}", n, who, join_choices(applicable)));
  std::vector<std::string> unique_names;
  for (const auto& n : names)
    if (!contains(unique_names, n)) unique_names.push_back(n);
  names = std::move(unique_names);

  CheckRun run;
  std::vector<IdentityResult> results;
  if (scheme == "xpos") {  // the scheme's own scaling and rotation of q and k (keys as --key-scale says)
    const auto key_role = params.text("key-scale") == "same" ? rope::XposRole::kQuery : rope::XposRole::kKey;
    const auto c = make_xpos_case(rope::xpos_options(params), key_role, parse_qk(s.qk), s.seed);
    for ([[maybe_unused]] const auto& n : names) results.push_back(check_xpos_relative(c, s.tolerance));
  } else if (is_axial(scheme)) {
    const auto c = axial_case(scheme, params, s);
    for (const auto& n : names) results.push_back(run_axial(n, c, s.tolerance));
  } else if (scheme_kind(scheme) == SchemeKind::kRope) {
    // The scheme's own cos and sin (precision, convention, attention factor) are what is checked.
    const auto config = models::resolve_rope_config(params);
    const auto c = make_rope_case(config, rope::compute_frequencies(config), static_cast<std::int64_t>(table.rows()),
                                  parse_qk(s.qk), s.seed);
    for (const auto& n : names) results.push_back(run_rope(n, c, s.tolerance));
  } else {
    if (table.info().shape.size() != 2 && scheme_kind(scheme) == SchemeKind::kAbsolute && !heads_input)
      throw Error(fmt::format("check needs a 2-D table (rows = positions); got {} axes", table.info().shape.size()));
    const bool vectors = scheme_kind(scheme) != SchemeKind::kBias && !heads_input;
    const auto known = vectors ? known_sinusoids(table.info()) : std::nullopt;
    // Closed forms first (O(N·D), rows streamed); what they cannot decide is checked directly.
    std::vector<std::optional<IdentityResult>> closed(names.size());
    if (known) closed = closed_forms(table, *known, names, s);
    std::vector<std::string> direct;
    for (std::size_t i = 0; i < names.size(); ++i)
      if (!closed[i]) direct.push_back(names[i]);
    if (vectors && !direct.empty()) {
      // The table, and for a least-squares shift-linear (no known frequencies) X, Y, their
      // transposed copies and the Householder reflectors: five more tables' worth.
      const auto n = static_cast<double>(table.rows()), d = static_cast<double>(table.cols());
      const bool lsq = contains(direct, "shift-linear") && !(known && known->dim == table.cols());
      check_working_memory((lsq ? 6 : 1) * n * d, fmt::format("check of a {} x {} table", table.rows(), table.cols()));
      check_work(direct, table, lsq, s);
    }
    const Matrix pe = !vectors || direct.empty() ? Matrix() : table.to_matrix();
    for (std::size_t i = 0; i < names.size(); ++i) {
      results.push_back(closed[i] ? std::move(*closed[i]) : run_absolute(names[i], table, pe, s));
      auto& r = results.back();
      if (r.name == "shift-linear" && !r.decided && r.note.ends_with(" rows"))  // how to give more positions
        r.note += scheme.empty() ? fmt::format(" (the --input table has {})", table.rows())
                                 : fmt::format(" (--len {})", table.cols() + 2);
    }
  }
  for (auto& r : results) {
    if (r.decided) {
      run.results.push_back(std::move(r));
    } else if (explicit_list) {
      throw Error(fmt::format("identity '{}' cannot be decided for {}: {}", r.name, who, r.note));
    } else {
      run.skipped.push_back(std::move(r));
    }
  }
  return run;
}

}  // namespace posenc::analysis
