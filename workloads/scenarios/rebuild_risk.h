// RebuildRisk: the chance of losing an md RAID5/RAID6 array, or some of its
// blocks, while it rebuilds a replaced member — a seeded Monte Carlo over
// many rebuilds, from a drive's annualized failure rate (AFR), its
// unrecoverable-read-error rate (URE per bit read, the data sheet's bound)
// and the rebuild's own progress over time as the simulator measured it.
//
// One trial: one member has failed and a spare is rebuilding it, the pass
// reading every survivor from start to end (position over time: Profile).
// Each member in sync fails after an exponential time (rate AFR per year,
// as Backblaze computes AFR: failures per drive-year). A member that fails
// during a pass waits for it to end and then gets its own full pass (md
// recovers the spares present when a pass starts; a spare added later gets
// the next pass) — a spare is assumed at hand at once. The array is lost
// when more members are out of sync than its parity count. A URE on a
// survivor is harmless while one redundancy is left (md rewrites the
// sector from the others: raid5.c fix_read_error via handle_stripe); read
// while the array has none left, the stripe's 4 KiB there cannot be
// rebuilt: md records a bad block on the new member and goes on
// (raid5.c handle_failed_sync -> rdev_set_badblocks; it aborts the
// recovery only when the bad-block log is full or absent), so the array
// survives with an unreadable block that gives EIO to whatever file holds
// it. UREs per pass portion are Poisson in the bits read in it.
// Foreground reads and scrubs are not counted (they find UREs too).
// Thread-compatible.
#ifndef STORLAB_WORKLOADS_SCENARIOS_REBUILD_RISK_H_
#define STORLAB_WORKLOADS_SCENARIOS_REBUILD_RISK_H_

#include <cstdint>
#include <vector>

namespace storlab::scenarios {

// A rebuild pass's position over time: the member split into equal slices,
// each rebuilt at its measured rate (the rate changes from the outer to
// the inner tracks and with the foreground load).
class RebuildProfile {
 public:
  // `slice_hours`: how long each equal slice of the member took.
  // REQUIRES: non-empty, every entry > 0.
  explicit RebuildProfile(std::vector<double> slice_hours);
  double hours() const { return total_; }
  // Fraction of the member rebuilt `h` hours into the pass (0..1).
  double FractionAt(double h) const;

 private:
  std::vector<double> slice_hours_;
  double total_ = 0;
};

struct RiskInputs {
  int members = 6;           // drives in the array, the rebuilding one included
  int parity = 1;            // 1: RAID5, 2: RAID6
  double member_bytes = 0;   // per drive
  double afr = 0;            // annualized failure rate (0.023 for 2.3 %)
  double ure_per_bit = 0;    // unrecoverable read errors per bit read (1e-14)
  uint64_t trials = 100000;  // rebuilds simulated
  uint64_t seed = 1;
};

struct RiskResult {
  uint64_t trials = 0;
  uint64_t arrays_lost = 0;      // trials in which more members failed than parity
  uint64_t with_unreadable = 0;  // trials (array kept) with >= 1 unreadable block
  uint64_t unreadable = 0;       // unreadable blocks over all kept arrays
  uint64_t second_failures = 0;  // trials with >= 1 more member failing
  double p_lost() const { return trials ? static_cast<double>(arrays_lost) / trials : 0; }
  double p_unreadable() const { return trials ? static_cast<double>(with_unreadable) / trials : 0; }
  double mean_unreadable() const { return trials ? static_cast<double>(unreadable) / trials : 0; }
};

RiskResult SimulateRebuildRisk(const RiskInputs& in, const RebuildProfile& profile);

}  // namespace storlab::scenarios

#endif  // STORLAB_WORKLOADS_SCENARIOS_REBUILD_RISK_H_
