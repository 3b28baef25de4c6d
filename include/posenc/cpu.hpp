#pragma once
/// CPU features, and functions compiled for AVX-512, AVX2 and the baseline with the one the CPU
/// runs picked on first use. The features come from what glibc's dynamic loader found at start-up
/// (<sys/platform/x86.h>, glibc 2.33): no CPUID instruction here. GCC's __builtin_cpu_supports
/// and target_clones link libgcc's __cpu_indicator_init instead, which runs CPUID at every
/// start, whether or not a kernel is used: 4 % of the CPU time of a 1.7 ms `posenc tensors`
/// in this VM, where CPUID traps to the hypervisor (perf, 2026-11-27).

namespace posenc::cpu {

enum class Feature { kAvx, kAvx2, kFma, kF16c, kAvx512f, kAvx512bw, kAvx512dq, kAvx512cd, kAvx512vl, kAvx512vbmi, kAvx512vbmi2 };

/// True when the CPU has `f` and the system saves its registers (usable now).
bool has(Feature f);

}  // namespace posenc::cpu

/// POSENC_DISPATCH(ret, name, (params), (args)) defines `ret name(params)` calling
/// `name##_body(args)` (an always-inlined function) compiled three times: with AVX-512F, with
/// AVX2, and for the baseline, as GCC's target_clones("avx512f", "avx2", "default") compiles
/// a function; the first the CPU has is picked on the first call. Other compilers and CPUs get
/// the baseline alone.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define POSENC_DISPATCH(ret, name, params, args)                                                  \
  __attribute__((target("avx512f"))) ret name##_avx512 params { return name##_body args; }       \
  __attribute__((target("avx2"))) ret name##_avx2 params { return name##_body args; }            \
  ret name##_default params { return name##_body args; }                                          \
  ret name params {                                                                               \
    static ret(*const pick) params = ::posenc::cpu::has(::posenc::cpu::Feature::kAvx512f) ? name##_avx512 \
                                     : ::posenc::cpu::has(::posenc::cpu::Feature::kAvx2)  ? name##_avx2   \
                                                                                          : name##_default; \
    return pick args;                                                                             \
  }
#else
#define POSENC_DISPATCH(ret, name, params, args) \
  ret name params { return name##_body args; }
#endif
