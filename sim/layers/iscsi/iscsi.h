// Iscsi: an iSCSI session over TCP on Ethernet, from an initiator (the host
// or hypervisor above) to a target that serves the node's one child as its
// LUN (a zvol, a file, a disk).
//
// What it adds to what the LUN costs:
//   - the wire: payload moves at the Ethernet line rate times the TCP/IP
//     frame efficiency of the MTU (EthernetFrame), one transfer at a time in
//     each direction (full duplex), each PDU with its 48-byte header
//     (IscsiSession); half the round-trip time each way;
//   - the write protocol: data beyond FirstBurstLength waits for the
//     target's R2T, one burst of at most MaxBurstLength per R2T, the next
//     R2T only after the burst before it arrived — an extra round trip per
//     burst (RFC 7143 §4.2.5.1, MaxOutstandingR2T=1); the target executes a
//     write once all its data has arrived (it buffers the data first, as LIO
//     and SCST do);
//   - queueing: at most min(initiator, target) queue depth commands are
//     outstanding (the initiator's per-LUN queue depth; the target's
//     per-session command window, SCST's QueuedCommands); the rest wait in
//     FIFO order on the initiator;
//   - the LUN's write cache as the target reports it (WCE): with the write
//     cache off, the target makes every write write-through (FUA to the
//     LUN) and shows the initiator no volatile cache.
// The small PDUs (R2T, SCSI Response) add their header bytes to the byte
// counts and their one-way latency, but do not occupy the wire (48 bytes
// are 38 ns at 10 Gb/s).
//
// Profile keys: see the factory (sim/profile/factories/iscsi_factory.cc),
// or `storlab stacks types iscsi`. Not thread-safe.
#ifndef STORLAB_SIM_LAYERS_ISCSI_ISCSI_H_
#define STORLAB_SIM_LAYERS_ISCSI_ISCSI_H_

#include <deque>
#include <string>

#include "sim/layers/iscsi/iscsi_session.h"
#include "sim/layers/link/wire_channel.h"
#include "sim/node.h"

namespace storlab {

struct IscsiConfig {
  double line_bytes_per_s = 1.25e9;  // 10GBASE-T: 10 Gb/s (IEEE 802.3an)
  uint32_t mtu = 1500;
  Nanos rtt = Nanos(50'000);  // as the ethernet-10g link preset (assumed)
  uint32_t initiator_queue_depth = 128;
  uint32_t target_queue_depth = 32;
  bool write_cache = true;  // the LUN's WCE bit
  IscsiSession session;
};

class Iscsi : public NodeWrapper {
 public:
  // REQUIRES: line rate > 0, queue depths >= 1, session sizes >= 512.
  Iscsi(Engine& engine, std::string name, Node& child, const IscsiConfig& config);

  static constexpr NodeKind kKind = NodeKind::kIscsi;
  NodeKind kind() const override { return kKind; }
  std::string_view type() const override { return "iscsi"; }
  void AppendStats(StatList& out) const override;
  // An idle session holds nothing a later run depends on.
  bool CanSaveState() const override { return true; }
  Status SaveState(StateWriter&) const override { return Status(); }
  Status RestoreState(StateReader&) override { return Status(); }

  const IscsiConfig& config() const { return c_; }
  double payload_rate() const { return rate_; }
  uint64_t r2ts() const { return r2ts_; }
  uint64_t bytes_down() const { return down_.bytes; }
  uint64_t bytes_up() const { return up_.bytes; }

 protected:
  void DoSubmit(Request req) override;
  void OnPowerCut() override;

 private:
  // Reserves `bytes` on `ch` from `earliest`; returns when the last byte has
  // left (add the one-way latency for its arrival).
  Nanos Reserve(WireChannel& ch, Nanos earliest, uint64_t bytes) {
    return ch.Reserve(earliest, bytes, rate_);
  }

  void Start(Request req);
  void StartWrite(Request req);
  // The target's R2T has reached the initiator: send the next burst.
  void SendBurst(Request req, uint64_t remaining);
  // At the target, all the command's data received: execute it on the LUN.
  void Execute(Request req);
  void Respond(Request parent, Status st);
  void Finish(Request parent, Status st);

  IscsiConfig c_;
  double rate_;     // payload bytes per second, each direction
  Nanos one_way_;   // rtt / 2
  uint32_t depth_;  // min(initiator, target)
  uint32_t active_ = 0;
  std::deque<Request> waiting_;
  WireChannel down_;  // initiator → target
  WireChannel up_;    // target → initiator
  uint64_t queued_ = 0;
  uint64_t r2ts_ = 0;
};

}  // namespace storlab

#endif  // STORLAB_SIM_LAYERS_ISCSI_ISCSI_H_
