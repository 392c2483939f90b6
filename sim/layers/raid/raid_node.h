// RaidNode: the "raid" node type, an md-style software RAID over N members.
//
// Levels 0, 1, 5, 6 and 10 with md's defaults (512 KiB chunk, left-
// symmetric parity, RAID10 near-2). The data plane is real: parity is
// computed from the bytes written (XOR for P, GF(2^8) Reed-Solomon for Q as
// in Linux lib/raid6), so a degraded array returns the right data; runs
// without data skip the arithmetic. Members can fail (FailMember, or an I/O
// error), be replaced and rebuilt in simulated time by background I/O
// throttled like md's resync; "check" and "repair" scrub the array.
//
// What is not modelled: md's superblock and data_offset (members are used
// from offset 0), the write-intent bitmap and the resync after an unclean
// shutdown (so the RAID5/6 write hole stays until a "repair"), the stripe
// cache as a cache (its size bounds RAID5/6 writes and the rebuild window
// in flight: stripe_heads.h), reshape.
//
// The public methods are the control surface (later driven by FUSE/NBD
// control files). Not thread-safe: call them on the engine's thread.
#ifndef STORLAB_SIM_LAYERS_RAID_RAID_NODE_H_
#define STORLAB_SIM_LAYERS_RAID_RAID_NODE_H_

#include <memory>
#include <string>
#include <vector>

#include "sim/layers/raid/raid_array.h"
#include "sim/layers/raid/raid_layout.h"
#include "sim/layers/raid/raid_sync.h"
#include "sim/node.h"

namespace storlab {

class RaidNode : public Node {
 public:
  struct Config {
    RaidLevel level = RaidLevel::kRaid5;
    uint64_t chunk = 512 * 1024;  // mdadm default chunk (mdadm(8) --chunk)
    int copies = 2;               // RAID10 near copies (mdadm default layout n2)
    int rmw_level = 1;            // md sysfs rmw_level default (PARITY_ENABLE_RMW)
    uint32_t stripe_cache_size = StripeHeads::kDefault;  // md sysfs stripe_cache_size
    SyncConfig sync;
  };

  // REQUIRES: the configuration was validated by MakeRaid.
  RaidNode(Engine& engine, const std::string& name, const Config& config,
           const std::vector<Node*>& members, bool keeps_data);
  static constexpr NodeKind kKind = NodeKind::kRaid;
  NodeKind kind() const override { return kKind; }
  std::string_view type() const override { return "raid"; }
  std::vector<Node*> children() const override;
  void AppendStats(StatList& out) const override;
  // --state (raid_state.cc): what md keeps in its superblocks and sysfs
  // while the machine runs — which members failed or are recovering and
  // how far, the last check's mismatch count, rmw_level and
  // stripe_cache_size — and the members' head positions (read balancing).
  // The stripe cache holds nothing once idle. A member swapped for a spare
  // node (ReplaceMember with a spare) is refused: the stack would differ.
  bool CanSaveState() const override { return true; }
  Status SaveState(StateWriter& w) const override;
  Status RestoreState(StateReader& r) override;

  // --- Control ---
  // Marks member i failed (mdadm --fail). Too many failures fail the array.
  Status FailMember(int i);
  // Puts a fresh disk in failed slot i (mdadm --remove, then --add) and
  // starts rebuilding it. `spare` replaces the member node; nullptr reuses
  // the same node, whose old contents are not trusted. `recovery_start`
  // (md's per-device sysfs recovery_start: sectors known to be correct from
  // the start of the device) trusts the new member below it, so recovery
  // begins there; a multiple of the chunk, at most the member size.
  Status ReplaceMember(int i, Node* spare = nullptr, uint64_t recovery_start = 0);
  // Control through a member node (Node::OnChildFailed/OnChildReplaced):
  // fail its slot, or start rebuilding it.
  Status OnChildFailed(Node& child) override;
  Status OnChildReplaced(Node& child) override;
  // Starts md's "check" (count mismatches) or "repair" action.
  Status StartCheck(bool repair) { return sync_.StartCheck(repair); }

  // --- Status ---
  const RaidLayout& layout() const { return array_.layout(); }
  const RaidArray& array() const { return array_; }
  const RaidSync& sync() const { return sync_; }
  bool failed() const { return array_.failed(); }
  bool degraded() const { return array_.degraded(); }
  // Fraction of the running sync action done (1 when idle).
  double sync_progress() const;
  // Recovery frontier of member i in bytes (its size when in sync, 0 when
  // failed).
  uint64_t member_frontier(int i) const;

 protected:
  void DoSubmit(Request req) override;
  void OnPowerCut() override;

 private:
  // Members in `state` now.
  int MembersIn(RaidArray::State state) const;
  void Flush(Request req);
  int MemberIndex(const Node& child) const;  // -1: not a member

  Config config_;
  RaidArray array_;
  RaidSync sync_;
};

}  // namespace storlab

#endif  // STORLAB_SIM_LAYERS_RAID_RAID_NODE_H_
