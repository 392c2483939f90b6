// FioRun's steadystate (fio_run.h, steadystate.h): fio's steadystate_setup()
// and steadystate_check(), run once a second of simulated time from the
// start of the jobs while a job with ss_dur runs (fio's helper thread,
// STEADYSTATE_MSEC). Runs without ss_dur schedule nothing.
#include <algorithm>

#include "workloads/fio/fio_run.h"

namespace storlab::fio {
namespace {

using namespace time_literals;

constexpr Nanos kCheckEvery = 1000_ms;  // STEADYSTATE_MSEC

int DurSeconds(const JobOptions& o) { return static_cast<int>(o.ss_dur.count() / 1000000000); }

}  // namespace

// steadystate_setup(): the samples live on each job, or with
// group_reporting on the last job of its group.
void FioRun::StartSteadyState() {
  steady_.clear();
  steady_.resize(runners_.size());
  bool any = false;
  for (size_t i = 0; i < runners_.size(); ++i) {
    const JobOptions& o = runners_[i]->spec().opts;
    if (DurSeconds(o) < 1) continue;
    any = true;
    steady_[i].on = true;
    steady_[i].ramp_over = o.ss_ramp == Nanos(0);
    const bool last_of_group = i + 1 == runners_.size() ||
                               runners_[i + 1]->spec().groupid != runners_[i]->spec().groupid ||
                               DurSeconds(runners_[i + 1]->spec().opts) < 1;
    if (!o.group_reporting || last_of_group) {
      auto c = ParseSteadyState(o.steadystate);  // checked when the option was read
      steady_[i].data = std::make_unique<SteadyState>(*c, DurSeconds(o));
    }
  }
  if (!any) return;
  Engine& engine = host_.engine();
  engine.At(engine.now() + kCheckEvery, [this] { SteadyStateCheck(); });
}

void FioRun::SteadyStateCheck() {
  Engine& engine = host_.engine();
  const Nanos now = engine.now();
  int prev_group = -1;
  uint64_t group_bw = 0, group_iops = 0;
  int group_ramp_over = 0;
  bool again = false;
  for (size_t i = 0; i < runners_.size(); ++i) {
    JobRunner& r = *runners_[i];
    SteadyTrack& ss = steady_[i];
    if (!ss.on || ss.attained || r.done()) continue;
    again = true;
    if (!r.running() || r.ramping()) continue;  // fio's runstate <= TD_SETTING_UP
    const JobOptions& o = r.spec().opts;
    if (!o.group_reporting || r.spec().groupid != prev_group) {
      group_bw = group_iops = 0;
      group_ramp_over = 0;
    }
    prev_group = r.spec().groupid;
    // Samples start a second after ss_ramp.
    if (!ss.ramp_over && now - r.extras().epoch >= o.ss_ramp + kCheckEvery) ss.ramp_over = true;
    const uint64_t bytes = r.bytes_done(), ios = r.ios_done();
    // The first interval runs from the job's epoch (backend.c and
    // reset_all_stats() set prev_time to it).
    ss.prev_time = Max(ss.prev_time, r.extras().epoch);
    const uint64_t rate_ms =
        std::max<uint64_t>(1, static_cast<uint64_t>((now - ss.prev_time).count() / 1000000));
    ss.prev_time = now;
    if (ss.ramp_over) {
      group_bw += 1000 * (bytes - ss.prev_bytes) / rate_ms;
      group_iops += 1000 * (ios - ss.prev_ios) / rate_ms;
      ++group_ramp_over;
    }
    ss.prev_bytes = bytes;
    ss.prev_ios = ios;
    if (!ss.data || !group_ramp_over) continue;
    if (!ss.data->Add(group_iops, group_bw)) continue;
    // Attained: the job ends, or every job of its group.
    for (size_t k = 0; k < runners_.size(); ++k) {
      const bool same =
          o.group_reporting ? runners_[k]->spec().groupid == r.spec().groupid : k == i;
      if (!same || !steady_[k].on) continue;
      steady_[k].attained = true;
      if (steady_[k].data) steady_[k].data->MarkAttained();
      runners_[k]->Terminate();
    }
  }
  if (again) engine.At(now + kCheckEvery, [this] { SteadyStateCheck(); });
}

const SteadyState* FioRun::SteadyData(const JobRunner& job) const {
  for (size_t i = 0; i < runners_.size() && i < steady_.size(); ++i) {
    if (runners_[i].get() == &job) return steady_[i].data.get();
  }
  return nullptr;
}

}  // namespace storlab::fio
