// RaidSync: the array's background sync thread, as md_do_sync() runs it.
//
// One action at a time: "recover" (rebuild replaced members from the
// others, row by row from their frontier), "check" (compare parity or
// copies, count mismatches) or "repair" (check and rewrite what differs).
// It works in simulated time with background requests that compete with
// foreground I/O at the members, throttled like md:
//   - speed is measured over a sliding window of marks (md: 10 marks, one
//     every 3 s) as bytes / (whole seconds since the oldest mark + 1);
//   - above speed_limit_max it sleeps 500 ms (md_do_sync: msleep(500));
//   - above speed_limit_min, if foreground I/O reached the members since the
//     last look (md's is_mddev_idle: more than 64 sectors), it lets its
//     in-flight steps drain before issuing another;
//   - otherwise it keeps up to `depth` steps in flight.
// Recovery progress is checkpointed (members flushed, md's superblock
// update) every 1/16 of the member or 5 minutes; a power cut rolls the
// frontier back to the last checkpoint and recovery resumes from there.
// Not thread-safe; owned by a RaidNode.
#ifndef STORLAB_SIM_LAYERS_RAID_RAID_SYNC_H_
#define STORLAB_SIM_LAYERS_RAID_RAID_SYNC_H_

#include <array>
#include <cstdint>
#include <map>
#include <string>

#include "sim/layers/raid/raid_array.h"
#include "sim/status.h"
#include "sim/time.h"

namespace storlab {

class StateReader;
class StateWriter;

struct SyncConfig {
  // md's /proc/sys/dev/raid/speed_limit_min and _max: 1000 and 200000 KiB/s
  // (Linux drivers/md/md.c sysctl_speed_limit_min/max; md(4)).
  double speed_min_bytes_per_s = 1000.0 * 1024;
  double speed_max_bytes_per_s = 200000.0 * 1024;
  uint64_t step = 0;   // member bytes per step (0: chosen by the level)
  uint32_t depth = 0;  // steps in flight when idle (0: chosen by the level)
};

class RaidSync {
 public:
  enum class Action { kIdle, kRecover, kCheck, kRepair };
  static const char* ActionName(Action a);

  RaidSync(RaidArray& array, const SyncConfig& config);
  RaidSync(const RaidSync&) = delete;
  RaidSync& operator=(const RaidSync&) = delete;

  // Starts recovery if a member is recovering and nothing else runs.
  void Kick();
  // Starts "check" (repair = false) or "repair". Fails if the array is
  // degraded or another action runs.
  Status StartCheck(bool repair);
  // Rewrites member m's rows [off, off+len) from the others (after a read
  // error), at once and unthrottled.
  void RewriteRange(int m, uint64_t off, uint64_t len);
  // Power cut: steps in flight are forgotten; recovery restarts from the
  // checkpointed frontier.
  void PowerCut();
  // storlab sim --state (raid_state.cc): the last check's mismatch count
  // and the throttle's foreground mark. REQUIRES: no action running (an
  // idle stack has finished its resync, or the array has failed).
  Status SaveState(StateWriter& w) const;
  Status RestoreState(StateReader& r);

  Action action() const { return action_; }
  // Position of the running action in member bytes, and its end.
  uint64_t position() const { return done_upto_; }
  uint64_t end() const { return end_; }
  // Bytes of member rows the sync has processed (all actions, since start).
  uint64_t synced_bytes() const { return synced_bytes_; }
  // md's mismatch_cnt: 512-byte sectors found different by the last check.
  uint64_t mismatch_sectors() const { return mismatch_sectors_; }
  uint64_t errors() const { return errors_; }
  uint64_t completed_recoveries() const { return recoveries_; }
  uint64_t step() const { return step_; }
  uint32_t depth() const { return depth_; }

 private:
  struct Step {
    uint64_t end;
    uint64_t targets;
    bool done = false;
    bool ok = true;
    uint64_t ticket = 0;
  };
  void StartPass(Action a);
  void Pump();
  void IssueStep();
  void OnStepDone(uint64_t start, Status st, uint64_t ticket, uint64_t mismatched);
  void Commit();
  void Checkpoint();
  void FinishPass();
  void ResetMarks();
  void UpdateMarks();
  double Speed() const;
  bool Idle();
  uint64_t LiveTargets() const;

  RaidArray& a_;
  SyncConfig config_;
  uint64_t step_;
  uint32_t depth_;
  Action action_ = Action::kIdle;
  bool aborted_ = false;
  bool sleeping_ = false;
  bool checkpointing_ = false;
  bool pumping_ = false;
  bool kick_pending_ = false;
  uint64_t targets_ = 0;    // members recovered by this pass
  uint64_t cursor_ = 0;     // next step start
  uint64_t done_upto_ = 0;  // committed
  uint64_t end_ = 0;
  std::map<uint64_t, Step> steps_;  // in flight or done but not committed
  // md's sync marks.
  static constexpr int kMarks = 10;
  std::array<Nanos, kMarks> mark_time_{};
  std::array<uint64_t, kMarks> mark_bytes_{};
  int last_mark_ = 0;
  Nanos speed_mark_time_;
  uint64_t speed_mark_bytes_ = 0;
  uint64_t pass_bytes_ = 0;  // committed this pass
  uint64_t last_foreground_ = 0;
  uint64_t checkpoint_at_ = 0;
  Nanos checkpoint_time_;
  uint64_t pass_mismatched_pages_ = 0;
  // Totals.
  uint64_t synced_bytes_ = 0;
  uint64_t mismatch_sectors_ = 0;
  uint64_t errors_ = 0;
  uint64_t recoveries_ = 0;
};

}  // namespace storlab

#endif  // STORLAB_SIM_LAYERS_RAID_RAID_SYNC_H_
