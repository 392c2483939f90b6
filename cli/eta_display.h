// EtaDisplay: `storlab sim`'s --eta: fio's ETA line (workloads/fio/eta.h)
// on stderr, at fio's cadence (every --eta-interval, 1 s by default) of
// *simulated* time, so each line describes the run at that instant and the
// same run prints the same lines. Never with --eta=never; with auto only
// when stderr (where the line goes) is a terminal; always with always.
// The last line stays; a new line follows it at the end. Not thread-safe.
#ifndef STORLAB_CLI_ETA_DISPLAY_H_
#define STORLAB_CLI_ETA_DISPLAY_H_

#include <memory>
#include <string>

#include "cli/progress.h"
#include "sim/time.h"
#include "workloads/fio/eta.h"
#include "workloads/fio/fio_run.h"

namespace storlab::cli {

class EtaDisplay {
 public:
  // REQUIRES: run.Prepare() done; `t0` the jobs' start (engine time).
  EtaDisplay(fio::FioRun& run, Nanos t0, const ProgressOptions& options);
  ~EtaDisplay();
  EtaDisplay(const EtaDisplay&) = delete;
  EtaDisplay& operator=(const EtaDisplay&) = delete;

  // `line` on stderr on a line of its own (a --fault's note), below the
  // ETA line shown so far.
  void Note(const std::string& line);

 private:
  void Show(Nanos t);

  std::unique_ptr<fio::EtaLine> line_;  // null: no ETA line
  bool shown_ = false;
};

}  // namespace storlab::cli

#endif  // STORLAB_CLI_ETA_DISPLAY_H_
