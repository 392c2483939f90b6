#include "sim/layers/raid/raid_sync.h"

#include <algorithm>

#include "sim/layers/raid/sync_ops.h"

namespace storlab {
namespace {

using namespace time_literals;

constexpr Nanos kMarkStep = 3_s;                            // md.c SYNC_MARK_STEP (3*HZ)
constexpr Nanos kMaxSpeedSleep = 500_ms;                    // md_do_sync: msleep(500)
constexpr Nanos kCheckpointEvery = Nanos(300'000'000'000);  // md.c UPDATE_FREQUENCY (5 min)
constexpr uint64_t kIdleBytes = 64 * 512;                   // is_mddev_idle: 64 sectors
// Steps in flight: RAID5/6 sync goes through the stripe cache (256 pages of
// 4 KiB per member, md's default stripe_cache_size); RAID1/10 resync keeps
// RESYNC_DEPTH 32 buffers of RESYNC_BLOCK_SIZE 64 KiB (raid1.c, raid10.c).
constexpr uint64_t kStripeCacheBytes = 256 * 4096;
constexpr uint64_t kResyncWindow = 32 * 65536;
constexpr uint64_t kRaid1Step = 65536;

}  // namespace

const char* RaidSync::ActionName(Action a) {
  switch (a) {
    case Action::kIdle:
      return "idle";
    case Action::kRecover:
      return "recover";
    case Action::kCheck:
      return "check";
    case Action::kRepair:
      return "repair";
  }
  return "?";
}

RaidSync::RaidSync(RaidArray& array, const SyncConfig& config) : a_(array), config_(config) {
  const RaidLayout& l = a_.layout();
  step_ = config.step;
  if (step_ == 0) step_ = l.level() == RaidLevel::kRaid1 ? kRaid1Step : l.chunk();
  step_ = std::min(step_, l.member_size());
  depth_ = config.depth;
  if (depth_ == 0) {
    const uint64_t window = l.striped() ? kStripeCacheBytes : kResyncWindow;
    depth_ = static_cast<uint32_t>(std::max<uint64_t>(1, window / step_));
  }
}

void RaidSync::Kick() {
  if (kick_pending_) return;
  kick_pending_ = true;
  a_.engine().After(Nanos(0), [this, epoch = a_.epoch()] {
    if (epoch != a_.epoch()) return;
    kick_pending_ = false;
    if (action_ == Action::kIdle) {
      if (a_.recovering_mask() != 0 && !a_.failed()) StartPass(Action::kRecover);
    } else {
      Pump();
    }
  });
}

Status RaidSync::StartCheck(bool repair) {
  if (a_.layout().level() == RaidLevel::kRaid0) {
    return Status::NotSupported(a_.name() + ": raid0 has nothing to check");
  }
  if (action_ != Action::kIdle) {
    return Status::InvalidArgument(a_.name() + ": busy (" + ActionName(action_) + ")");
  }
  if (a_.degraded()) return Status::InvalidArgument(a_.name() + ": cannot check a degraded array");
  mismatch_sectors_ = 0;
  StartPass(repair ? Action::kRepair : Action::kCheck);
  return Status();
}

void RaidSync::StartPass(Action a) {
  action_ = a;
  aborted_ = false;
  steps_.clear();
  targets_ = 0;
  uint64_t lo = 0;
  if (a == Action::kRecover) {
    lo = a_.layout().member_size();
    for (int m = 0; m < a_.size(); ++m)
      if (a_.member(m).state == RaidArray::State::kRecovering)
        lo = std::min(lo, a_.member(m).frontier);
    for (int m = 0; m < a_.size(); ++m) {
      const auto& mb = a_.member(m);
      if (mb.state == RaidArray::State::kRecovering && mb.frontier == lo)
        targets_ |= uint64_t{1} << m;
    }
  }
  cursor_ = done_upto_ = checkpoint_at_ = lo;
  end_ = a_.layout().member_size();
  checkpoint_time_ = a_.engine().now();
  pass_bytes_ = 0;
  pass_mismatched_pages_ = 0;
  last_foreground_ = a_.foreground_bytes();
  ResetMarks();
  Pump();
}

uint64_t RaidSync::LiveTargets() const {
  uint64_t live = 0;
  for (int m = 0; m < a_.size(); ++m)
    if (((targets_ >> m) & 1) && a_.member(m).state == RaidArray::State::kRecovering) {
      live |= uint64_t{1} << m;
    }
  return live;
}

void RaidSync::Pump() {
  if (pumping_) return;  // steps that complete at once are picked up by the loop
  pumping_ = true;
  while (action_ != Action::kIdle && !sleeping_ && !checkpointing_) {
    if (!aborted_ && (a_.failed() || (action_ == Action::kRecover && LiveTargets() == 0) ||
                      (action_ != Action::kRecover && a_.degraded()))) {
      aborted_ = true;
    }
    if (aborted_ || cursor_ >= end_) {
      if (steps_.empty()) FinishPass();
      break;
    }
    UpdateMarks();
    if (action_ == Action::kRecover && cursor_ > checkpoint_at_ &&
        (cursor_ - checkpoint_at_ >= end_ / 16 ||
         a_.engine().now() - checkpoint_time_ >= kCheckpointEvery)) {
      if (steps_.empty()) Checkpoint();  // else: let the steps drain first
      break;
    }
    const double speed = Speed();
    if (speed > config_.speed_min_bytes_per_s) {
      if (speed > config_.speed_max_bytes_per_s) {
        sleeping_ = true;
        a_.engine().After(kMaxSpeedSleep, [this, epoch = a_.epoch()] {
          if (epoch != a_.epoch()) return;
          sleeping_ = false;
          Pump();
        });
        break;
      }
      if (!steps_.empty() && !Idle()) break;  // give foreground I/O a chance
    }
    if (steps_.size() >= depth_) break;
    IssueStep();
  }
  pumping_ = false;
}

void RaidSync::IssueStep() {
  const uint64_t s = cursor_, e = std::min(end_, cursor_ + step_);
  cursor_ = e;
  Step& st = steps_[s];
  st.end = e;
  st.targets = LiveTargets();
  if (action_ == Action::kRecover) {
    Regenerate(a_, st.targets, s, e, [this, s](Status status, uint64_t ticket) {
      OnStepDone(s, std::move(status), ticket, 0);
    });
  } else {
    Verify(a_, s, e, action_ == Action::kRepair,
           [this, s](Status status, uint64_t ticket, uint64_t mismatched) {
             OnStepDone(s, std::move(status), ticket, mismatched);
           });
  }
}

void RaidSync::OnStepDone(uint64_t start, Status st, uint64_t ticket, uint64_t mismatched) {
  auto it = steps_.find(start);
  if (it == steps_.end()) {
    a_.lock().Release(ticket);
    return;
  }
  it->second.done = true;
  it->second.ok = st.ok();
  it->second.ticket = ticket;
  if (!st.ok()) ++errors_;
  pass_mismatched_pages_ += mismatched;
  Commit();
  Pump();
}

void RaidSync::Commit() {
  while (!steps_.empty() && steps_.begin()->second.done) {
    const uint64_t s = steps_.begin()->first;
    const Step st = steps_.begin()->second;
    steps_.erase(steps_.begin());
    if (!st.ok) aborted_ = true;
    if (!aborted_) {
      for (int m = 0; m < a_.size(); ++m) {
        auto& mb = a_.member(m);
        if (((st.targets >> m) & 1) && mb.state == RaidArray::State::kRecovering &&
            mb.frontier == s) {
          mb.frontier = st.end;
        }
      }
      done_upto_ = st.end;
      pass_bytes_ += st.end - s;
      synced_bytes_ += st.end - s;
    }
    // Writers waiting on these rows now see the new frontier.
    a_.lock().Release(st.ticket);
  }
}

void RaidSync::Checkpoint() {
  // md records recovery_offset in the superblock, written with a preflush:
  // the rebuilt rows are durable on the new members from here on.
  checkpointing_ = true;
  const uint64_t targets = LiveTargets();
  a_.IssueEach(targets, Op::kFlush, 0, 0, kBackground, [this, targets](uint64_t failed) {
    for (int m = 0; m < a_.size(); ++m) {
      if ((failed >> m) & 1) {
        a_.MarkFailed(m);
      } else if ((targets >> m) & 1) {
        auto& mb = a_.member(m);
        if (mb.state == RaidArray::State::kRecovering) mb.durable_frontier = mb.frontier;
      }
    }
    checkpoint_at_ = done_upto_;
    checkpoint_time_ = a_.engine().now();
    checkpointing_ = false;
    Pump();
  });
}

void RaidSync::FinishPass() {
  if (action_ == Action::kRecover && !aborted_) {
    bool unflushed = false;
    for (int m = 0; m < a_.size(); ++m) {
      const auto& mb = a_.member(m);
      unflushed |= ((LiveTargets() >> m) & 1) && mb.durable_frontier < mb.frontier;
    }
    if (unflushed) return Checkpoint();
    for (int m = 0; m < a_.size(); ++m) {
      auto& mb = a_.member(m);
      if (((LiveTargets() >> m) & 1) && mb.frontier >= end_) {
        mb.state = RaidArray::State::kInSync;
        mb.frontier = mb.durable_frontier = 0;
        ++recoveries_;
      }
    }
  }
  if (action_ == Action::kCheck || action_ == Action::kRepair) {
    mismatch_sectors_ = pass_mismatched_pages_ * (a_.page() / 512);
  }
  const bool recover = action_ == Action::kRecover && !aborted_;
  action_ = Action::kIdle;
  if (recover) Kick();  // members that joined during the pass
}

void RaidSync::RewriteRange(int m, uint64_t off, uint64_t len) {
  Regenerate(a_, uint64_t{1} << m, off, off + len, [this](Status st, uint64_t ticket) {
    if (!st.ok()) ++errors_;
    a_.lock().Release(ticket);
  });
}

void RaidSync::PowerCut() {
  steps_.clear();
  sleeping_ = checkpointing_ = pumping_ = kick_pending_ = false;
  action_ = Action::kIdle;
  // md resumes an interrupted recovery from recovery_offset on assembly.
  if (a_.recovering_mask() != 0) Kick();
}

void RaidSync::ResetMarks() {
  const Nanos now = a_.engine().now();
  mark_time_.fill(now);
  mark_bytes_.fill(0);
  last_mark_ = 0;
  speed_mark_time_ = now;
  speed_mark_bytes_ = 0;
}

void RaidSync::UpdateMarks() {
  const Nanos now = a_.engine().now();
  if (now < mark_time_[static_cast<size_t>(last_mark_)] + kMarkStep) return;
  const int next = (last_mark_ + 1) % kMarks;
  speed_mark_time_ = mark_time_[static_cast<size_t>(next)];
  speed_mark_bytes_ = mark_bytes_[static_cast<size_t>(next)];
  mark_time_[static_cast<size_t>(next)] = now;
  mark_bytes_[static_cast<size_t>(next)] = pass_bytes_;
  last_mark_ = next;
}

double RaidSync::Speed() const {
  // md: currspeed = done since the mark / (whole seconds since it + 1).
  const int64_t secs = (a_.engine().now() - speed_mark_time_).count() / 1'000'000'000;
  return static_cast<double>(pass_bytes_ - speed_mark_bytes_) / static_cast<double>(secs + 1) +
         1024.0;
}

bool RaidSync::Idle() {
  const uint64_t fg = a_.foreground_bytes();
  const bool idle = fg - last_foreground_ <= kIdleBytes;
  last_foreground_ = fg;
  return idle;
}

}  // namespace storlab
