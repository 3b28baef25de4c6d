#pragma once
/// Statistics of the trained position tables `posenc model` reads from weights (issue 28 item
/// 4): the cosine similarity of neighbouring rows, and the sinusoid table closest to the table.
#include "posenc/models/model_weights.hpp"

namespace posenc::analysis {

/// The most used rows the sinusoid fit compares (the first ones): its cost is rows² · width.
inline constexpr std::int64_t kMaxFitRows = 2048;

/// The statistics of one table's used rows (models::TableStatistics says what each is). For a
/// patch grid, neighbours are horizontally adjacent patches and no sinusoid is fitted.
models::TableStatistics table_statistics(const models::TableWeights& t);

/// Fills TableWeights::statistics of every table of `r` read from weights.
void add_weight_statistics(models::ModelReport& r);

}  // namespace posenc::analysis
