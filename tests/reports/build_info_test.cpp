// Issue 15 item 25: `posenc --version` named no build details; it now names the compiler, the
// build type and the kernel variants this CPU runs, checked here against the CPU's features
// read independently (cpuid through GCC's builtins, in the order of GCC's clone resolvers).
#include "posenc/reports/build_info.hpp"

#include <catch2/catch.hpp>

#include <map>

#include "cli/cli_helpers.hpp"

TEST_CASE("version: names the compiler, the build type and the active kernels", "[cli][version]") {
  const auto r = run_cli({"--version"});
  REQUIRE(r.code == 0);
  std::map<std::string, std::string> lines;
  std::size_t at = r.out.find('\n') + 1;
  CHECK(r.out.substr(0, at) == std::string("posenc ") + POSENC_VERSION + "\n");
  for (std::size_t nl; (nl = r.out.find('\n', at)) != std::string::npos; at = nl + 1) {
    const std::string line = r.out.substr(at, nl - at);
    lines[line.substr(0, line.find(": "))] = line.substr(line.find(": ") + 2);
  }
  CHECK(lines.size() == 5);
#if defined(__GNUC__) && !defined(__clang__)
  CHECK(lines["compiler"] == "GCC " + std::to_string(__GNUC__) + "." + std::to_string(__GNUC_MINOR__) + "." +
                                 std::to_string(__GNUC_PATCHLEVEL__) + ", C++20");
#endif
  CHECK_FALSE(lines["build type"].empty());
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
  const bool avx512f = __builtin_cpu_supports("avx512f"), avx2 = __builtin_cpu_supports("avx2");
  // libgcc's CPUID reading here, glibc's in posenc (posenc/cpu.hpp): the two must agree.
  const char* version = avx512f ? "avx512f version" : avx2 ? "avx2 version" : "default version (scalar)";
  CHECK(lines["sin/cos kernel"] == version);
  CHECK(lines["sinusoid sums"] == version);
  const bool text512 = avx512f && __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq") &&
                       __builtin_cpu_supports("avx512cd") && __builtin_cpu_supports("avx512vbmi") &&
                       __builtin_cpu_supports("avx512vbmi2");
  CHECK(lines["number text"] == (text512 ? "AVX-512 (avx512bw, vbmi2)" : avx2 ? "AVX2" : "scalar"));
#endif
  CHECK(r.out == [] {
    std::string s = std::string("posenc ") + POSENC_VERSION;
    for (const auto& [k, v] : posenc::reports::build_info()) s += "\n" + k + ": " + v;
    return s + "\n";
  }());
}
