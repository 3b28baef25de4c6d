#include "posenc/analysis/sinusoids.hpp"

namespace posenc::analysis {

// Filled in when the sinusoidal scheme is available (it reads the scheme's own frequency
// function, so the closed forms always follow its conventions).
std::optional<Sinusoids> known_sinusoids(const TableInfo& /*info*/) { return std::nullopt; }

}  // namespace posenc::analysis
