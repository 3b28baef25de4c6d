#include "help_formatter.hpp"

#include <string>

namespace posenc::cli {
namespace {

class HelpFormatter : public CLI::Formatter {
 public:
  std::string make_option_opts(const CLI::Option* opt) const override {
    std::string out = CLI::Formatter::make_option_opts(opt);
    // Mutually exclusive aliases (t5's --mode, --bidirectional, --causal) say so in their
    // descriptions; CLI11's trailing "Excludes: ..." list would only push the default off the line end.
    if (const auto excludes = out.find(" Excludes:"); excludes != std::string::npos) out.erase(excludes);
    const std::string& def = opt->get_default_str();
    if (!opt->get_option_text().empty() || opt->get_type_size() == 0 || def.empty()) return out;
    // CLI11 wrote " TYPE=DEFAULT..."; say it in words.
    const std::string cli11 = (opt->get_type_name().empty() ? "" : " " + opt->get_type_name()) + "=" + def;
    if (out.rfind(cli11, 0) != 0) return out;
    const std::string type = opt->get_type_name().empty() ? "" : " " + opt->get_type_name();
    // A required option has no default: its initial value is never used.
    if (opt->get_required()) return type + out.substr(cli11.size());
    return type + " (default: " + def + ")" + out.substr(cli11.size());
  }
};

}  // namespace

std::shared_ptr<CLI::Formatter> help_formatter() { return std::make_shared<HelpFormatter>(); }

}  // namespace posenc::cli
