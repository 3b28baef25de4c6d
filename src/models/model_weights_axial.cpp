// Reformer's axial position table built from its two stored factors, as AxialPositionEmbeddings
// builds it (models/reformer/modeling_reformer.py @ huggingface/transformers 20926db3): weights.0
// [ax0, 1, d0] and weights.1 [1, ax1, d1] are broadcast to [ax0, ax1, ·], concatenated on the last
// axis and reshaped, so position t = i0·ax1 + i1 is concat(weights.0[i0], weights.1[i1]).
#include <fmt/format.h>

#include <algorithm>

#include "model_weights_internal.hpp"
#include "posenc/error.hpp"
#include "posenc/memory.hpp"

namespace posenc::models::detail {
namespace {

std::string axial_shape_text(const std::vector<std::uint64_t>& shape) {
  std::string s = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) s += fmt::format("{}{}", i ? ", " : "", shape[i]);
  return s + "]";
}

const std::vector<std::int64_t>* axial_list_value(const MechanismUse& m, const char* key) {
  for (const auto& [k, v] : m.values)
    if (k == key) return std::get_if<std::vector<std::int64_t>>(&v);
  return nullptr;
}

std::int64_t axial_int(const MechanismUse& m, const char* key) {
  for (const auto& [k, v] : m.values)
    if (k == key)
      if (const auto* i = std::get_if<std::int64_t>(&v)) return *i;
  return 0;
}

}  // namespace

bool axial_table_rule(MechanismUse& m, const StoredWeights& w, MechanismWeights& out) {
  const auto* shape = axial_list_value(m, "axial_pos_shape");
  const auto* dims = axial_list_value(m, "axial_pos_embds_dim");
  if (shape == nullptr || dims == nullptr || shape->size() != 2 || dims->size() != 2) return false;
  const std::string prefix = "reformer.embeddings.position_embeddings.weights.";
  std::string ambiguous;
  const StoredTensor* part[2] = {w.find(prefix + "0", &ambiguous), w.find(prefix + "1", &ambiguous)};
  if (!ambiguous.empty()) {
    m.notes.push_back(fmt::format("weights: several tensors end with '{}': the axial table is not built", ambiguous));
    return false;
  }
  if (part[0] == nullptr && part[1] == nullptr) return false;
  if (part[0] == nullptr || part[1] == nullptr) {
    m.notes.push_back(fmt::format("weights: {} is stored but not {}: the axial table needs both factors",
                                  (part[0] ? part[0] : part[1])->name, prefix + (part[0] ? "1" : "0")));
    return false;
  }
  const auto ax0 = static_cast<std::uint64_t>((*shape)[0]), ax1 = static_cast<std::uint64_t>((*shape)[1]);
  const auto d0 = static_cast<std::uint64_t>((*dims)[0]), d1 = static_cast<std::uint64_t>((*dims)[1]);
  const std::vector<std::uint64_t> want[2] = {{ax0, 1, d0}, {1, ax1, d1}};
  for (int k = 0; k < 2; ++k)
    if (part[k]->shape != want[k]) {
      m.notes.push_back(fmt::format("weights: {} has shape {}; axial_pos_shape and axial_pos_embds_dim give {}: the "
                                    "axial table is not built",
                                    part[k]->name, axial_shape_text(part[k]->shape), axial_shape_text(want[k])));
      return false;
    }
  TableWeights t;
  t.rows = static_cast<std::int64_t>(ax0 * ax1);
  t.width = static_cast<std::int64_t>(d0 + d1);
  try {
    check_memory(ax0 * ax1 * (d0 + d1), sizeof(double), "Reformer's axial position table");
  } catch (const Error& e) {
    m.notes.push_back(fmt::format("weights: the axial table is not built: {}", e.what()));
    return false;
  }
  const std::vector<double> w0 = part[0]->read(), w1 = part[1]->read();
  t.values.resize(ax0 * ax1 * (d0 + d1));
  for (std::uint64_t i0 = 0; i0 < ax0; ++i0)
    for (std::uint64_t i1 = 0; i1 < ax1; ++i1) {
      double* row = t.values.data() + (i0 * ax1 + i1) * (d0 + d1);
      std::copy(w0.begin() + static_cast<std::ptrdiff_t>(i0 * d0), w0.begin() + static_cast<std::ptrdiff_t>((i0 + 1) * d0), row);
      std::copy(w1.begin() + static_cast<std::ptrdiff_t>(i1 * d1), w1.begin() + static_cast<std::ptrdiff_t>((i1 + 1) * d1),
                row + d0);
    }
  t.tensor = part[0]->name + " + " + part[1]->name;
  t.dtype = part[0]->dtype == part[1]->dtype ? part[0]->dtype : part[0]->dtype + " + " + part[1]->dtype;
  t.shape = {ax0 * ax1, d0 + d1};
  t.part_tensors = {part[0]->name, part[1]->name};
  t.part_shapes = {part[0]->shape, part[1]->shape};
  const std::int64_t positions = std::min(t.rows, axial_int(m, "positions") > 0 ? axial_int(m, "positions") : t.rows);
  t.first_row = 0;
  t.last_row = positions - 1;
  for (std::int64_t i = positions; i < t.rows; ++i) t.unused_rows.push_back(i);
  t.rule = fmt::format("row t = i0·{} + i1 is concat(weights.0[i0], weights.1[i1]) (AxialPositionEmbeddings: both "
                       "factors broadcast over axial_pos_shape [{}, {}], concatenated, reshaped); row t holds position t",
                       ax1, ax0, ax1);
  if (positions < t.rows)
    out.findings.push_back(fmt::format("rows {}-{} of the built table are past max_position_embeddings ({}): never used",
                                       positions, t.rows - 1, positions));
  fill_row_norms(t);
  out.table = std::move(t);
  return true;
}

}  // namespace posenc::models::detail
