// PowerCuts: cut the power of a running workload's stack at chosen times,
// many times over one run, and prove with the oracle what each cut kept.
//
// Each cut is taken in a copy of the whole simulation: at the cut time,
// between two events, the process forks (fork(2): the copy shares every
// page until it writes one). The copy cuts the power (Stack::PowerCut: each
// device's power_cut mode decides what of its volatile cache reaches the
// media, sim/store/power_loss.h), powers up, lets the oracle read back every
// block the workload wrote (Oracle::Verify) and reports on a pipe; the
// original goes on with the workload, untouched. So N cuts cost one run and
// N verifications, and each crash state is exactly the one the run held at
// its time — also for layers that keep durable metadata in memory (thin
// mappings, a cache's dirty map, ZFS's txgs), which a block-level write log
// replayed onto the devices (dm-log-writes, CrashMonkey) could not rebuild.
//
// Stacks that declare they do not keep the promise (Capabilities'
// honors_flush / honors_fua false: an NFS export `async`, a USB bridge that
// drops FUA) lose flushed data by design: their losses are counted as
// lost_unhonoured, with the nodes that break the promise, never as
// violations.
// Not thread-safe; call from the thread that runs the engine.
#ifndef STORLAB_WORKLOADS_POWER_CUTS_H_
#define STORLAB_WORKLOADS_POWER_CUTS_H_

#include <sys/types.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "sim/oracle.h"
#include "sim/stack.h"
#include "sim/status.h"
#include "sim/time.h"

namespace storlab {

// What one cut found.
struct CutResult {
  Nanos at;  // engine time of the cut
  uint64_t blocks_checked = 0;
  uint64_t blocks_newest = 0;  // hold the newest acknowledged write
  uint64_t blocks_older = 0;   // an older acceptable one: volatile writes lost
  uint64_t read_errors = 0;
  uint64_t violations = 0;             // durable writes lost or corrupted
  std::vector<OracleViolation> first;  // the first few, in full
  std::string failure;                 // the check itself failed (crashed)
  // A node broke FLUSH or FUA at the cut's time (its capabilities, which a
  // fault can change: ignore-fua): its losses are lost_unhonoured.
  bool promise_broken = false;
  // The nodes that held acknowledged writes only in volatile memory at the
  // cut (Node::volatile_bytes), top of the stack first, with how much: a
  // lost block was held by one of them.
  std::vector<std::pair<std::string, uint64_t>> volatile_holders;
};

// Every cut of a run, and the totals.
struct CutSummary {
  std::vector<CutResult> cuts;
  Nanos origin;  // when the workload started: cut times are reported from it
  // Nodes whose own capabilities break FLUSH or FUA (their children keep
  // them): when any exists, losses of flushed data are lost_unhonoured.
  std::vector<std::string> unhonoured_by;
  uint64_t blocks_checked = 0, durable_intact = 0, lost_allowed = 0, lost_unhonoured = 0;
  uint64_t violations = 0, read_errors = 0, failed_checks = 0;
  // Reads of the jobs that returned stale or corrupted data (the oracle
  // checks every read online: Oracle::read_violations), and the first few.
  uint64_t read_violations = 0;
  std::vector<OracleViolation> first_read_violations;
  bool ok() const {
    return violations == 0 && read_errors == 0 && failed_checks == 0 && read_violations == 0;
  }
  // One paragraph for the normal output.
  std::string Paragraph() const;
};

// `times`: seeded cut times, uniform over [start, end), sorted.
std::vector<Nanos> SeededCutTimes(uint64_t seed, size_t n, Nanos start, Nanos end);

class PowerCuts {
 public:
  // `parallel`: how many copies verify at once (the cores to use);
  // `origin`: when the workload started.
  PowerCuts(Stack& stack, Oracle& oracle, int parallel, Nanos origin);
  ~PowerCuts();
  PowerCuts(const PowerCuts&) = delete;
  PowerCuts& operator=(const PowerCuts&) = delete;

  // Cuts now (between events, at engine().now()) in a copy of the process.
  // Waits first while `parallel` copies are still at work.
  Status CutHere();
  // Waits for every copy; then the summary is complete.
  Status Finish();
  const CutSummary& summary() const { return summary_; }

 private:
  struct Child {
    pid_t pid;
    int fd;
    size_t index;
  };
  // The copy's side: cut, verify, write the report to `fd`, _exit.
  [[noreturn]] void RunChild(int fd);
  Status Reap(size_t k);  // waits for children_[k] and records its result

  Stack& stack_;
  Oracle& oracle_;
  int parallel_;
  std::vector<Child> children_;
  CutSummary summary_;
};

}  // namespace storlab

#endif  // STORLAB_WORKLOADS_POWER_CUTS_H_
