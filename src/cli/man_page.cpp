// man pages (roff) written from the command-line model (cli_model.hpp): posenc(1) and one page
// per command, with the options --help shows, the examples of its footer and the exit status.
#include <fmt/format.h>

#include <cctype>

#include "cli_model.hpp"

namespace posenc::cli {
namespace {

/// Text for roff: backslashes doubled as \e, '-' as \- (so options render as ASCII and can be
/// searched), a leading '.' or '\'' protected by \&.
std::string roff(const std::string& text) {
  std::string out;
  bool line_start = true;
  for (const char ch : text) {
    if (line_start && (ch == '.' || ch == '\'')) out += "\\&";
    if (ch == '\\') out += "\\e";
    else if (ch == '-') out += "\\-";
    else out += ch;
    line_start = ch == '\n';
  }
  return out;
}

std::string upper(std::string s) {
  for (auto& ch : s) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  return s;
}

void options_section(std::string& s, const std::vector<OptionModel>& options) {
  for (const auto& o : options) {
    std::string names;
    for (const auto& n : o.names) names += (names.empty() ? "" : ", ") + fmt::format("\\fB{}\\fR", roff(n));
    s += ".TP\n" + names;
    if (o.takes_value) s += " \\fI" + roff(o.type.empty() ? "VALUE" : o.type) + "\\fR";
    s += "\n" + roff(o.help);
    if (!o.help.empty() && o.help.back() != '.') s += ".";
    if (!o.choices.empty() && o.type.find('|') == std::string::npos) {
      std::string list;
      for (const auto& ch : o.choices) list += (list.empty() ? "" : ", ") + ch;
      s += " One of: " + roff(list) + ".";
    }
    if (o.takes_value && !o.default_text.empty()) s += " Default: " + roff(o.default_text) + ".";
    s += "\n";
  }
}

/// The examples and notes of a footer, kept as written (a no-fill block).
/// --help's "docs/NAME.md" (the source tree) as the installed page, DOCDIR/NAME.md.
std::string installed_docs(std::string text, const std::string& docdir) {
  for (std::size_t at = text.find("docs/"); at != std::string::npos; at = text.find("docs/", at)) {
    const bool word_start = at == 0 || text[at - 1] == ' ' || text[at - 1] == '(' || text[at - 1] == ',';
    if (!word_start) {
      at += 5;
      continue;
    }
    text.replace(at, 5, docdir + "/");
    at += docdir.size() + 1;
  }
  return text;
}

void footer_section(std::string& s, const std::string& footer, const std::string& docdir) {
  if (footer.empty()) return;
  s += ".SH EXAMPLES AND NOTES\n.nf\n" + roff(installed_docs(footer, docdir)) + "\n.fi\n";
}

void subcommand_sections(std::string& s, const CommandModel& cmd, const std::string& docdir) {
  for (const auto& sub : cmd.subcommands) {
    s += fmt::format(".SS \"posenc {}\"\n{}\n", roff(sub.path), roff(sub.description));
    if (!sub.options.empty()) {
      s += ".RS\n";
      options_section(s, sub.options);
      s += ".RE\n";
    }
    if (!sub.footer.empty()) s += ".PP\n.nf\n" + roff(installed_docs(sub.footer, docdir)) + "\n.fi\n";
    subcommand_sections(s, sub, docdir);
  }
}

}  // namespace

std::string man_page_name(const CommandModel& cmd) {
  std::string name = "posenc";
  if (!cmd.path.empty()) name += "-";
  for (const char ch : cmd.path) name += ch == ' ' ? '-' : ch;
  return name;
}

std::string man_page(const CommandModel& root, const CommandModel& cmd, const std::string& date,
                     const std::string& docdir) {
  const std::string name = man_page_name(cmd);
  std::string s = fmt::format(".TH {} 1 \"{}\" \"posenc {}\" \"posenc manual\"\n.nh\n.ad l\n", upper(name), date, POSENC_VERSION);
  s += ".SH NAME\n" + roff(name) + " \\- " + roff(cmd.description) + "\n";
  s += ".SH SYNOPSIS\n.B posenc" + (cmd.path.empty() ? "" : " " + roff(cmd.path)) + "\n[\\fIOPTIONS\\fR]";
  if (!cmd.subcommands.empty()) s += cmd.path.empty() ? " \\fICOMMAND\\fR" : " [\\fISUBCOMMAND\\fR]";
  s += "\n.SH DESCRIPTION\n" + roff(cmd.description) + ".\n";
  if (cmd.path.empty()) {
    s += ".PP\nEach command has its own page:\n";
    for (const auto& sub : cmd.subcommands)
      s += fmt::format(".TP\n.BR {} (1)\n{}\n", roff(man_page_name(sub)), roff(sub.description));
  }
  s += ".SH OPTIONS\n";
  options_section(s, cmd.options);
  if (!cmd.path.empty()) {
    // --max-memory and --quiet may stand anywhere on the line.
    for (const auto& o : root.options)
      if (o.names.size() == 1 && (o.names[0] == "--max-memory" || o.names[0] == "--quiet")) options_section(s, {o});
  }
  footer_section(s, cmd.footer, docdir);
  if (!cmd.path.empty() && !cmd.subcommands.empty()) {
    s += ".SH SUBCOMMANDS\n";
    subcommand_sections(s, cmd, docdir);
  }
  s += ".SH EXIT STATUS\n.TP\n.B 0\nsuccess (and, for \\fBcheck\\fR, every identity holds)\n"
       ".TP\n.B 1\nan identity or comparison does not hold (\\fBcheck\\fR, \\fBrope diff\\fR, \\fBrope engines\\fR)\n"
       ".TP\n.B 2\nbad usage or bad input: one line on standard error names the option, field or byte and what is accepted\n"
       ".TP\n.B 3\nthe output failed while being written (disk full, \\fBulimit \\-f\\fR, a reader that closed the "
       "pipe); an existing output file is left untouched\n";
  s += ".SH ENVIRONMENT\n.TP\n.B NO_COLOR\nset to a non-empty value (no-color.org): no colour in terminal output (figures "
       "drawn in glyphs, plain warnings) unless \\fB\\-\\-color always\\fR\n.TP\n.B TERM\n\\fBdumb\\fR: the "
       "same as NO_COLOR\n";
  s += ".SH SEE ALSO\n";
  std::string see = cmd.path.empty() ? "" : ".BR posenc (1)";
  for (const auto& sub : root.subcommands) {
    if (sub.path == cmd.path) continue;
    see += (see.empty() ? "" : ",\n") + fmt::format(".BR {} (1)", roff(man_page_name(sub)));
  }
  s += see + fmt::format("\n.PP\nThe documentation: {}/cli.md (every option with an example) and the other pages of "
                         "{}/ (from the .deb; PREFIX/share/doc/posenc/ after cmake \\-\\-install; docs/ in the source tree).\n",
                         roff(docdir), roff(docdir));
  return s;
}

}  // namespace posenc::cli
