#include "sim/serve/compensation.h"

#include <algorithm>
#include <bit>

#include "sim/profile/units.h"
#include "sim/stats_json.h"

namespace storlab {

Result<CompensationOptions> ParseCompensation(std::string_view text) {
  CompensationOptions o;
  if (text == "auto") return o;
  if (text == "off" || text == "0") {
    o.mode = CompensationOptions::Mode::kOff;
    return o;
  }
  auto d = ParseDuration(text);
  if (!d.ok()) {
    return Status::InvalidArgument("compensate: expected auto, off or a duration (40us): " +
                                   d.status().message());
  }
  if (*d < Nanos(0) || *d > Nanos(1'000'000'000)) {
    return Status::InvalidArgument("compensate: a duration from 0 to 1s");
  }
  o.mode = CompensationOptions::Mode::kFixed;
  o.fixed = *d;
  return o;
}

int Compensator::ClassOf(uint64_t bytes) {
  if (bytes <= 4096) return 0;
  // 4097..8192 -> 1, ... ; 64 MiB and up -> the last class.
  int c = std::bit_width(bytes - 1) - 12;
  return std::min(c, kClasses - 1);
}

void Compensator::SetBaseline(Nanos in_process) {
  std::lock_guard<std::mutex> l(mu_);
  baseline_ = in_process;
}

Nanos Compensator::baseline() const {
  std::lock_guard<std::mutex> l(mu_);
  return baseline_;
}

void Compensator::SetFloor(uint64_t bytes, Nanos round_trip) {
  std::lock_guard<std::mutex> l(mu_);
  floor_[ClassOf(bytes)] = std::max<int64_t>(round_trip.count(), 0);
}

int64_t Compensator::FloorLocked(int cls) const {
  if (floor_[cls] > 0) return floor_[cls];
  // A class above the largest measured: that floor, scaled by the size (a
  // copy's cost grows with its bytes; the wake-ups are in the measured one).
  for (int k = cls - 1; k >= 0; --k)
    if (floor_[k] > 0) return floor_[k] << (cls - k);
  return -1;
}

void Compensator::ObserveIdleGap(uint64_t bytes, Nanos gap) {
  if (options_.mode != CompensationOptions::Mode::kAuto || gap < Nanos(0)) return;
  std::lock_guard<std::mutex> l(mu_);
  ++idle_samples_;
  const int cls = ClassOf(bytes);
  Class& c = classes_[cls];
  // The bound: kPauseFactor floors, or twice the round trip measured so
  // far, the larger. The floor is a socket pair's, hot; the export's real
  // round trip can be several times it (nbdkit and fio's work, a vCPU woken
  // from halt: 3-4x here at QD1 on a 240 us NAS), so the estimate widens
  // the bound once a few round trips are under it. A client that always
  // pauses never gets a sample in, and keeps the floor.
  const int64_t floor = FloorLocked(cls);
  const int64_t bound = std::max(kPauseFactor * floor, 2 * c.estimate);
  if (floor > 0 && gap.count() > bound) {
    ++pauses_;
    return;
  }
  // The 20th percentile of the window: the round trip without the client's
  // pauses and the scheduler's hiccups, but not its single luckiest sample.
  c.gaps.Add(gap.count());
  c.estimate = c.gaps.Quantile(20);
  c.idle_cap =
      std::min(c.gaps.Quantile(std::clamp(options_.idle_quantile, 1, 100)), 2 * c.estimate);
}

void Compensator::ObserveOverhead(Nanos overhead) {
  if (options_.mode != CompensationOptions::Mode::kAuto) return;
  std::lock_guard<std::mutex> l(mu_);
  overhead_.Add(std::max<int64_t>(overhead.count(), 0));
  // The median, taken every 16 samples once there are 16.
  if (overhead_.count() < 16 || overhead_.next() % 16 == 0)
    overhead_estimate_ = overhead_.Quantile(50);
}

Nanos Compensator::GapLocked(uint64_t bytes) const {
  // The class's own estimate; else the nearest smaller class's (a larger
  // request never costs the transport less) or the class's floor, the
  // larger; none of them yet: 0.
  const int cls = ClassOf(bytes);
  if (classes_[cls].estimate >= 0) return Nanos(classes_[cls].estimate);
  int64_t gap = std::max<int64_t>(FloorLocked(cls), 0);
  for (int k = cls - 1; k >= 0; --k) {
    if (classes_[k].estimate >= 0) {
      gap = std::max(gap, classes_[k].estimate);
      break;
    }
  }
  return Nanos(gap);
}

Nanos Compensator::Deduction(uint64_t bytes, std::optional<Nanos> idle_gap) const {
  switch (options_.mode) {
    case CompensationOptions::Mode::kOff:
      return Nanos(0);
    case CompensationOptions::Mode::kFixed:
      return options_.fixed;
    case CompensationOptions::Mode::kAuto:
      break;
  }
  std::lock_guard<std::mutex> l(mu_);
  // The round trip outside the service (the gap) plus the service's own
  // cost inside it (measured, or before that the start-up baseline). An
  // idle connection's own gap, up to the class's cap (its estimate where
  // it has no samples of its own).
  Nanos gap = GapLocked(bytes);
  if (idle_gap) {
    const Nanos cap = std::max(gap, Nanos(classes_[ClassOf(bytes)].idle_cap));
    gap = std::clamp(*idle_gap, Nanos(0), cap);
  }
  return (overhead_estimate_ >= 0 ? Nanos(overhead_estimate_) : baseline_) + gap;
}

Nanos Compensator::Estimate(uint64_t bytes) const { return Deduction(bytes, std::nullopt); }

void Compensator::RecordApplied(Nanos applied) {
  std::lock_guard<std::mutex> l(mu_);
  applied_.Add(static_cast<uint64_t>(std::max<int64_t>(applied.count(), 0)));
}

void Compensator::Reset() {
  std::lock_guard<std::mutex> l(mu_);
  applied_.Reset();
}

nlohmann::ordered_json Compensator::Json() const {
  std::lock_guard<std::mutex> l(mu_);
  nlohmann::ordered_json j;
  switch (options_.mode) {
    case CompensationOptions::Mode::kAuto:
      j["mode"] = "auto";
      break;
    case CompensationOptions::Mode::kOff:
      j["mode"] = "off";
      break;
    case CompensationOptions::Mode::kFixed:
      j["mode"] = "fixed";
      j["fixed_ns"] = options_.fixed.count();
      break;
  }
  j["baseline_ns"] = baseline_.count();
  j["overhead_estimate_ns"] = overhead_estimate_;
  j["overhead_samples"] = overhead_.count();
  j["idle_gap_samples"] = idle_samples_;
  j["pauses"] = pauses_;
  // A figure per class where it has one (at least `least`), keyed by the
  // class's bytes.
  auto per_class = [](auto value, int64_t least) {
    nlohmann::ordered_json out = nlohmann::ordered_json::object();
    for (int k = 0; k < kClasses; ++k) {
      const int64_t v = value(k);
      if (v >= least) out[std::to_string(4096ull << k) + "_bytes"] = v;
    }
    return out;
  };
  j["transport_floor_ns"] = per_class([this](int k) { return floor_[k]; }, 1);  // 0: none
  j["round_trip_estimate_ns"] = per_class([this](int k) { return classes_[k].estimate; }, 0);
  j["idle_gap_cap_ns"] = per_class([this](int k) { return classes_[k].idle_cap; }, 0);
  j["deducted_ns"] = HistogramJson(applied_);
  return j;
}

}  // namespace storlab
