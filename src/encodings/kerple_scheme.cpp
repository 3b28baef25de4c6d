// The kerple and sandwich entries of the scheme registry.
#include <fmt/format.h>

#include "head_bias_table.hpp"
#include "posenc/encodings/bias_kernels.hpp"
#include "posenc/encodings/schemes.hpp"
#include "posenc/error.hpp"
#include "posenc/text.hpp"

namespace posenc::encodings {

SchemeInfo kerple_scheme() {
  return {"kerple",
          "KERPLE kernelized distance biases (Chi et al. 2022): -p*ln(1+a|i-j|) or -a|i-j|^p, (p, a) per head",
          "log: b[h,i,j] = -p_h*ln(1 + a_h*|i-j|); power: b[h,i,j] = -a_h*|i-j|^p_h; "
          "causal: -inf for j > i (chijames/KERPLE ParallelKerpleLog/ParallelKerplePower)",
          {len_param(),
           {"kind", "log: -p*ln(1+a*n) (KERPLE's best); power: -a*n^p (p = 1 is ALiBi with slope a)",
            std::string("log"), {"log", "power"}},
           {"p", "p per head (one value: every head); learned in the paper, > 0 (below 0.01, where KERPLE clamps it: a warning; power: <= 2)",
            std::vector<double>{1.0}, {}},
           {"a", "a per head (one value: every head); learned in the paper, >= 0.01", std::vector<double>{1.0}, {}},
           bias_head_param(),
           bias_form_param()},
          [](const ParamMap& p) -> std::unique_ptr<Table> {
            const KerpleKind kind = parse_kerple_kind(p.text("kind"));
            const auto heads = kerple_heads(kind, p.list("p"), p.list("a"));
            const auto h = static_cast<std::int64_t>(heads.p.size());
            TableInfo info = make_info("kerple", p, {});
            info.results.emplace_back("p_per_head", heads.p);
            info.results.emplace_back("a_per_head", heads.a);
            for (const auto& w : heads.warnings) info.notes.push_back(w);
            info.value_name = "bias";
            info.title = p.integer("head") < 0
                             ? fmt::format("KERPLE {} {} biases, {}", p.text("kind"), p.text("form"), counted(h, "head", "heads"))
                             : fmt::format("KERPLE {} {} bias, head {} of {}", p.text("kind"), p.text("form"),
                                           p.integer("head"), h);
            return head_bias_table(std::move(info), h, p.integer("head"), p.integer("len"), p.text("form") == "causal",
                                   [kind, heads](std::size_t hh, std::int64_t n) {
                                     return kerple_bias(kind, heads.p[hh], heads.a[hh], n);
                                   });
          }};
}

SchemeInfo sandwich_scheme() {
  return {"sandwich",
          "Sandwich distance biases (Chi et al. 2023): sum of cosines of |i-j| minus d/2, divided by 8h/H per head",
          "b[h,i,j] = (sum_{k=1}^{d/2} cos(|i-j|*10000^(-2k/d)) - d/2) / (8h/H), h = 1..H; "
          "causal: -inf for j > i (NVIDIA/NeMo SandwichRelativePositionEmbedding)",
          {len_param(),
           {"dim", "head width d (NeMo: hidden_size // heads); even", std::int64_t{128}, {}, 2, static_cast<double>(kMaxDim)},
           {"heads", "number of attention heads H (head h divides by 8h/H)", std::int64_t{8}, {}, 1, 65536},
           bias_head_param(),
           bias_form_param()},
          [](const ParamMap& p) -> std::unique_ptr<Table> {
            const std::int64_t d = p.integer("dim"), h = p.integer("heads");
            if (d % 2 != 0) throw Error(fmt::format("--dim must be even for sandwich (got {})", d));
            TableInfo info = make_info("sandwich", p, {});
            info.value_name = "bias";
            info.title = p.integer("head") < 0
                             ? fmt::format("Sandwich {} biases, d = {}, {}", p.text("form"), d, counted(h, "head", "heads"))
                             : fmt::format("Sandwich {} bias, d = {}, head {} of {}", p.text("form"), d, p.integer("head"), h);
            // Every head's numerator depends on the distance only: computed once per distance.
            const auto len = p.integer("len");
            auto num = std::make_shared<std::vector<double>>();
            if (len <= (std::int64_t{1} << 24)) {
              num->resize(static_cast<std::size_t>(len));
              for (std::int64_t n = 0; n < len; ++n) (*num)[static_cast<std::size_t>(n)] = sandwich_numerator(n, d);
            }
            return head_bias_table(std::move(info), h, p.integer("head"), len, p.text("form") == "causal",
                                   [num, d, h](std::size_t hh, std::int64_t n) {
                                     const double v = static_cast<std::size_t>(n) < num->size()
                                                          ? (*num)[static_cast<std::size_t>(n)]
                                                          : sandwich_numerator(n, d);
                                     return v / (8.0 * static_cast<double>(hh + 1) / static_cast<double>(h));
                                   });
          }};
}

}  // namespace posenc::encodings
