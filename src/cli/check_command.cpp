// posenc check SCHEME [scheme options] [--identity NAME ...] [--tol X] [--format text|json] [-o PATH]
// Exit 0 when every checked identity holds, 1 when one fails, 2 for bad input or an
// identity that does not apply (or cannot be decided for this table).
#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <sstream>

#include "analysis_support.hpp"
#include "app.hpp"
#include "validators.hpp"
#include "check_echo.hpp"
#include "posenc/analysis/scheme_identities.hpp"
#include "posenc/analysis/scheme_traits.hpp"
#include "posenc/schemes/registry.hpp"
#include "posenc/error.hpp"
#include "posenc/formats/format.hpp"
#include "posenc/formats/output.hpp"
#include "posenc/text.hpp"
#include "scheme_options.hpp"

namespace posenc::cli {
namespace {

struct CheckOptions {
  SchemeOptions scheme;
  std::vector<std::string> identities;
  analysis::CheckSettings settings;
  std::optional<std::string> format;  ///< text or json; default from -o's extension, text on stdout
  std::string output = "-";
};

std::string worst_text(const analysis::IdentityResult& r) {
  std::vector<std::string> parts;
  for (const auto& [k, v] : r.worst) parts.push_back(fmt::format("{}={}", k, v));
  return fmt::format("{}", fmt::join(parts, " "));
}

std::string short_number(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  return fmt::format("{:.3g}", v);
}

void print_text(std::ostream& out, const CheckEcho& echo, const analysis::CheckRun& run) {
  out << fmt::format("posenc {}\n", echo.command);
  if (!echo.settings.empty()) out << fmt::format("  settings: {}\n", echo.settings);
  for (const auto& r : run.results)
    out << fmt::format("  {:<5}  {:<20} {} {} (tolerance {}){}\n      {}; {}\n", r.holds ? "holds" : "FAILS", r.name,
                       r.measure.find("must exceed") != std::string::npos ? "smallest" : "max error",
                       short_number(r.max_error), short_number(r.tolerance),
                       r.worst.empty() ? "" : ", worst at " + worst_text(r), r.measure, r.note);
  for (const auto& r : run.skipped) out << fmt::format("  skip   {:<20} {}\n", r.name, r.note);
  std::size_t failed = 0;
  for (const auto& r : run.results) failed += r.holds ? 0 : 1;
  const std::size_t total = run.results.size();
  if (failed == 0)
    out << (total == 1 ? std::string("the 1 identity holds\n") : fmt::format("all {} identities hold\n", total));
  else if (total == 1)
    out << "the 1 identity fails\n";
  else
    out << fmt::format("{} of {} identities {}\n", failed, total, failed == 1 ? "fails" : "fail");
}

nlohmann::ordered_json to_json(const analysis::IdentityResult& r, bool with_result) {
  nlohmann::ordered_json j;
  j["name"] = r.name;
  if (with_result) {
    j["holds"] = r.holds;
    j["max_error"] = std::isfinite(r.max_error) ? nlohmann::ordered_json(r.max_error) : nullptr;
    j["tolerance"] = r.tolerance;
    nlohmann::ordered_json worst = nlohmann::ordered_json::object();
    for (const auto& [k, v] : r.worst) worst[k] = v;
    j["worst"] = worst;
    j["measure"] = r.measure;
  }
  j["note"] = r.note;
  return j;
}

int run_check(Context& ctx, const CheckOptions& o) {
  const formats::Format format = formats::resolve_format(o.format, o.output, {formats::Format::kText, formats::Format::kJson});
  if (o.output != "-") formats::check_writable(o.output);  // before the work
  const std::string scheme = o.scheme.scheme();
  const ParamMap params = scheme.empty() ? ParamMap() : analysis::analysis_params(scheme, o.scheme.values());
  const auto table = scheme.empty() ? o.scheme.make_table(/*max_axes=*/3)  // an --input .npy may be H x N x M biases
                                    : schemes::make_table(scheme, params);
  // Identities compare positions: one position checks nothing (only 'bounded' applies to it).
  const auto& shape = table->info().shape;
  const std::size_t positions = shape.size() >= 2 ? shape[shape.size() - 2] : table->rows();
  const bool only_bounded = !o.identities.empty() &&
                            std::all_of(o.identities.begin(), o.identities.end(), [](const auto& n) { return n == "bounded"; });
  if (positions < 2 && !only_bounded)
    throw Error(fmt::format("check needs at least 2 positions: the identities compare positions (got {}; give --len 2 or more)",
                            positions));
  const analysis::CheckRun run = analysis::run_identities(scheme, params, *table, o.identities, o.settings);
  bool all_hold = true;
  for (const auto& r : run.results) all_hold = all_hold && r.holds;
  // The report says what was checked: the command that repeats it and the settings in effect.
  const CheckEcho echo = check_echo(scheme, scheme.empty() ? o.scheme.input() : std::string(),
                                    scheme.empty() ? ParamMap() : o.scheme.values(), table->info(), o.identities,
                                    o.settings, run);
  std::ostringstream report;  // small; written whole to -o, or to stdout
  if (format == formats::Format::kJson) {
    nlohmann::ordered_json j;
    j["scheme"] = scheme.empty() ? "input" : scheme;
    j["command"] = "posenc " + echo.command;
    j["params"] = entries_json(table->info().params);
    j["options"] = echo.options;
    j["all_hold"] = all_hold;
    j["identities"] = nlohmann::ordered_json::array();
    for (const auto& r : run.results) j["identities"].push_back(to_json(r, true));
    j["skipped"] = nlohmann::ordered_json::array();
    for (const auto& r : run.skipped) j["skipped"].push_back(to_json(r, false));
    report << j.dump(2) << "\n";
  } else {
    print_text(report, echo, run);
  }
  const auto write = [&](std::ostream& out) { out << report.str(); };
  if (o.output == "-") {
    formats::write_to_stdout(ctx.out, write);
  } else {
    formats::write_atomically(o.output, false, write);
  }
  return all_hold ? kOk : kCheckFailed;
}

}  // namespace

void add_check_command(CLI::App& app, Context& ctx, int& exit_code) {
  auto opts = std::make_shared<CheckOptions>();
  CLI::App* cmd = app.add_subcommand("check", "verify relative-position identities numerically (exit 0 hold, 1 fail)");
  std::string names;
  for (const auto& i : analysis::identity_infos()) names += fmt::format("\n  {:<20} {}", i.name, i.summary);
  cmd->footer(
      "identities (default: every one that applies to the scheme):" + names +
      "\nabsolute tables (incl. --input): shift-linear dot-shift-invariant dot-symmetric unique bounded"
      "\n  sinusoidal: closed forms, O(N*D), rows streamed; other tables in memory, unique O(N^2*D),"
      "\n  refused with an estimate above --max-work operations"
      "\nrope: rope-relative rope-norm rope-forms-agree layouts-agree (+ dot-shift-invariant dot-symmetric on request);"
      "\n  the scheme's own cos/sin are checked, in float64 unless --precision f32 (HF's float32 angles)"
      "\nalibi, t5, deberta, fire, an H x N x M --input .npy: bias-relative (+ bias-symmetric on request);"
      "\n  kerple, sandwich: bias-relative bias-symmetric (the bias is a function of |i - j|)"
      "\nexit codes: 0 all hold, 1 one fails, 2 bad input or an identity that does not apply, 3 output failed"
      "\nexamples:\n  posenc check sinusoidal --dim 64 --len 200 && echo ok"
      "\n  posenc check sine --dim 2 --len 1000 --identity unique"
      "\n  posenc check --input wpe.npy -o report.json"
      "\n  posenc check --hf-config bloom-560m/ --len 64   (the model's alibi biases: bias-relative)");
  opts->scheme.bind(*cmd, &ctx.err);
  std::vector<std::string> all_names;
  for (const auto& i : analysis::identity_infos()) all_names.push_back(i.name);
  cmd->add_option("--identity", opts->identities, "check only these (repeat or comma-separate)")
      ->delimiter(',')
      ->check(CLI::IsMember(all_names));
  cmd->add_option("--tol", opts->settings.tolerance, "relative tolerance of the exact identities")
      ->capture_default_str()
      ->check(finite_at_least(0.0));
  cmd->add_option("--min-distance", opts->settings.min_distance,
                  "unique: two positions closer than this times the largest |PE_t| collide")
      ->capture_default_str()
      ->check(finite_at_least(0.0));
  cmd->add_option("--bound", opts->settings.bound, "bounded: the largest |value| allowed")
      ->capture_default_str()
      ->check(finite_at_least(0.0));
  cmd->add_option("--max-offset", opts->settings.max_offset, "offsets checked: 1..K (0: up to N-1, at most 1024)")
      ->capture_default_str()
      ->transform(integer_in(0, 1 << 30))->type_name(integer_type(0, 1 << 30));
  cmd->add_option("--max-work", opts->settings.max_work,
                  "refuse direct checks of a table estimated above this many operations (unique: N(N-1)/2*D)")
      ->capture_default_str()
      ->check(finite_at_least(0.0));
  cmd->add_option("--qk", opts->settings.qk, "rope: random (q != k), same (k = q) or ones")
      ->capture_default_str()
      ->check(CLI::IsMember({"random", "same", "ones"}));
  cmd->add_option("--seed", opts->settings.seed, "rope: seed of the random q, k")
      ->capture_default_str()
      ->transform(non_negative_integer());
  cmd->add_option("--format", opts->format, "text or json")
      ->default_str("from the extension of -o (.txt, .json); text on stdout")
      ->check(CLI::IsMember({"text", "json"}));
  cmd->add_option("-o,--output", opts->output, "write the report to this file (whole or not at all), - for stdout")
      ->capture_default_str()
      ->type_name("PATH")
      ->check(non_empty_path());
  cmd->callback([opts, &ctx, &exit_code] { exit_code = run_check(ctx, *opts); });
}

}  // namespace posenc::cli
