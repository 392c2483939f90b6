// Flow: fio's flow control (flow.c), one per flow_id: jobs that share it
// issue I/O in the ratio of their flow weights. Each job counts the I/Os
// it was let through, the flow counts them all (from 1); before each I/O a
// job is held back while its share of the count is above its share of the
// weight (flow_threshold_exceeded()). Every job joins its flow when the
// jobs are set up (flow_init_job(), at fio's add_job(): stonewalled jobs
// too) and leaves it when it is reaped (flow_exit_job()), taking its count
// and weight with it. In virtual time a job held back without flow_sleep
// (fio: it spins) waits until a job of its flow is let through or leaves:
// `Watch` registers a wake-up, run as an engine event at that moment.
// Not thread-safe; lives on the engine's thread.
#ifndef STORLAB_WORKLOADS_FIO_FLOW_H_
#define STORLAB_WORKLOADS_FIO_FLOW_H_

#include <cstdint>
#include <functional>
#include <vector>

#include "sim/engine.h"

namespace storlab::fio {

class Flow {
 public:
  explicit Flow(Engine& engine) : engine_(engine) {}
  Flow(const Flow&) = delete;
  Flow& operator=(const Flow&) = delete;

  // flow_init_job(): a job of weight `weight` (> 0) joins.
  void Join(uint64_t weight) { total_weight_ += weight; }
  // flow_threshold_exceeded() without its sleep: true when a job that was
  // let through `job_count` times and has weight `weight` is held back;
  // false lets it through (counted here; the job counts it too).
  bool Exceeded(uint64_t job_count, uint64_t weight);
  // flow_exit_job(): the job leaves with its count and weight.
  void Leave(uint64_t job_count, uint64_t weight);
  // `wake` runs (once, as an event) when a job is next let through or
  // leaves.
  void Watch(std::function<void()> wake) { watchers_.push_back(std::move(wake)); }

 private:
  void WakeAll();

  Engine& engine_;
  uint64_t counter_ = 1;  // flow_get(): flow_counter starts at 1
  uint64_t total_weight_ = 0;
  std::vector<std::function<void()>> watchers_;
};

}  // namespace storlab::fio

#endif  // STORLAB_WORKLOADS_FIO_FLOW_H_
