#include "posenc/analysis/sinusoids.hpp"

#include "posenc/encodings/sinusoidal.hpp"

namespace posenc::analysis {
namespace {

const ParamValue* find(const std::vector<std::pair<std::string, ParamValue>>& params, const std::string& name) {
  for (const auto& [k, v] : params)
    if (k == name) return &v;
  return nullptr;
}

}  // namespace

std::optional<Sinusoids> known_sinusoids(const TableInfo& info) {
  // Only the sinusoidal scheme: its parameters name the frequencies, layout and first position,
  // and the scheme's own frequency function gives ω_k, so the closed forms follow its conventions.
  if (info.scheme != "sinusoidal" || info.shape.size() != 2) return std::nullopt;
  const auto* dim = find(info.params, "dim");
  const auto* base = find(info.params, "base");
  const auto* convention = find(info.params, "convention");
  const auto* layout = find(info.params, "layout");
  if (!dim || !base || !convention || !layout || !std::holds_alternative<std::int64_t>(*dim) ||
      !std::holds_alternative<double>(*base) || !std::holds_alternative<std::string>(*convention) ||
      !std::holds_alternative<std::string>(*layout))
    return std::nullopt;
  const auto conv = encodings::parse_convention(std::get<std::string>(*convention));
  const auto lay = encodings::parse_layout(std::get<std::string>(*layout), conv);
  const std::int64_t d = std::get<std::int64_t>(*dim);
  auto w = encodings::sinusoidal_frequencies(d, std::get<double>(*base), conv);
  Sinusoids s = lay == encodings::SinusoidalLayout::kInterleaved
                    ? interleaved_sinusoids(std::move(w), static_cast<std::size_t>(d))
                    : split_sinusoids(std::move(w), static_cast<std::size_t>(d));
  s.first_position = static_cast<double>(info.first_position);
  if (s.dim != info.shape[1]) return std::nullopt;
  return s;
}

}  // namespace posenc::analysis
