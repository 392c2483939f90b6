// PhaseStats: the stack's figures per stonewall segment of a fio run
// (issue 16 §3: per-phase statistics, not sums over everything). FioRun
// marks each segment's start; the JSON output ("storlab"."phases", written
// when the run has more than one segment) gives, per segment and node, the
// requests, bytes, errors, bandwidth and mean latency of every operation
// and the node's busy time — the differences between the marks, so the
// layout before the first segment counts in none of them.
// Not thread-safe: belongs to the engine's thread.
#ifndef STORLAB_WORKLOADS_FIO_PHASE_STATS_H_
#define STORLAB_WORKLOADS_FIO_PHASE_STATS_H_

#include <array>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "sim/request.h"
#include "sim/stack.h"
#include "sim/time.h"

namespace storlab::fio {

class PhaseStats {
 public:
  // Segment `segment` starts at `now` (the one before ends there).
  void Begin(int segment, const Stack& stack, Nanos now);
  // The last segment ends at `now` (the run's end).
  void End(const Stack& stack, Nanos now);
  // Every phase begun so far (one not ended yet ends at `now`). `jobs[i]`
  // names the jobs of segment i.
  nlohmann::ordered_json Json(const Stack& stack, Nanos now,
                              const std::vector<std::vector<std::string>>& jobs) const;
  size_t size() const { return phases_.size(); }

 private:
  struct OpMark {
    uint64_t ops = 0, bytes = 0, errors = 0;
    double latency_sum_ns = 0;  // mean × samples
  };
  struct NodeMark {
    std::array<OpMark, kOpCount> ops;
    Nanos busy;
  };
  struct Phase {
    int segment;
    Nanos start, end;
    std::vector<NodeMark> at_start, at_end;  // by index in stack.nodes()
  };
  static std::vector<NodeMark> Mark(const Stack& stack, Nanos now);

  std::vector<Phase> phases_;
};

}  // namespace storlab::fio

#endif  // STORLAB_WORKLOADS_FIO_PHASE_STATS_H_
