// JobRunner's pacing (job_runner.h): rate_process=poisson's next start
// (backend.c usec_for_io()) and the thread's sleeps (rate limits,
// thinktime, replay waits).
#include <cmath>

#include "workloads/fio/job_runner.h"

namespace storlab::fio {

// backend.c usec_for_io(), rate_process=poisson: the next I/O of `dir` may
// start (1e6 / iops) * -ln(U) µs after this one, U uniform in (0, 1]
// (__rand_0_1), iops the rate in I/Os of the smallest size.
void JobRunner::PoissonNext(int dir) {
  const JobOptions& o = spec_.opts;
  const uint64_t min_bs = spec_.sizes[static_cast<size_t>(dir)].min;
  const uint64_t iops = o.rate[dir] ? o.rate[dir] / min_bs : o.rate_iops[dir];
  if (!iops) return;
  const double u = (static_cast<double>(poisson_rng_.Next()) + 1.0) / 4294967296.0;
  const auto mean_us = static_cast<int64_t>(1000000 / iops);
  poisson_usec_[dir] +=
      static_cast<uint64_t>(static_cast<float>(mean_us) * -std::log(static_cast<float>(u)));
}

void JobRunner::SleepUntil(Nanos t) {
  sleeping_ = true;
  ++ts_.ctx;
  host_.engine().At(t, [this] {
    sleeping_ = false;
    thread_free_ = Max(thread_free_, host_.engine().now());
    Pump();
  });
}

}  // namespace storlab::fio
