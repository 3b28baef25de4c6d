// `posenc rope diff`: what each side is, and which flag a message blames.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "cli_helpers.hpp"
#include "test_data.hpp"

namespace {

using Catch::Contains;
using Catch::StartsWith;

std::string config(const std::string& name) { return posenc::test::data_path("configs/" + name); }

}  // namespace

TEST_CASE("rope diff blames the side's own flag for a file it cannot read", "[cli][rope][diff]") {
  for (const std::string side : {"a", "b"}) {
    const auto r = run_cli({"rope", "diff", "--config-" + side, "/nonexistent/posenc/x.json", "--config-" +
                            std::string(side == "a" ? "b" : "a"), config("llama-2-7b.json")});
    CHECK(r.code == 2);
    CHECK(one_line(r.err));
    CHECK_THAT(r.err, StartsWith("posenc: error: --config-" + side + " '/nonexistent/posenc/x.json'"));
    CHECK_THAT(r.err, !Contains("--hf-config"));
  }
  // The shared --hf-config is still named as such.
  const auto shared = run_cli({"rope", "diff", "--hf-config", "/nonexistent/posenc/x.json", "--convention-b", "ggml"});
  CHECK_THAT(shared.err, StartsWith("posenc: error: --hf-config '/nonexistent/posenc/x.json'"));
}
