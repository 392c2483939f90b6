// The faults layer's saved state (storlab sim --state, docs/state.md): its
// generator (where the next spike or torn prefix falls), the media errors
// as they stand (a remapping write heals them; run-time injection adds
// some), the disappeared device, the request count towards
// disappear_after_ios, and what run-time control changed (bad writes,
// spikes, torn writes). Saved once idle: no write in flight, no torn write
// being replayed, nothing held. Counters are per run.
#include "sim/layers/faults/faults_node.h"
#include "sim/state_coding.h"

namespace storlab {

Status FaultsNode::SaveState(StateWriter& w) const {
  if (!in_flight_writes_.empty() || replaying_ || !held_.empty()) {
    return Status::Internal("faults layer not idle");
  }
  w.Words(rng_.state());
  w.U64(bad_.ranges().size());
  for (const auto& [start, end] : bad_.ranges()) {
    w.U64(start);
    w.U64(end - start);
  }
  w.Bool(disappeared_);
  w.U64(ios_);
  w.U64(next_write_);
  w.Bool(config_.bad_writes == BadWrites::kFail);
  w.Double(config_.spike_probability);
  w.Time(config_.spike_latency);
  w.Bool(config_.torn_writes);
  return Status();
}

Status FaultsNode::RestoreState(StateReader& r) {
  const Random::State rng = r.Words();
  bad_.Clear();
  const uint64_t n = r.Count(2);
  uint64_t at = 0;
  for (uint64_t i = 0; i < n && r.ok(); ++i) {
    const uint64_t start = r.U64(), len = r.U64();
    if (r.ok() && (start < at || len == 0 || start + len < start))
      r.Fail("a bad media error range");
    if (!r.ok()) break;
    bad_.Add(start, len);
    at = start + len;
  }
  disappeared_ = r.Bool();
  ios_ = r.U64();
  next_write_ = r.U64();
  config_.bad_writes = r.Bool() ? BadWrites::kFail : BadWrites::kRemap;
  const double p = r.Double();
  if (r.ok() && !(p >= 0 && p <= 1)) r.Fail("a spike probability outside [0, 1]");
  config_.spike_probability = p;
  config_.spike_latency = r.Time();
  config_.torn_writes = r.Bool();
  RETURN_IF_ERROR(r.status());
  rng_.set_state(rng);
  return Status();
}

}  // namespace storlab
