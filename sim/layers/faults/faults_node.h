// FaultsNode: the "faults" node type, a layer that makes its child fail the
// way real devices fail, reproducibly (Random(seed, node name)).
//
//   - media errors on given ranges: reads that touch one fail with EIO
//     (after `media_error_latency`, a drive's error recovery time); writes
//     over one remap the sectors and heal them (a drive reallocating a
//     pending sector) or fail too;
//   - latency spikes: with probability p a request stalls `spike_latency`
//     before the device acts on it;
//   - a device that disappears (a pulled cable, a dead bridge) at a given
//     simulated time or after N requests: every later request fails;
//   - torn writes at a power cut: a write in flight at the cut lands in
//     part, a seeded prefix of its sectors (none to all), written to the
//     child when power returns, before any other request.
// Everything can also be injected at run time through the public methods
// (control files). Not thread-safe: call on the engine's thread.
#ifndef STORLAB_SIM_LAYERS_FAULTS_FAULTS_NODE_H_
#define STORLAB_SIM_LAYERS_FAULTS_FAULTS_NODE_H_

#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sim/layers/faults/range_set.h"
#include "sim/node.h"
#include "sim/random.h"

namespace storlab {

class FaultsNode : public NodeWrapper {
 public:
  enum class BadWrites { kRemap, kFail };
  struct Config {
    std::vector<std::pair<uint64_t, uint64_t>> media_errors;  // offset, length
    BadWrites bad_writes = BadWrites::kRemap;
    Nanos media_error_latency;
    double spike_probability = 0;
    Nanos spike_latency;
    std::optional<Nanos> disappear_at;
    uint64_t disappear_after_ios = 0;  // 0: never
    bool torn_writes = false;
  };

  FaultsNode(Engine& engine, const std::string& name, Node& child, const Config& config,
             uint64_t seed);
  static constexpr NodeKind kKind = NodeKind::kFaults;
  NodeKind kind() const override { return kKind; }
  std::string_view type() const override { return "faults"; }
  void AppendStats(StatList& out) const override;
  // --state (faults_state.cc): the generator, the media errors as they are
  // now (healed by remapping writes, or added at run time), whether the
  // device has disappeared, the request count towards disappear_after_ios,
  // and the run-time settings (bad writes, spikes, torn writes). A torn
  // write in flight exists only across a power cut, never once idle.
  bool CanSaveState() const override { return true; }
  Status SaveState(StateWriter& w) const override;
  Status RestoreState(StateReader& r) override;

  // --- Run-time injection ---
  void AddMediaError(uint64_t off, uint64_t len) { bad_.Add(off, len); }
  void HealMediaErrors(uint64_t off, uint64_t len) { bad_.Remove(off, len); }
  void ClearMediaErrors() { bad_.Clear(); }
  void SetBadWrites(BadWrites b) { config_.bad_writes = b; }
  void SetLatencySpikes(double probability, Nanos latency);
  // The device vanishes now / comes back (re-plugged).
  void Disappear() { disappeared_ = true; }
  void Reappear();
  void SetTornWrites(bool on) { config_.torn_writes = on; }

  bool disappeared() const { return disappeared_; }
  const RangeSet& media_errors() const { return bad_; }
  const Config& config() const { return config_; }

 protected:
  void DoSubmit(Request req) override;
  void OnPowerCut() override;

 private:
  struct InFlightWrite {
    uint64_t offset, length;
    std::vector<uint8_t> data;  // a copy: the submitter's buffer may be gone after a cut
  };
  struct Replay {
    uint64_t offset, length;
    std::vector<uint8_t> data;
  };
  void Handle(Request req);
  void Forward(Request req);
  void Fail(Request req, Nanos delay, const std::string& what);
  void StartReplay(const std::shared_ptr<std::vector<Replay>>& replays);

  Config config_;
  Random rng_;
  RangeSet bad_;
  bool disappeared_ = false;
  uint64_t epoch_ = 0;
  uint64_t ios_ = 0;
  uint64_t next_write_ = 0;
  std::map<uint64_t, InFlightWrite> in_flight_writes_;  // by submission order
  size_t replaying_ = 0;
  std::deque<Request> held_;  // arrived while a torn write was being replayed
  // Counters.
  uint64_t media_errors_returned_ = 0;
  uint64_t remapped_writes_ = 0;
  uint64_t spikes_ = 0;
  uint64_t lost_device_errors_ = 0;
  uint64_t torn_writes_ = 0;
  uint64_t torn_bytes_landed_ = 0;
};

}  // namespace storlab

#endif  // STORLAB_SIM_LAYERS_FAULTS_FAULTS_NODE_H_
