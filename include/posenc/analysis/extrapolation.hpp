#pragma once
/// What a model meets beyond its training length L when it runs at a target length L' > L
/// (`posenc extrapolate`, docs/extrapolation.md): for RoPE and each context-extension method,
/// the angles each pair reaches against those seen in training, the attention entropy of
/// seeded random queries and keys against length with and without the method's attention
/// factor, and the smallest offset the method still resolves; for ALiBi the bias range, for T5
/// where the buckets saturate, for a learned table the rows it lacks. Computing only.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "posenc/encodings/bias_kernels.hpp"
#include "posenc/rope/rope.hpp"
#include "posenc/encodings/t5.hpp"
#include "posenc/params.hpp"

namespace posenc::analysis {

/// Longest --target-len: the entropy costs L'·samples·(rotary_dim/2) products per distinct frequency.
inline constexpr std::int64_t kMaxExtrapolationLen = std::int64_t{1} << 22;

/// Where the angles a pair sweeps over positions [0, L') lie against the range [0, L·θ_i) it
/// swept in training (positions [0, L) at the original θ_i; position interpolation maps [0, L')
/// onto [0, L), so linear's L'·θ_i/s equals L·θ_i).
enum class AngleReach {
  kCovered,  ///< L·θ_i ≥ 2π: training saw every phase of the pair, so no angle is new
  kWithin,   ///< L'·θ'_i ≤ L·θ_i·(1 + kReachTolerance): every angle at L' was seen in training
  kBeyond,   ///< neither: positions near L' rotate the pair past any angle training saw
};
/// Relative slack of kWithin for float32 θ' (a factor that is not a power of two rounds θ/s).
inline constexpr double kReachTolerance = 1e-6;
std::string_view to_string(AngleReach r);

/// RoPE under one method at the target length.
struct RopeExtrapolation {
  std::string method;  ///< "none", "linear", ... (transformers' rope_type; none = "default")
  /// The model's layer type this rope is of ("sliding_attention"), when its layer types rotate
  /// differently (Gemma 2/3, gpt-oss, per-layer-type rope_parameters); "" when one rope serves all.
  std::string layer_type;
  std::vector<std::int64_t> layers;  ///< the 0-based layers of that type (empty with layer_type "")
  /// rope::critical_dimension for L (the rotary width, the original base) and rope::min_base for
  /// L' (nullopt beyond rope::kMaxMinBaseLength): the same for every method of a layer type.
  std::int64_t critical_dimension = 0;
  std::optional<double> min_base;
  rope::RopeConfig config;
  rope::RopeFrequencies freqs;
  std::vector<double> angle_train;   ///< per pair: L·θ_i, the end of the angle range training swept (original θ)
  std::vector<double> angle_target;  ///< per pair: L'·θ'_i with the method's θ'
  std::vector<AngleReach> reach;
  std::size_t covered = 0, within = 0, beyond = 0;
  /// Factor on the attention logits: attention_factor² (transformers multiplies cos and sin,
  /// so q and k both carry it).
  double logit_scale = 1;
  /// Mean attention entropy (nats) at each length of Extrapolation::lengths, with the logits
  /// × logit_scale and without (× 1); equal when the method has no attention factor.
  std::vector<double> entropy, entropy_without_factor;
  /// D(1): RMS distance between the pair rotations of neighbouring positions,
  /// D(Δ) = sqrt((1/P)·Σ_i |e^{iΔθ_i} − 1|²) = sqrt((2/P)·Σ_i (1 − cos Δθ_i)); with the original θ
  /// (what training told apart) and with the method's θ'.
  double neighbour_distance_train = 0, neighbour_distance = 0;
  /// The smallest offset Δ > 0 (a real number of positions) with D'(Δ) ≥ D(1): positions closer
  /// than this are closer together than neighbours ever were in training. 1 without scaling,
  /// about s under linear interpolation; 0 when no Δ ≤ L'−1 reaches it.
  double resolution = 0;
};

/// ALiBi's symmetric bias −m·|i − j| per head at offsets up to L−1 and up to L'−1.
struct AlibiExtrapolation {
  std::vector<double> slopes;
  std::vector<double> min_train, min_target;  ///< −m·(L−1), −m·(L'−1); the largest bias is 0 (Δ = 0)
};

/// A bias that depends on the distance only (KERPLE, Sandwich), per head: its range over offsets
/// 0 … L−1 (what training saw) and 0 … L'−1.
struct BiasRange {
  std::string scheme;               ///< "kerple" or "sandwich"
  std::vector<std::string> labels;  ///< per head: "p=1 a=1", "8h/H=1"
  std::vector<double> min_train, max_train, min_target, max_target;
};

/// One direction of T5's relative position (key − query): "past" (key before the query) or
/// "future" (bidirectional only; the causal decoder puts every future key in bucket 0).
struct T5Direction {
  std::string name;
  std::int64_t last_bucket = 0;  ///< the bucket every far offset shares
  /// The smallest |offset| from which every larger one is in last_bucket.
  std::int64_t saturation = 0;
  std::int64_t bucket_train = 0, bucket_target = 0;  ///< bucket of |offset| L−1 and L'−1
  std::int64_t buckets_train = 0, buckets_target = 0;  ///< distinct buckets over |offset| ≤ L−1, ≤ L'−1
};

struct T5Extrapolation {
  encodings::T5Options options;
  std::vector<T5Direction> directions;
};

/// A learned absolute table of L rows run at L': rows L … L'−1 do not exist.
struct LearnedExtrapolation {
  std::int64_t rows = 0, first_missing = 0, last_missing = 0, missing = 0;
};

/// What to analyse. The RoPE settings (dim, base, the methods' own parameters) come as the
/// `rope` scheme's ParamMap; each method sets its scaling, factor (L'/L unless `rope` gives one)
/// and lengths on top (extrapolation_rope_config).
struct ExtrapolationRequest {
  std::int64_t train_len = 0, target_len = 0;
  std::vector<std::string> methods;  ///< rope scaling names
  ParamMap rope;
  std::vector<std::string> schemes;  ///< alibi, t5, learned, kerple, sandwich
  std::int64_t heads = 8;            ///< alibi and sandwich
  encodings::T5Options t5;
  encodings::KerpleKind kerple_kind = encodings::KerpleKind::kLog;
  std::vector<double> kerple_p = {1.0}, kerple_a = {1.0};  ///< per head, or one value for every head
  std::int64_t sandwich_dim = 64;    ///< Sandwich's head width d
  std::int64_t samples = 16;         ///< random (q, k) pairs averaged per entropy point
  std::uint64_t seed = 0;
};

struct Extrapolation {
  ExtrapolationRequest request;
  std::vector<std::int64_t> lengths;  ///< where entropy is evaluated (extrapolation_lengths)
  std::vector<RopeExtrapolation> rope;
  std::optional<AlibiExtrapolation> alibi;
  std::vector<BiasRange> biases;  ///< kerple, sandwich, in the order of --schemes
  std::optional<T5Extrapolation> t5;
  std::optional<LearnedExtrapolation> learned;
};

/// The layer types whose ropes extrapolate analyses, primary first: the one `--layer-type` names;
/// else every rope layer type of a --hf-config whose layer types rotate differently; else {""}
/// (one rope: flags, a GGUF, or a model whose layers rotate alike).
std::vector<std::string> extrapolation_layer_types(const ParamMap& rope);

/// Runs every analysis the request names, each RoPE method once per layer type of
/// extrapolation_layer_types. Throws Error for bad settings, naming the option.
Extrapolation extrapolate(const ExtrapolationRequest& r);

/// Sets the bias schemes' settings of `r` from their schemes' options as `posenc extrapolate`
/// takes them: alibi's --heads (also Sandwich's), t5's --buckets, --max-distance and --mode
/// (bidirectional or causal), kerple's --kind, --p and --a; Sandwich's head width is r.rope's
/// --dim (one head width for both). Throws Error for a bad --kind.
void set_bias_settings(ExtrapolationRequest& r, const ParamMap& alibi, const ParamMap& t5, const ParamMap& kerple);

/// The method's RopeConfig: `rope` (flags, or a --hf-config with the flags over it) with
/// --scaling METHOD; --factor L'/L (when the method reads one and `rope` gives none);
/// --original-max-position-embeddings L and --max-position-embeddings L'; dynamic evaluated at
/// --seq-len L' with --max-position-embeddings L (its original length in transformers);
/// longrope with --max-position-embeddings L' and --seq-len L' (its long factors).
rope::RopeConfig extrapolation_rope_config(const ParamMap& rope, std::string_view method, std::int64_t train_len,
                                                std::int64_t target_len);

/// The lengths entropy is evaluated at: 16, 32, 64, … below L', and L and L'.
std::vector<std::int64_t> extrapolation_lengths(std::int64_t train_len, std::int64_t target_len);

/// Per-pair analysis, entropy and resolution of one configuration.
RopeExtrapolation extrapolate_rope(const rope::RopeConfig& c, std::int64_t train_len, std::int64_t target_len,
                                   std::span<const std::int64_t> lengths, std::int64_t samples, std::uint64_t seed);

/// Mean attention entropy at each of `lengths` (ascending) of one query at position n−1 over
/// keys at 0 … n−1, for each (q, k) in `qk` (q then k, 2·P values each, pair i = components
/// 2i, 2i+1). The same k sits at every key position, so only the rotation changes the logits:
/// x_Δ = scale · Σ_i Re[(q_2i + i·q_2i+1)·conj(k_2i + i·k_2i+1)·e^{iΔθ_i}], Δ = n−1−j;
/// H = −Σ_j p_j ln p_j with p = softmax(x).
/// Computed without a sine per offset: e^{iΔθ} = e^{iΔ0·θ}·e^{ijθ} for Δ = Δ0 + j (Δ0 a multiple
/// of 256, j < 256), both factors from a vectorised sin/cos of the exact product (within 4e-15),
/// so nothing accumulates with Δ; the logits of 256 offsets are a matrix product, the softmax a
/// streaming sum of exp_near's exponentials on the worker threads. Within 1e-13 relative of a
/// float64 numpy re-derivation that takes cos and sin of every angle (measured: 4.4e-16 at
/// 2^20 offsets; tests/analysis/extrapolation_test.cpp, tests/integration/test_extrapolate.py).
std::vector<double> rope_attention_entropy(std::span<const double> theta, const std::vector<std::vector<double>>& qk,
                                           std::span<const std::int64_t> lengths, double scale);

/// rope_attention_entropies for several methods (each theta of the same width, with its own
/// scales) in one pass: a frequency several methods share at a pair (the same bits) is summed
/// once, its part of the logit added to each of those methods'. out[k][q] is
/// rope_attention_entropy(thetas[k], qk, lengths, scales[k][q]) to rounding (the sums grouped
/// differently). `lengths` must be positive and ascending (else Error).
std::vector<std::vector<std::vector<double>>> rope_attention_entropies_batch(
    const std::vector<std::span<const double>>& thetas, const std::vector<std::vector<double>>& qk,
    std::span<const std::int64_t> lengths, const std::vector<std::vector<double>>& scales);

/// extrapolate_rope without the entropies (angles, reach, distances, resolution).
RopeExtrapolation extrapolate_rope_settings(const rope::RopeConfig& c, std::int64_t train_len, std::int64_t target_len);

/// Fills entropy and entropy_without_factor of each method as extrapolate_rope does, the
/// methods of one width in one pass over the offsets (rope_attention_entropies_batch).
void add_rope_entropies(std::vector<RopeExtrapolation*>& methods, std::span<const std::int64_t> lengths,
                        std::int64_t samples, std::uint64_t seed);

/// rope_attention_entropy for each of `scales`, in one pass over the offsets (the rotations and
/// the unscaled sums are shared; each value is the one rope_attention_entropy gives).
std::vector<std::vector<double>> rope_attention_entropies(std::span<const double> theta,
                                                          const std::vector<std::vector<double>>& qk,
                                                          std::span<const std::int64_t> lengths,
                                                          std::span<const double> scales);

/// The seeded random q and k of sample s: rows 2s and 2s+1 of the N(0, 1) table learned_row
/// draws (splitmix64 row seeds, mt19937_64, Box–Muller: the same on every platform), width 2·P.
std::vector<std::vector<double>> extrapolation_qk(std::int64_t samples, std::uint64_t seed, std::size_t pairs);

/// D(Δ) of RopeExtrapolation::neighbour_distance for angles Δ·θ_i.
double rope_rotation_distance(std::span<const double> theta, double delta);

/// The smallest Δ > 0 with rope_rotation_distance(theta, Δ) ≥ threshold: the first integer
/// k ≤ max_delta that reaches it, then the first crossing in (k−1, k] (sixteenths, then
/// bisection to 1e-9); 0 if no k reaches it.
double rope_resolution(std::span<const double> theta, double threshold, std::int64_t max_delta);

/// The smallest n ≥ 0 from which every |offset| ≥ n is in the last bucket of its direction
/// (future: rp = +n, else rp = −n). t5_bucket is non-decreasing in n, so a binary search finds it.
std::int64_t t5_saturation(const encodings::T5Options& o, bool future);

/// The bias and table schemes `extrapolate --schemes` compares: alibi, t5, learned, kerple, sandwich.
const std::vector<std::string>& extrapolation_scheme_names();

}  // namespace posenc::analysis
