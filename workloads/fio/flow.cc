// fio's flow control (flow.c), see flow.h.
#include "workloads/fio/flow.h"

#include <utility>

namespace storlab::fio {

bool Flow::Exceeded(uint64_t job_count, uint64_t weight) {
  // Each job stalls while the ratio of its count to the flow's is above
  // the ratio of its weight to the flow's total.
  const double counter_ratio = static_cast<double>(job_count) / static_cast<double>(counter_);
  const double weight_ratio = static_cast<double>(weight) / static_cast<double>(total_weight_);
  if (counter_ratio > weight_ratio) return true;
  ++counter_;
  WakeAll();
  return false;
}

void Flow::Leave(uint64_t job_count, uint64_t weight) {
  counter_ -= job_count;
  total_weight_ -= weight;
  WakeAll();
}

void Flow::WakeAll() {
  if (watchers_.empty()) return;
  std::vector<std::function<void()>> w;
  w.swap(watchers_);
  for (auto& f : w) engine_.At(engine_.now(), std::move(f));
}

}  // namespace storlab::fio
