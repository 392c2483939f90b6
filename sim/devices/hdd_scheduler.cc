#include "sim/devices/hdd_scheduler.h"

namespace storlab {

AccessChoice PickNextAccess(const std::vector<AccessCandidate>& candidates,
                            const HddMechanics& mech, Nanos now, const SchedulerPolicy& policy) {
  auto plan = [&](const AccessCandidate& c) {
    return mech.Plan(Max(now, c.ready), c.lba, c.sectors, c.write);
  };
  if (candidates.size() == 1) return {0, plan(candidates[0]), false};
  // Starvation bound: once any command has waited age_limit, only such
  // commands are eligible (still nearest first among them), so each waits at
  // most as many further accesses as there are aged commands.
  auto aged = [&](const AccessCandidate& c) {
    return c.arrival != Nanos::Max() && now - c.arrival >= policy.age_limit;
  };
  bool any_aged = false;
  for (const auto& c : candidates) any_aged = any_aged || aged(c);
  const Nanos rev = Nanos(static_cast<int64_t>(mech.layout().revolution_ns()));
  auto estimate = [&](const HddMechanics::Access& a) {
    return a.rotate < policy.guard ? a.data_start() + rev : a.data_start();
  };
  AccessChoice best{candidates.size(), {}, any_aged};
  Nanos best_est = Nanos::Max();
  for (size_t i = 0; i < candidates.size(); ++i) {
    if (any_aged && !aged(candidates[i])) continue;
    HddMechanics::Access a = plan(candidates[i]);
    const Nanos est = estimate(a);
    if (est < best_est) {
      best = {i, a, any_aged};
      best_est = est;
    }
  }
  return best;
}

}  // namespace storlab
