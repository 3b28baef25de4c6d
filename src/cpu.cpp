#include "posenc/cpu.hpp"

#if defined(__x86_64__) && __has_include(<sys/platform/x86.h>)
#if defined(__clang__)
#define _Bool bool  // the header declares its functions with C's _Bool, which clang's C++ refuses
#endif
#include <sys/platform/x86.h>
#undef _Bool
#define POSENC_GLIBC_X86 1
#endif

namespace posenc::cpu {

bool has(Feature f) {
#if defined(POSENC_GLIBC_X86)
  switch (f) {
    case Feature::kAvx: return CPU_FEATURE_ACTIVE(AVX);
    case Feature::kAvx2: return CPU_FEATURE_ACTIVE(AVX2);
    case Feature::kFma: return CPU_FEATURE_ACTIVE(FMA);
    case Feature::kF16c: return CPU_FEATURE_ACTIVE(F16C);
    case Feature::kAvx512f: return CPU_FEATURE_ACTIVE(AVX512F);
    case Feature::kAvx512bw: return CPU_FEATURE_ACTIVE(AVX512BW);
    case Feature::kAvx512dq: return CPU_FEATURE_ACTIVE(AVX512DQ);
    case Feature::kAvx512cd: return CPU_FEATURE_ACTIVE(AVX512CD);
    case Feature::kAvx512vl: return CPU_FEATURE_ACTIVE(AVX512VL);
    case Feature::kAvx512vbmi: return CPU_FEATURE_ACTIVE(AVX512_VBMI);
    case Feature::kAvx512vbmi2: return CPU_FEATURE_ACTIVE(AVX512_VBMI2);
  }
  return false;
#else
  (void)f;
  return false;  // no vector kernel is picked: the baseline code everywhere
#endif
}

}  // namespace posenc::cpu
