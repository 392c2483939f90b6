#include "workloads/scenarios/rebuild_risk.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "sim/random.h"

namespace storlab::scenarios {
namespace {

constexpr double kHoursPerYear = 365.0 * 24;  // Backblaze: AFR = failures / (drive days / 365)

// Poisson with mean `mean` (Knuth's product of uniforms, in parts of at most
// 8 so exp(-part) stays far from underflow).
uint64_t Poisson(Random& rng, double mean) {
  uint64_t n = 0;
  while (mean > 0) {
    const double part = std::min(mean, 8.0);
    mean -= part;
    const double limit = std::exp(-part);
    double p = rng.UniformDouble();
    while (p > limit) {
      ++n;
      p *= rng.UniformDouble();
    }
  }
  return n;
}

}  // namespace

RebuildProfile::RebuildProfile(std::vector<double> slice_hours)
    : slice_hours_(std::move(slice_hours)) {
  for (double h : slice_hours_) total_ += h;
}

double RebuildProfile::FractionAt(double h) const {
  if (h <= 0) return 0;
  const double slice = 1.0 / static_cast<double>(slice_hours_.size());
  double f = 0;
  for (double s : slice_hours_) {
    if (h < s) return f + slice * h / s;
    h -= s;
    f += slice;
  }
  return 1;
}

RiskResult SimulateRebuildRisk(const RiskInputs& in, const RebuildProfile& profile) {
  Random rng(in.seed, "rebuild-risk");
  const double rate = in.afr / kHoursPerYear;  // failures per member-hour
  const double pass = profile.hours();
  const double member_bits = in.member_bytes * 8;
  RiskResult out;
  out.trials = in.trials;
  for (uint64_t trial = 0; trial < in.trials; ++trial) {
    int in_sync = in.members - 1;
    int missing = 1;  // out of sync: rebuilding in this pass, or waiting for the next
    int in_pass = 1;  // rebuilt by the running pass
    double t = 0;     // hours since the first failure
    double pass_start = 0;
    uint64_t unreadable = 0;
    bool lost = false;
    bool second = false;
    while (missing > 0) {
      const double pass_end = pass_start + pass;
      const double next_failure = in_sync > 0 && rate > 0
                                      ? t + rng.Exponential(1.0 / (in_sync * rate))
                                      : std::numeric_limits<double>::infinity();
      const double until = std::min(next_failure, pass_end);
      // Reads with no redundancy left: a URE is a block nobody can rebuild.
      if (missing == in.parity && in.ure_per_bit > 0) {
        const double read =
            profile.FractionAt(until - pass_start) - profile.FractionAt(t - pass_start);
        unreadable += Poisson(rng, read * member_bits * in_sync * in.ure_per_bit);
      }
      t = until;
      if (next_failure < pass_end) {
        --in_sync;
        ++missing;
        second = true;
        if (missing > in.parity) {
          lost = true;
          break;
        }
        continue;
      }
      // The pass is done: its members are in sync; the ones that failed
      // during it get the next pass.
      in_sync += in_pass;
      missing -= in_pass;
      in_pass = missing;
      pass_start = t;
    }
    if (second) ++out.second_failures;
    if (lost) {
      ++out.arrays_lost;
    } else if (unreadable > 0) {
      ++out.with_unreadable;
      out.unreadable += unreadable;
    }
  }
  return out;
}

}  // namespace storlab::scenarios
