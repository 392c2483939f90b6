// Link: a host link or bridge between a host and its one child device — USB 3
// with BOT or UAS, SATA, PCIe, Ethernet.
//
// It adds what the wire costs and passes the data through unchanged (it is
// not a cache):
//   - a per-command latency before the child sees a command (command block,
//     bridge firmware) and after it completes (status);
//   - a bandwidth cap: payload bytes move at line rate × line coding ×
//     protocol efficiency, one transfer at a time per direction (full duplex)
//     or on one shared channel (half duplex). Transfers are cut-through: a
//     write's data streams to the child as it arrives and a read's data
//     streams back while the child produces it, so a slow child behind a fast
//     link costs the child's time, and a fast child behind a slow link costs
//     the wire's;
//   - a queue-depth limit: at most `queue_depth` commands are outstanding at
//     the child (1 = USB Bulk-Only Transport), the rest wait in FIFO order;
//   - bridge quirks: a dropped FUA bit (caps().honors_fua = false; the write
//     reaches the child as a plain write) and no TRIM pass-through
//     (caps().trim = false).
//
// Profile keys (type = "link", exactly one child): `kind` names a preset
// (see link_presets.h: usb3-gen1-bot, usb3-gen1-uas, usb3-gen2-uas, sata3,
// pcie3-x4, pcie4-x4, ethernet-1g, ...), and any of line_rate, lanes,
// encoding, efficiency, bandwidth (the payload rate, overriding the four
// before), duplex ("full"/"half"), command_latency, status_latency,
// queue_depth, broken_fua, trim_passthrough overrides it.
//
// Not thread-safe: runs on its engine's thread.
#ifndef STORLAB_SIM_LAYERS_LINK_LINK_H_
#define STORLAB_SIM_LAYERS_LINK_LINK_H_

#include <deque>
#include <memory>
#include <string>

#include "sim/layers/link/link_presets.h"
#include "sim/layers/link/wire_channel.h"
#include "sim/node.h"

namespace storlab {

class Link : public NodeWrapper {
 public:
  // REQUIRES: config.payload_rate() > 0, config.queue_depth >= 1.
  Link(Engine& engine, std::string name, Node& child, const LinkConfig& config);

  static constexpr NodeKind kKind = NodeKind::kLink;
  NodeKind kind() const override { return kKind; }
  std::string_view type() const override { return "link"; }
  void AppendStats(StatList& out) const override;
  // An idle link holds nothing a later run depends on (its channels' busy
  // times are in the past; a restored run's clock starts again at zero).
  bool CanSaveState() const override { return true; }
  Status SaveState(StateWriter&) const override { return Status(); }
  Status RestoreState(StateReader&) override { return Status(); }
  const LinkConfig& config() const { return c_; }
  double payload_rate() const { return rate_; }
  // Payload that crossed host → device, and the time that direction was busy.
  uint64_t bytes_down() const { return down_.bytes; }
  Nanos busy_down() const { return down_.busy_total; }

 protected:
  void DoSubmit(Request req) override;
  void OnPowerCut() override;

 private:
  WireChannel& down() { return down_; }
  WireChannel& up() { return c_.full_duplex ? up_ : down_; }
  // Reserves `bytes` on `ch` starting no earlier than `earliest`; returns the end.
  Nanos Reserve(WireChannel& ch, Nanos earliest, uint64_t bytes) {
    return ch.Reserve(earliest, bytes, rate_);
  }

  void Start(Request req);
  void SubmitToChild(Request parent, Nanos data_done);
  void OnChildDone(Request parent, Nanos child_start, Nanos data_done, Status st);
  void Finish(Request parent, Status st);

  LinkConfig c_;
  double rate_;  // payload bytes per second, each direction
  uint32_t active_ = 0;
  std::deque<Request> waiting_;
  WireChannel down_;     // host → device (write data)
  WireChannel up_;       // device → host (read data); unused when half duplex
  uint64_t queued_ = 0;  // commands that waited for a queue slot
  uint64_t fua_dropped_ = 0;
};

}  // namespace storlab

#endif  // STORLAB_SIM_LAYERS_LINK_LINK_H_
