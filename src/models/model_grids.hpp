#pragma once
// The patch grids of vision towers as config-level mechanisms (internal; model_grids.cpp).
#include <nlohmann/json.hpp>

#include <string>

#include "model_internal.hpp"

namespace posenc::models::detail {

/// Adds the learned-grid mechanism of a ViT, DINOv2, CLIP vision or SigLIP vision config, and
/// for a whole CLIP config its text table and (from `root`'s vision_config) its vision grid.
void add_grid_mechanisms(const nlohmann::json& root, const HfScope& s, const std::string& file, ModelReport& r);

}  // namespace posenc::models::detail
