#pragma once
/// Block pipeline: blocks of rows are computed on worker threads and handed to a consumer on
/// the calling thread in order, so output bytes do not depend on the number of threads
/// (block boundaries depend only on the table, never on the thread count).
#include <algorithm>
#include <condition_variable>
#include <cstddef>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace posenc {

/// Worker threads used by block pipelines; 0 = one per core (capped at 16). `--threads`.
void set_threads(unsigned n);
/// The number of threads a pipeline uses now (at least 1).
unsigned threads();

/// Progress of long work: called on the consuming thread with rows done and rows in all.
/// Empty (the default) = no reporting. The CLI installs a stderr bar when stderr is a terminal.
using ProgressFn = std::function<void(std::size_t done, std::size_t total)>;
void set_progress(ProgressFn fn);
/// Reports progress to the installed function, if any.
void report_progress(std::size_t done, std::size_t total);

/// Runs produce(first, n, buffer) for blocks [first, first + n) of `step` rows covering
/// [0, rows) on threads() threads, and consume(first, n, buffer) for each block on the calling
/// thread, in order. A Buffer is reused; at most threads() + 2 buffers exist at once. An
/// exception from produce or consume stops the work and is rethrown here.
template <class Buffer, class Produce, class Consume>
void pipeline(std::size_t rows, std::size_t step, Produce&& produce, Consume&& consume) {
  if (rows == 0) return;
  step = step == 0 ? 1 : step;
  const std::size_t blocks = (rows + step - 1) / step;
  const std::size_t workers = std::min<std::size_t>(threads(), blocks);
  const auto block_size = [&](std::size_t b) { return std::min(step, rows - b * step); };
  if (workers <= 1) {
    Buffer buf;
    for (std::size_t b = 0; b < blocks; ++b) {
      produce(b * step, block_size(b), buf);
      consume(b * step, block_size(b), buf);
      report_progress(b * step + block_size(b), rows);
    }
    return;
  }
  const std::size_t slots = workers + 2;
  struct Slot {
    Buffer buf;
    std::size_t block = static_cast<std::size_t>(-1);  // block held when ready
    bool ready = false;
  };
  std::vector<Slot> slot(slots);
  std::mutex m;
  std::condition_variable cv;
  std::size_t consumed = 0;  // blocks consumed so far
  bool stop = false;
  std::exception_ptr error;
  const auto work = [&](std::size_t w) {
    for (std::size_t b = w; b < blocks; b += workers) {
      Slot& s = slot[b % slots];
      {
        std::unique_lock lock(m);
        cv.wait(lock, [&] { return stop || b < consumed + slots; });  // slot free: block b − slots consumed
        if (stop) return;
      }
      try {
        produce(b * step, block_size(b), s.buf);
      } catch (...) {
        std::lock_guard lock(m);
        if (!error) error = std::current_exception();
        stop = true;
        cv.notify_all();
        return;
      }
      std::lock_guard lock(m);
      s.block = b;
      s.ready = true;
      cv.notify_all();
    }
  };
  std::vector<std::thread> pool;
  pool.reserve(workers);
  for (std::size_t w = 0; w < workers; ++w) pool.emplace_back(work, w);
  try {
    for (std::size_t b = 0; b < blocks; ++b) {
      Slot& s = slot[b % slots];
      {
        std::unique_lock lock(m);
        cv.wait(lock, [&] { return stop || (s.ready && s.block == b); });
        if (stop) break;
      }
      consume(b * step, block_size(b), s.buf);
      report_progress(b * step + block_size(b), rows);
      std::lock_guard lock(m);
      s.ready = false;
      ++consumed;
      cv.notify_all();
    }
  } catch (...) {
    std::lock_guard lock(m);
    if (!error) error = std::current_exception();
    stop = true;
    cv.notify_all();
  }
  for (auto& t : pool) t.join();
  if (error) std::rethrow_exception(error);
}

}  // namespace posenc
