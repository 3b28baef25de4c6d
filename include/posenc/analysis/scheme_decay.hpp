#pragma once
/// The decay curves of a scheme (how its score, bias or bucket changes with the offset
/// Δ = key − query), and the rules that fit len, the query position and the offsets together.
/// What `posenc decay` prints; any front end gets the same curves from here.
#include <cstdint>
#include <string>
#include <vector>

#include "posenc/analysis/decay.hpp"
#include "posenc/params.hpp"
#include "posenc/table.hpp"

namespace posenc::analysis {

/// What every curve of one decay run shares.
struct DecayRequest {
  std::vector<std::int64_t> offsets;  ///< Δ, ascending
  std::int64_t from = 0;              ///< query position T
  std::string metric = "dot";         ///< dot | cosine | distance
  std::string qk = "ones";            ///< rope: ones | same | random
  std::uint64_t seed = 0;             ///< rope: seed of random q, k
  bool extras = true;                 ///< rope: RoFormer's bound and the q=k=ones curve
};

/// The curves of one scheme setting and how they were made.
struct DecayCurves {
  std::vector<Series> series;
  std::string method;
  bool uses_metric = false;  ///< the metric shaped a curve (absolute tables, rope's q.k)
  bool uses_qk = false;      ///< qk and seed shaped a curve (rope)
  bool has_extras = false;   ///< the scheme has extra series (rope), shown or not
};

/// The positions a run needs: T + min Δ must be >= 0 (else Error naming --from), and the table
/// needs T + max Δ + 1 rows. A scheme's len is set to that when not given (so an echo shows the
/// length used); a given len that is shorter is an Error naming --len. Rope reads no rows but is
/// held to the same rule, so every scheme treats len alike. `scheme` "" (a table of the user's)
/// only checks the first rule.
ParamMap fit_len(const std::string& scheme, ParamMap params, const DecayRequest& r);

/// The curves of `scheme` with `params` (values as analysis_params gives them, len fitted):
///  - alibi: −m_h·|Δ| per head (or the one --head; the --variant's slopes and arithmetic), −inf
///    for later keys when causal; kerple and sandwich: their bias of |Δ| per head, likewise;
///  - fire: the input of its MLP for query T = from and key T + Δ;
///  - t5: the bucket of rp = Δ; deberta: the bucket (or c2p/p2c index) of query − key = −Δ;
///  - rope: <R_T q, R_{T+Δ} k> (or its cosine or distance) for q, k from `qk`, preceded with
///    `extras` by RoFormer's bound and, unless q=k=ones with dot, the q=k=ones curve;
///  - xpos, shaw: relative_decay.hpp (xPos's score next to RoPE's; Shaw's index of query − key);
///  - every other scheme: its table's rows, as table_decay_curves.
DecayCurves scheme_decay_curves(const std::string& scheme, const ParamMap& params, const DecayRequest& r);

/// Divides every curve of `c` by its main (last) curve's value at Δ = 0 and returns that value,
/// for a figure that puts several schemes' dot products on one axis: their vectors have different
/// norms (a dim-128 sinusoidal table has PE_T·PE_T = 64, rope's q = k = ones 128, for the same
/// Σ cos(Δθ_i)). Returns 1 and leaves `c` alone when the curves are not a metric's (biases,
/// buckets), there is no Δ = 0, or the value there is 0 or not finite.
double normalise_at_zero(DecayCurves& c, const std::vector<std::int64_t>& offsets);

/// The metric of rows T and T + Δ of a table of position vectors (closed form Σ cos(ω_k Δ)
/// for a known sin/cos table; else only the rows needed are filled). Throws Error for a table
/// that is not 2-D or that has no row T + Δ.
DecayCurves table_decay_curves(const Table& table, const DecayRequest& r);

}  // namespace posenc::analysis
