#pragma once
/// Named parameters of a scheme or analysis: their declaration (ParamSpec),
/// their values (ParamMap), echoed back in JSON output and figure titles.
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <variant>
#include <vector>

namespace posenc {

/// A parameter value. The alternative held by a ParamSpec's default fixes the
/// type the command line accepts for it.
/// (std::vector<std::int64_t> is for echoed index lists, e.g. project's "dims": JSON [0, 1, 3].)
using ParamValue = std::variant<bool, std::int64_t, double, std::string, std::vector<double>, std::vector<std::int64_t>>;

/// Declaration of one parameter: `--name` on the command line, `name` in JSON.
struct ParamSpec {
  std::string name;                  ///< e.g. "base" (flag `--base`)
  std::string help;                  ///< one line, shown by --help and `posenc list`
  ParamValue default_value;          ///< also fixes the type
  std::vector<std::string> choices;  ///< accepted strings, empty = any
  double min = -1e300;               ///< accepted range for numbers (inclusive; +-1e300 = unbounded;
  double max = 1e300;                ///< for integers, +-2^63 = the int64 range)
  /// Each choice is also a flag of its own: `--causal` means `--mode causal` (t5).
  bool choice_flags = false;
  bool above_min = false;            ///< a given value must be > min (min itself is the default "not set")
  bool path = false;                 ///< the value names a file or folder (--help says PATH; completion offers files)
};

/// Parameter values by name, in declaration order, remembering which were given explicitly.
class ParamMap {
 public:
  ParamMap() = default;
  /// All defaults of `specs`.
  explicit ParamMap(const std::vector<ParamSpec>& specs);

  /// Sets a value; `given` marks it as set by the user (it overrides a config file).
  void set(const std::string& name, ParamValue value, bool given = true);
  bool has(const std::string& name) const;
  bool given(const std::string& name) const { return given_.count(name) != 0; }

  const ParamValue& value(const std::string& name) const;  ///< throws Error if absent
  double number(const std::string& name) const;            ///< double or integer
  std::int64_t integer(const std::string& name) const;
  const std::string& text(const std::string& name) const;
  bool flag(const std::string& name) const;
  const std::vector<double>& list(const std::string& name) const;

  /// Names in declaration (insertion) order.
  const std::vector<std::string>& names() const { return order_; }

 private:
  std::map<std::string, ParamValue> values_;
  std::vector<std::string> order_;
  std::set<std::string> given_;
};

/// Text form of a value as the command line would accept it ("10000", "true", "1,2,3").
std::string to_string(const ParamValue& value);

/// The default as --help and `posenc list` show it: a value that must be given above its
/// minimum has no default, only "not set" (rope's --factor: "NUMBER > 0 (default: 0)" would
/// contradict itself).
std::string default_text(const ParamSpec& spec);

}  // namespace posenc
