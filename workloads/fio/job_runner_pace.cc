// JobRunner's pacing (job_runner.h): rate_process=poisson's next start
// (backend.c usec_for_io()), thinktime's stalls (handle_thinktime()) and
// the thread's sleeps (rate limits, thinktime, replay waits).
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

// handle_thinktime(): thinktime_iotime since the last stall (its cycle is
// iotime + thinktime), then — without it, or with thinktime_blocks given —
// thinktime_blocks completed (init_thinktime(): io_blocks) or issued
// (io_issues) since the last stall.
bool JobRunner::ThinkDue(Nanos t) const {
  const JobOptions& o = spec_.opts;
  if (o.thinktime_iotime > Nanos(0)) {
    if (t - last_think_ >= o.thinktime_iotime + o.thinktime) return true;
    if (!o.thinktime_blocks_set) return false;
  }
  const uint64_t b = o.thinktime_blocks_type == "issue" ? issued_blocks_ : completed_blocks_;
  return b - last_think_blocks_ >= static_cast<uint64_t>(o.thinktime_blocks);
}

// handle_thinktime() after io_u_quiesce(): thinktime_spin on the CPU
// (user time), then asleep for the rest of thinktime (cut at the runtime).
void JobRunner::Think(Nanos t) {
  const JobOptions& o = spec_.opts;
  last_think_blocks_ = o.thinktime_blocks_type == "issue" ? issued_blocks_ : completed_blocks_;
  if (o.thinktime_iotime > Nanos(0)) last_think_ = t;
  const Nanos spin = Min(o.thinktime_spin, o.thinktime);
  const Nanos spun = spin > Nanos(0) ? Book(t, spin) : t;
  usr_ns_ += spin;
  Nanos sleep = o.thinktime - spin;
  if (o.runtime > Nanos(0) && ramp_over_)
    sleep = Min(sleep, Max(Nanos(0), epoch_ + o.runtime - spun));
  RateSkipThink(spin + sleep);
  SleepUntil(spun + sleep);
}

// handle_thinktime(), rate_ignore_thinktime: what the rate of the last
// I/O's direction would have issued while the job thought, less one block
// (so the first I/O after it goes at once), counts as issued; poisson's
// clock (last_usec) moves on by the time thought. fio's "over" is one block
// when a block's time at the rate fits in the time thought, else 0 (its
// (usperop - total) / usperop is 0 then); the sum is modular, as fio's.
void JobRunner::RateSkipThink(Nanos thought) {
  const JobOptions& o = spec_.opts;
  const int dir = last_dir_issued_;
  if (!o.rate_ignore_thinktime || dir < 0 || dir >= kSync) return;
  const uint64_t bs = spec_.sizes[static_cast<size_t>(dir)].min;
  const uint64_t bps = o.rate[dir] ? o.rate[dir] : o.rate_iops[dir] * bs;  // __setup_rate()
  const auto us = static_cast<uint64_t>(thought.count() / 1000);
  if (!bps || !us) return;
  const uint64_t missed = bps * us / 1000000;
  const uint64_t usperop = bs * 1000000 / bps;
  think_bytes_[dir] += missed - (usperop <= us ? bs : 0);
  poisson_usec_[dir] += us;
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
