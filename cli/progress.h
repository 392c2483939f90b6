// Progress: the progress line `storlab sim` writes on stderr once a run
// has taken more than a second of wall time (refreshed 4 times a second,
// erased at the end), or never, or from the start (fio's --eta), refreshed
// in place or on a new line every so often (fio's --eta-newline).
// Not thread-safe.
#ifndef STORLAB_CLI_PROGRESS_H_
#define STORLAB_CLI_PROGRESS_H_

#include <chrono>
#include <cstdio>
#include <string>

#include "sim/time.h"

namespace storlab::cli {

// fio's --eta, --eta-newline and --eta-interval. `storlab sim`'s fio jobs
// show fio's ETA line in simulated time (cli/eta_display.h); iozone's runs
// the progress line below, in wall time.
struct ProgressOptions {
  enum class Eta { kAuto, kAlways, kNever };
  Eta eta = Eta::kAuto;
  Nanos newline_every;                 // 0: refresh the line in place
  Nanos interval = Nanos(1000000000);  // fio's eta_interval_msec: 1 s
};

class Progress {
 public:
  using Options = ProgressOptions;

  // `total`: the simulated time the run is expected to take (0: unknown).
  explicit Progress(Nanos total, Options options = Options())
      : total_(total), options_(options), start_(Clock::now()), last_(start_), line_(start_) {}
  ~Progress() {
    if (shown_ && options_.newline_every == Nanos(0)) std::fprintf(stderr, "\r%70s\r", "");
    if (shown_ && options_.newline_every > Nanos(0)) std::fprintf(stderr, "\n");
  }
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  // `sim`: simulated time done so far.
  void operator()(Nanos sim) {
    using Eta = Options::Eta;
    if (options_.eta == Eta::kNever) return;
    auto now = Clock::now();
    const bool started = options_.eta == Eta::kAlways || now - start_ >= std::chrono::seconds(1);
    if (!started || now - last_ < std::chrono::milliseconds(250)) return;
    last_ = now;
    const char* lead = "\r";
    if (options_.newline_every > Nanos(0)) {
      if (shown_ && now - line_ < std::chrono::nanoseconds(options_.newline_every.count())) return;
      line_ = now;
      lead = shown_ ? "\n" : "";
    }
    shown_ = true;
    double wall = std::chrono::duration<double>(now - start_).count();
    if (total_ > Nanos(0)) {
      std::fprintf(stderr, "%sstorlab sim: %.1f of ~%.0f s simulated, %.1f s wall ", lead,
                   sim.seconds(), total_.seconds(), wall);
    } else {
      std::fprintf(stderr, "%sstorlab sim: %.1f s simulated, %.1f s wall ", lead, sim.seconds(),
                   wall);
    }
    std::fflush(stderr);
  }

  // `line` on stderr on a line of its own (a --fault's note): the progress
  // line is erased (or ended, with newline_every) first and shown again at
  // its next refresh.
  void Note(const std::string& line) {
    if (shown_) std::fprintf(stderr, options_.newline_every > Nanos(0) ? "\n" : "\r%70s\r", "");
    shown_ = false;
    std::fprintf(stderr, "%s\n", line.c_str());
    std::fflush(stderr);
  }

 private:
  using Clock = std::chrono::steady_clock;
  Nanos total_;
  Options options_;
  Clock::time_point start_, last_, line_;
  bool shown_ = false;
};

}  // namespace storlab::cli

#endif  // STORLAB_CLI_PROGRESS_H_
