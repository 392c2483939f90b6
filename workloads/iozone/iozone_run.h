// IozoneRun: iozone's throughput mode (-t N) in virtual time on a SimHost.
//
// Each phase starts N children together, each working through its own file
// (iozone.DUMMY.<n>) one record at a time with read/write system calls, as
// iozone's thread_*_test() do: "initial writers" and "rewriters" (-i 0),
// "readers" and "re-readers" (-i 1; iozone skips the re-readers when -w
// keeps the files), "random readers" and "random writers" (-i 2, a uniformly
// random record each time). iozone stonewalls by default: when the first
// child finishes, the others note what they have done so far — that is
// their throughput and the "Min xfer" — and then finish their files
// uncounted; the parent's figure is everything counted over the time until
// the last child is done. With -e a writer's fsync is inside its timing;
// -o makes every write O_SYNC; -I makes every request O_DIRECT. Between
// phases iozone calls sync() and sleeps 2 s, and so do we.
//
// Files stay in the host's file system between phases and, with -w, between
// runs (storlab sim --repeat), so caches warm up as they would. Existing
// files are overwritten in place (iozone -+N's behaviour; a truncate is
// not modelled).
// Not thread-safe.
#ifndef STORLAB_WORKLOADS_IOZONE_IOZONE_RUN_H_
#define STORLAB_WORKLOADS_IOZONE_IOZONE_RUN_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "sim/status.h"
#include "sim/time.h"
#include "workloads/host/sim_host.h"
#include "workloads/iozone/iozone_args.h"

namespace storlab::iozone {

struct ChildResult {
  double actual = 0;      // KB (or ops with -O) counted before the stonewall
  double throughput = 0;  // per second
};

struct PhaseResult {
  std::string name;  // "initial writers", "rewriters", "readers", ...
  std::vector<ChildResult> children;
  double parent_throughput = 0;
  Nanos parent_time;  // phase start to the last child's exit
};

class IozoneRun {
 public:
  IozoneRun(SimHost& host, IozoneSpec spec);
  // One iozone invocation: every phase the tests ask for. `progress` (may
  // be empty) is called now and then with the simulated time.
  Result<std::vector<PhaseResult>> RunOnce(const std::function<void(Nanos)>& progress = {});
  const IozoneSpec& spec() const { return spec_; }

 private:
  SimHost& host_;
  IozoneSpec spec_;
  uint64_t runs_ = 0;
};

// The report: iozone's header lines and one block per phase.
std::string IozoneHeader(const IozoneSpec& spec, const std::string& stack);
std::string IozonePhaseReport(const IozoneSpec& spec, const PhaseResult& phase);

}  // namespace storlab::iozone

#endif  // STORLAB_WORKLOADS_IOZONE_IOZONE_RUN_H_
