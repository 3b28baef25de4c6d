#pragma once
/// The N×N similarity of a scheme's positions, as `posenc similarity` writes it: rope scores
/// <R_i q, R_j k> from the closed form (Toeplitz), sin/cos tables from Σ cos(ω_k (j − i)),
/// every other table of position vectors from its rows.
#include <cstdint>
#include <memory>
#include <string>

#include "posenc/table.hpp"

namespace posenc::analysis {

/// Throws Error when `scheme` has no position vectors to compare (a bias scheme), naming the
/// commands that show it; a front end calls it before building the table.
void check_similarity_scheme(const std::string& scheme);

/// The similarity table of `table` (the scheme's own, or an --input table when `scheme` is "")
/// under `metric` (dot | cosine | distance). Rope reads θ and layout from the table and scores
/// q and k from `qk` (ones | same | random) with `seed`; `stream` (a figure reads each row once)
/// computes the direct product block by block. Throws Error as check_similarity_scheme and for
/// a table that is not 2-D.
std::unique_ptr<Table> scheme_similarity(const std::string& scheme, const Table& table, const std::string& metric,
                                         const std::string& qk, std::uint64_t seed, bool stream);

}  // namespace posenc::analysis
