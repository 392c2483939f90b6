// RaidArray: the members of an md-style array and what the array knows
// about them, shared by the I/O paths and the rebuild engine.
//
// Each member is in sync, failed, or recovering up to a frontier (md's
// recovery_offset): below it the member holds current data, above it the
// data must come from the others. The array has failed when more members
// are out of sync than its level survives (md's has_failed() / enough());
// then every request fails. Issue() sends the extents of one phase to the
// members and reports back once all have completed, with the failed ones
// marked; it also keeps the per-member head position and queue count that
// mirror read balancing uses, and the foreground traffic the rebuild
// throttle watches. Not thread-safe; owned by a RaidNode.
#ifndef STORLAB_SIM_LAYERS_RAID_RAID_ARRAY_H_
#define STORLAB_SIM_LAYERS_RAID_RAID_ARRAY_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "sim/engine.h"
#include "sim/layers/raid/extent_set.h"
#include "sim/layers/raid/preread_gate.h"
#include "sim/layers/raid/raid_layout.h"
#include "sim/layers/raid/stripe_heads.h"
#include "sim/layers/range_lock.h"
#include "sim/node.h"

namespace storlab {

class StateReader;
class StateWriter;

// What the array's operations count (AppendStats reports them).
struct RaidCounters {
  uint64_t full_stripe_writes = 0;  // stripe rows written without reads
  uint64_t rmw_writes = 0;          // rows by read-modify-write
  uint64_t rcw_writes = 0;          // rows by reconstruct-write
  uint64_t degraded_writes = 0;     // rows that had to rebuild lost data first
  uint64_t degraded_reads = 0;      // rows read by reconstruction
  uint64_t member_errors = 0;       // member requests that failed
  uint64_t read_errors_corrected = 0;
  uint64_t members_failed = 0;  // members marked failed (md_error)
};

class RaidArray {
 public:
  enum class State { kInSync, kFailed, kRecovering };
  struct Member {
    Node* node = nullptr;
    State state = State::kInSync;
    uint64_t frontier = 0;          // kRecovering: bytes recovered
    uint64_t durable_frontier = 0;  // checkpointed (survives a power cut)
    uint64_t head = 0;              // where the last request ended
    uint32_t in_flight = 0;
  };
  using PhaseDone = Callback<void(uint64_t failed_mask)>;

  static constexpr int kMaxMembers = 64;  // failed sets are 64-bit masks

  RaidArray(Engine& engine, std::string name, const RaidLayout& layout,
            const std::vector<Node*>& members, bool keeps_data, uint64_t page);
  RaidArray(const RaidArray&) = delete;
  RaidArray& operator=(const RaidArray&) = delete;

  Engine& engine() const { return engine_; }
  const std::string& name() const { return name_; }
  const RaidLayout& layout() const { return layout_; }
  bool keeps_data() const { return keeps_data_; }
  // The unit of parity work and of member I/O alignment (md's STRIPE_SIZE).
  uint64_t page() const { return page_; }
  int size() const { return static_cast<int>(members_.size()); }
  Member& member(int i) { return members_[static_cast<size_t>(i)]; }
  const Member& member(int i) const { return members_[static_cast<size_t>(i)]; }

  // Whether member m holds current data for [off, off+len) of its space.
  bool Usable(int m, uint64_t off, uint64_t len) const;
  // How many bytes from `off` (at most len) member m holds current data
  // for: all when in sync, up to the frontier when recovering.
  uint64_t UsablePrefix(int m, uint64_t off, uint64_t len) const;
  bool InSync(int m) const { return member(m).state == State::kInSync; }
  // More members out of sync than the level survives.
  bool failed() const;
  // Some member is not in sync.
  bool degraded() const;
  uint64_t recovering_mask() const;

  // md_error(): member m stops being used. Returns false if it was already
  // failed.
  bool MarkFailed(int m);
  // Called after a member changes state (the rebuild engine listens).
  std::function<void()> on_member_change;
  // Called when a read error on member m at [off, off+len) was served from
  // the other members: md rewrites the range there (fix_read_error).
  std::function<void(int m, uint64_t off, uint64_t len)> on_read_error;

  // md's rmw_level: 0 never read-modify-write, 1 choose the cheaper (ties
  // go to reconstruct-write), 2 prefer read-modify-write on ties.
  int rmw_level() const { return rmw_level_; }
  void set_rmw_level(int v) { rmw_level_ = v; }

  // Sends one request per extent of `set` (finalized) and runs `done` once
  // all have completed, from an engine event, with the failed members'
  // bits set. An empty set completes at the current time.
  void Issue(ExtentSet& set, Op op, uint32_t flags, PhaseDone done);
  // One request (FLUSH, TRIM, WRITE ZEROES...) per member in `mask`.
  void IssueEach(uint64_t mask, Op op, uint64_t off, uint64_t len, uint32_t flags, PhaseDone done);

  RangeLock& lock() { return lock_; }
  // RAID5/6 writes hold stripe_heads from here (md's stripe cache).
  StripeHeads& stripe_heads() { return stripe_heads_; }
  const StripeHeads& stripe_heads() const { return stripe_heads_; }
  void set_stripe_cache_size(uint32_t n) { stripe_heads_ = StripeHeads(n); }
  // RAID5/6 pre-reads go in generations from here (md's delayed stripes).
  PrereadGate& preread_gate() { return preread_gate_; }
  const PrereadGate& preread_gate() const { return preread_gate_; }
  RaidCounters& counters() { return counters_; }
  const RaidCounters& counters() const { return counters_; }

  // Bytes of foreground (non-background) member I/O so far, for the rebuild
  // throttle's idle test (md's is_mddev_idle).
  uint64_t foreground_bytes() const { return foreground_bytes_; }

  // storlab sim --state (raid_state.cc): each member's state, recovery
  // frontiers and head, rmw_level, the stripe cache's size and the
  // foreground byte count the resync throttle compares against.
  // REQUIRES: nothing in flight, no stripe_head held or waited for.
  Status SaveState(StateWriter& w) const;
  Status RestoreState(StateReader& r);

  // A power cut: in-flight work is forgotten, locks dropped, recovery
  // rolls back to its last checkpoint.
  void PowerCut();
  // Incremented by PowerCut(); operations started before a cut ignore late
  // callbacks.
  uint64_t epoch() const { return epoch_; }

 private:
  struct Fanin;
  void Submit(int m, Op op, uint64_t off, uint64_t len, uint8_t* data, uint32_t flags,
              std::shared_ptr<Fanin> fanin, bool* failed_flag);

  Engine& engine_;
  std::string name_;
  RaidLayout layout_;
  std::vector<Member> members_;
  bool keeps_data_;
  uint64_t page_;
  RangeLock lock_;
  StripeHeads stripe_heads_;
  PrereadGate preread_gate_{engine_};
  RaidCounters counters_;
  uint64_t foreground_bytes_ = 0;
  uint64_t epoch_ = 0;
  int rmw_level_ = 1;
};

}  // namespace storlab

#endif  // STORLAB_SIM_LAYERS_RAID_RAID_ARRAY_H_
