#pragma once
// A progress bar on stderr for long work: percentage, rows per second, time left.
#include <ostream>

namespace posenc::cli {

/// Installs a progress reporter (posenc::set_progress) that draws on `err` once the work has
/// run for about a second, at most 10 times a second, and clears its line when done. Call only
/// when `err` is a terminal. Uninstalled by the destructor.
class ProgressBar {
 public:
  explicit ProgressBar(std::ostream& err);
  ~ProgressBar();
  ProgressBar(const ProgressBar&) = delete;
  ProgressBar& operator=(const ProgressBar&) = delete;
};

}  // namespace posenc::cli
