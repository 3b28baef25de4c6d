#pragma once
// Python keyword arguments as a command's options: `base=10000` is `--base 10000`, `rotary_dim`
// is `--rotary-dim`. Values are checked as the command line checks them (type, range, choices)
// and every error is a posenc::Error in one line naming the keyword.
#include <pybind11/pybind11.h>

#include <string>
#include <vector>

#include "posenc/params.hpp"

namespace posenc::python {

/// The spec of an option that is not a scheme parameter (--dtype, --tol, figure options).
ParamSpec option_spec(std::string name, ParamValue default_value, double min = -1e300, double max = 1e300,
                      std::vector<std::string> choices = {}, bool path = false);

/// "rotary-dim" -> "rotary_dim".
std::string keyword_name(const std::string& option);

/// The keywords still unread, taken out of one dict as a command reads them.
class Keywords {
 public:
  Keywords(pybind11::dict kwargs, std::string where) : kw_(std::move(kwargs)), where_(std::move(where)) {}
  /// Takes each spec's keyword into `p` (given) when present; the others keep their defaults
  /// (added to `p` unless `defaults` is false).
  void take(const std::vector<ParamSpec>& specs, ParamMap& p, bool defaults = true);
  /// Takes one keyword, converted to the type of `spec`'s default; false when absent.
  bool take_one(const ParamSpec& spec, ParamValue& out);
  /// A keyword that repeats an option (--compare): a string, or a list or tuple of strings;
  /// empty when absent or None.
  std::vector<std::string> take_texts(const std::string& option);
  /// Whether keyword `name` was given (not taken yet).
  bool has(const std::string& name) const;
  /// Throws "unknown keyword 'x' for WHERE, did you mean 'y'?" for anything left.
  void finish() const;

 private:
  pybind11::dict kw_;
  std::string where_;
  std::vector<std::string> known_;  // every keyword name offered, for did-you-mean
};

}  // namespace posenc::python
