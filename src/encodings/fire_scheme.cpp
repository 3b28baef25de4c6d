// The fire entry of the scheme registry: the normalised distance FIRE's MLP reads.
#include <fmt/format.h>

#include "posenc/encodings/bias_kernels.hpp"
#include "posenc/encodings/schemes.hpp"

namespace posenc::encodings {

SchemeInfo fire_scheme() {
  return {"fire",
          "FIRE's MLP input (Li et al. 2023): psi(i-j)/psi(max(i, L)), psi(x) = ln(|c x|+1); the MLP itself "
          "needs trained weights",
          "x[i,j] = ln(|c(i-j)| + 1) / (ln(|c*max(i, L)| + 1) + eps); bias_h = MLP_h(x) "
          "(mcleish7/arithmetic FIRE, eval mode)",
          {len_param(),
           {"c", "c of psi(x) = ln(|c x| + 1) (FIRE's init_c; learned)", 0.1, {}, 1e-9, 1e9},
           {"threshold", "L: queries i <= L share one normaliser psi(L) (init_L 512 times L_multiplier 1; learned)",
            512.0, {}, 0, 1e300},
           {"eps", "eps added to the normaliser", 1e-6, {}, 0, 1}},
          [](const ParamMap& p) -> std::unique_ptr<Table> {
            const double c = p.number("c"), threshold = p.number("threshold"), eps = p.number("eps");
            const auto n = static_cast<std::size_t>(p.integer("len"));
            TableInfo info = make_info("fire", p, {n, n}, {"i", "j"});
            info.value_name = "input";
            info.title = fmt::format("FIRE MLP input psi(i-j)/psi(max(i, {})), c = {}", threshold, c);
            // A named string: GCC 12 warns (-Warray-bounds, a false positive) on push_back of a literal.
            const std::string note =
                "fire: these are the inputs of FIRE's MLP; the bias MLP_h(input) needs the model's trained weights "
                "(Linear(1,32)-ReLU-Linear(32,H)), which posenc does not have";
            info.notes.push_back(note);
            for (std::size_t j = 0; j < n && n <= 100000; ++j) info.column_names.push_back(fmt::format("j{}", j));
            return std::make_unique<RowFunctionTable>(std::move(info), [c, threshold, eps](std::size_t r, std::span<double> out) {
              for (std::size_t j = 0; j < out.size(); ++j)
                out[j] = fire_input(static_cast<std::int64_t>(r), static_cast<std::int64_t>(j), c, threshold, eps);
            });
          }};
}

}  // namespace posenc::encodings
