#include "progress.hpp"

#include <fmt/format.h>

#include <chrono>
#include <memory>

#include "posenc/parallel.hpp"

namespace posenc::cli {
namespace {

using Clock = std::chrono::steady_clock;

struct BarState {
  std::ostream* err;
  Clock::time_point start = Clock::now();
  Clock::time_point last{};
  std::size_t total = 0;  // total of the work being drawn; a new total restarts the clock
  bool drawn = false;
};

std::string rate_text(double per_s) {
  if (per_s >= 1e6) return fmt::format("{:.1f}M", per_s / 1e6);
  if (per_s >= 1e3) return fmt::format("{:.1f}k", per_s / 1e3);
  return fmt::format("{:.0f}", per_s);
}

void draw(BarState& st, std::size_t done, std::size_t total) {
  const auto now = Clock::now();
  if (total != st.total || done < total / 1000) {  // a new piece of work
    if (total != st.total) st.start = now;
    st.total = total;
  }
  const double elapsed = std::chrono::duration<double>(now - st.start).count();
  if (done >= total) {
    if (st.drawn) *st.err << "\r\033[K" << std::flush;
    st.drawn = false;
    st.total = 0;
    return;
  }
  if (elapsed < 1.0 || now - st.last < std::chrono::milliseconds(100) || done == 0) return;
  st.last = now;
  const double frac = static_cast<double>(done) / static_cast<double>(total);
  const double rate = static_cast<double>(done) / elapsed;
  const double left = rate > 0 ? static_cast<double>(total - done) / rate : 0.0;
  constexpr int kWidth = 30;
  const int fill = static_cast<int>(frac * kWidth);
  *st.err << fmt::format("\r[{}{}] {:3.0f}%  {} rows/s  {:.0f}s left\033[K", std::string(static_cast<std::size_t>(fill), '#'),
                         std::string(static_cast<std::size_t>(kWidth - fill), ' '), frac * 100.0, rate_text(rate), left)
          << std::flush;
  st.drawn = true;
}

}  // namespace

ProgressBar::ProgressBar(std::ostream& err) {
  auto st = std::make_shared<BarState>();
  st->err = &err;
  set_progress([st](std::size_t done, std::size_t total) { draw(*st, done, total); });
}

ProgressBar::~ProgressBar() { set_progress({}); }

}  // namespace posenc::cli
