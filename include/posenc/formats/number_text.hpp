#pragma once
/// Shortest round-trip text of floats and doubles, the same characters as fmt's "{}"
/// (e.g. 0.84147096, -1e-05, 1.5e+20, 100), written straight into a buffer.
///
/// The digits are the shortest decimal that reads back to the same value, the closest to it
/// (Dragonbox, Schubfach and Ryu all give these). A single number takes them from fmt's own
/// Dragonbox (`fmt::detail::dragonbox::to_decimal`, exported by libfmt). A list of floats,
/// the CSV/JSON path, goes through the best kernel the CPU has (each checked against fmt for
/// all 2^32 floats, tests/tools/float_text_exhaustive.cpp):
///   - AVX-512 (src/io/float_text_avx512.cpp): eight floats a step, Schubfach's digits and the
///     whole text in vector registers, for groups whose eight texts are fixed notation of at
///     most 15 characters (a positional table's values but its zeros);
///   - AVX2 (src/io/float_decimal_avx2.cpp): Schubfach's digits four at a time, the layout
///     around them here with fixed-size moves in registers;
///   - scalar: Dragonbox's digits and the same layout.
/// fmt's general-purpose writer took half of a CSV's time.
#include <span>

namespace posenc::formats {

/// Bytes a caller must have writable from `p` for one number: the longest text is 24 chars
/// ("-" + 17 digits, "." and "e-308"), but the layout moves digits in fixed 16- and 32-byte
/// stores that may write up to 50 bytes from `p` (what lies past the returned end is garbage,
/// overwritten by what follows).
inline constexpr int kNumberTextRoom = 64;

/// How a format spells values that have no shortest decimal.
struct NonFiniteText {
  const char* nan;
  const char* inf;
  const char* neg_inf;
};

/// Writes the shortest text of a finite `v` at `p` and returns its end. NaN and infinities
/// are the caller's (each format spells them differently).
char* write_shortest(char* p, float v);
char* write_shortest(char* p, double v);

/// v[0] sep v[1] sep ... : each value as write_shortest writes it, non-finite ones as `nf`
/// spells them (at most 24 chars). Needs 25·v.size() + kNumberTextRoom writable bytes.
char* write_shortest_list(char* p, std::span<const float> v, char sep, const NonFiniteText& nf);
char* write_shortest_list(char* p, std::span<const double> v, char sep, const NonFiniteText& nf);

}  // namespace posenc::formats
