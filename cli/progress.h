// Progress: the progress line `storlab sim` writes on stderr once a run
// has taken more than a second of wall time (refreshed 4 times a second,
// erased at the end). Not thread-safe.
#ifndef STORLAB_CLI_PROGRESS_H_
#define STORLAB_CLI_PROGRESS_H_

#include <chrono>
#include <cstdio>

#include "sim/time.h"

namespace storlab::cli {

class Progress {
 public:
  // `total`: the simulated time the run is expected to take (0: unknown).
  explicit Progress(Nanos total) : total_(total), start_(Clock::now()), last_(start_) {}
  ~Progress() {
    if (shown_) std::fprintf(stderr, "\r%70s\r", "");
  }
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  // `sim`: simulated time done so far.
  void operator()(Nanos sim) {
    auto now = Clock::now();
    if (now - start_ < std::chrono::seconds(1) || now - last_ < std::chrono::milliseconds(250)) {
      return;
    }
    last_ = now;
    shown_ = true;
    double wall = std::chrono::duration<double>(now - start_).count();
    if (total_ > Nanos(0)) {
      std::fprintf(stderr, "\rstorlab sim: %.1f of ~%.0f s simulated, %.1f s wall ", sim.seconds(),
                   total_.seconds(), wall);
    } else {
      std::fprintf(stderr, "\rstorlab sim: %.1f s simulated, %.1f s wall ", sim.seconds(), wall);
    }
    std::fflush(stderr);
  }

 private:
  using Clock = std::chrono::steady_clock;
  Nanos total_;
  Clock::time_point start_, last_;
  bool shown_ = false;
};

}  // namespace storlab::cli

#endif  // STORLAB_CLI_PROGRESS_H_
