#include "posenc/parallel.hpp"

#include <algorithm>
#include <atomic>

namespace posenc {
namespace {

std::atomic<unsigned> g_threads{0};
ProgressFn& progress_fn() {
  static ProgressFn fn;
  return fn;
}

}  // namespace

void set_threads(unsigned n) { g_threads.store(n); }

unsigned threads() {
  const unsigned n = g_threads.load();
  if (n > 0) return n;
  return std::clamp(std::thread::hardware_concurrency(), 1u, 16u);
}

void set_progress(ProgressFn fn) { progress_fn() = std::move(fn); }

void report_progress(std::size_t done, std::size_t total) {
  if (progress_fn()) progress_fn()(done, total);
}

}  // namespace posenc
