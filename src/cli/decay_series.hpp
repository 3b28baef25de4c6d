#pragma once
// The curves of `posenc decay` for one scheme and one parameter setting, and the rules that
// fit --len, --from and the offsets together.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "posenc/analysis/decay.hpp"
#include "posenc/params.hpp"
#include "scheme_options.hpp"

namespace posenc::cli {

/// What every curve of one decay run shares.
struct DecayRequest {
  std::vector<std::int64_t> offsets;  ///< Δ, ascending
  std::int64_t from = 0;              ///< position T
  std::string metric = "dot";         ///< dot | cosine | distance
  std::string qk = "ones";            ///< rope: ones | same | random
  std::uint64_t seed = 0;             ///< rope: seed of random q, k
  bool extras = true;                 ///< rope: RoFormer's bound and the q=k=ones curve
};

/// The curves of one scheme setting and how they were made.
struct DecayCurves {
  std::vector<analysis::Series> series;
  std::string method;
  bool uses_metric = false;  ///< --metric shaped a curve (absolute tables, rope's q.k)
  bool uses_qk = false;      ///< --qk and --seed shaped a curve (rope)
  bool has_extras = false;   ///< the scheme has extra series (rope), shown or not
};

/// True for alibi --form causal and t5 --mode causal: later keys are masked, offsets run −K..0.
bool is_causal(const std::string& scheme, const ParamMap& p);

/// The positions a run needs: T + min Δ must be >= 0 (else Error naming --from), and the table
/// needs T + max Δ + 1 rows. A scheme's --len is set to that when not given (so the JSON echo
/// is the length used); a given --len that is shorter is an Error naming --len. Rope reads no
/// rows but is held to the same rule, so every scheme treats --len alike.
ParamMap fit_len(const std::string& scheme, ParamMap params, const DecayRequest& r);

/// One `--compare "SCHEME [options]"`, parsed the way the words after `posenc decay` are.
struct Compared {
  std::string spec;
  CLI::App app{"", "decay --compare"};
  SchemeOptions source;
};
/// Throws Error "--compare 'SPEC': ..." for unknown words or values. The words are split as a
/// POSIX shell splits them: at blanks outside quotes; '...' keeps everything, "..." keeps all
/// but \" and \\, a backslash outside quotes keeps the next character (--input 'my table.npy').
std::unique_ptr<Compared> parse_compare(const std::string& spec);
/// The words of `spec` as parse_compare splits them; throws Error for an unterminated quote.
std::vector<std::string> split_words(const std::string& spec);

/// The curves of `scheme` (or the --input table of `source` when scheme is "") with `params`.
DecayCurves decay_curves(const std::string& scheme, const ParamMap& params, const SchemeOptions& source,
                         const DecayRequest& r);

}  // namespace posenc::cli
