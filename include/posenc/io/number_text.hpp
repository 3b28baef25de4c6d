#pragma once
/// Shortest round-trip text of a float or double, the same characters as fmt's "{}"
/// (e.g. 0.84147096, -1e-05, 1.5e+20, 100), written straight into a buffer.
///
/// The digits come from fmt's own Dragonbox (`fmt::detail::dragonbox::to_decimal`, exported
/// by libfmt), the shortest decimal that reads back to the same value; only their layout is
/// done here, with fixed-size copies instead of fmt's general-purpose writer, which took
/// half of the time of a large CSV (docs/performance.md). Tested against fmt's "{}" and
/// strtof/strtod round trips.

namespace posenc::io {

/// Bytes a caller must have writable from `p`: the longest text is 24 chars ("-" + 17 digits,
/// "." and "e-308"), but the layout copies digits in fixed 32-byte moves that may write up to
/// 50 bytes from `p` (what lies past the returned end is garbage, overwritten by what follows).
inline constexpr int kNumberTextRoom = 64;

/// Writes the shortest text of a finite `v` at `p` and returns its end. NaN and infinities
/// are the caller's (each format spells them differently).
char* write_shortest(char* p, float v);
char* write_shortest(char* p, double v);

}  // namespace posenc::io
