// posenc list [--format text|json]: every scheme, its parameters and formula.
#include <fmt/format.h>

#include "app.hpp"
#include "posenc/schemes/registry.hpp"
#include "posenc/rope/rope.hpp"
#include "posenc/error.hpp"
#include "posenc/reports/scheme_list_writers.hpp"

namespace posenc::cli {
namespace {

// "0.5, 0.25, ..." for lists (shortest round-trip numbers), else as the command line writes it.
std::string value_text(const ParamValue& v) {
  if (const auto* list = std::get_if<std::vector<double>>(&v)) return fmt::format("{}", fmt::join(*list, ", "));
  return to_string(v);
}

void print_text(std::ostream& out) {
  for (const auto& s : schemes::schemes()) {
    out << fmt::format("{:<12} {}\n", s.name, s.summary);
    out << fmt::format("{:<12} formula: {}\n", "", s.formula);
    for (const auto& p : s.params) {
      std::string accepted = p.choices.empty() ? "" : " (" + fmt::format("{}", fmt::join(p.choices, "|")) + ")";
      out << fmt::format("{:<12}   --{:<34} {}{}\n", "", fmt::format("{} {}", p.name, default_text(p)),
                         p.help, accepted);
    }
    for (const auto& d : s.derived) out << fmt::format("{:<12} {}: {}\n", "", d.label, value_text(d.value));
    out << "\n";
  }
  out << "rope conventions (--convention): whose RoPE arithmetic is reproduced, and which release\n";
  for (const auto& c : rope::rope_conventions())
    out << fmt::format("  {:<9} {} ({}): {}\n", c.name, c.engine, c.version, c.description);
}

}  // namespace

void add_list_command(CLI::App& app, Context& ctx, int& exit_code) {
  auto format = std::make_shared<std::string>("text");
  CLI::App* cmd = app.add_subcommand("list", "list every scheme with its parameters, defaults and formula");
  cmd->add_option("--format", *format, "text or json")->capture_default_str()->check(CLI::IsMember({"text", "json"}));
  cmd->callback([format, &ctx, &exit_code] {
    if (*format == "json") {
      reports::write_scheme_list_json(ctx.out);
    } else {
      print_text(ctx.out);
    }
    exit_code = 0;
  });
}

}  // namespace posenc::cli
