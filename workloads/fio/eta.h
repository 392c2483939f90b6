// EtaLine: fio 3.33's ETA line (eta.c) for a run in virtual time:
//
//   Jobs: 1 (f=1): [W(1)][60.0%][w=8200KiB/s][w=2050 IOPS][eta 00m:02s]\r
//
// At one instant of the run — between two events, so every job's state is
// the one it has at that simulated time — calc_thread_status() gathers the
// jobs' states (the run string of check_str_update()), their rates since
// the previous line, and the estimate (thread_eta(), summed over stonewall
// segments); display_thread_status() formats it, pads it over a longer
// previous line and starts a new line every eta_newline. All its times are
// simulated: elapsed from `genesis` (the run's start, before the layout,
// as fio's genesis), rates over the simulated time since the previous
// line. The caller chooses the instants (fio's helper thread: every
// eta_interval) and where the line goes. Not thread-safe.
#ifndef STORLAB_WORKLOADS_FIO_ETA_H_
#define STORLAB_WORKLOADS_FIO_ETA_H_

#include <cstdint>
#include <string>
#include <vector>

#include "sim/time.h"
#include "workloads/fio/fio_run.h"

namespace storlab::fio {

// eta.c eta_to_str(): "05m:03s", "01h:00m:00s", "02d:03h:00m:00s".
std::string EtaToStr(uint64_t eta_sec);

class EtaLine {
 public:
  // `newline_every`: fio's --eta-newline (0: never a new line).
  EtaLine(const FioRun& run, Nanos genesis, Nanos newline_every);
  EtaLine(const EtaLine&) = delete;
  EtaLine& operator=(const EtaLine&) = delete;

  // The line fio prints at engine time `now` (ending in '\r', a leading
  // '\n' when a new line is due), or "" when fio prints none (no job
  // running or waiting to start).
  std::string At(Nanos now);

 private:
  struct Status;  // fio's struct jobs_eta
  bool Calc(Nanos now, Status* je);
  std::string Display(Nanos now, const Status& je);
  uint64_t ThreadEta(const JobRunner& r, Nanos now) const;

  const FioRun& run_;
  Nanos genesis_;
  Nanos newline_every_;
  std::string run_chars_;  // fio's __run_str: one state character per job
  // calc_thread_status()'s statics: the previous line's time and counts.
  Nanos disp_prev_;
  uint64_t disp_bytes_[2] = {0, 0}, disp_ios_[2] = {0, 0};
  // display_thread_status()'s statics.
  bool newline_init_ = false, newline_pending_ = false, eta_good_ = false;
  Nanos newline_mark_;
  size_t linelen_last_ = 0;
};

}  // namespace storlab::fio

#endif  // STORLAB_WORKLOADS_FIO_ETA_H_
