// ThinNode's metadata commits, the out-of-space policy, the control
// methods and stats.
#include <algorithm>
#include <string>

#include "sim/layers/thin/thin_node.h"
#include "sim/stat_table.h"

namespace storlab {

void ThinNode::Changed() {
  // dm-thin commits at least every COMMIT_PERIOD while there are changes.
  if (config_.commit_period <= Nanos(0) || commit_timer_) return;
  commit_timer_ = true;
  engine_.After(config_.commit_period, [this, epoch = epoch_] {
    if (epoch != epoch_) return;
    commit_timer_ = false;
    if (md_.dirty()) RequestCommit(nullptr);
  });
}

void ThinNode::RequestCommit(Callback<void(Status)> done) {
  // A commit already running may have taken its snapshot before the
  // caller's changes: wait for the next one.
  if (done) commit_waiters_.push_back(std::move(done));
  if (!committing_) StartCommit();
}

void ThinNode::StartCommit() {
  committing_ = true;
  const size_t mark = md_.BeginCommit();
  auto waiters = std::make_shared<std::vector<Callback<void(Status)>>>(std::move(commit_waiters_));
  commit_waiters_.clear();
  // The data the new mappings point to must be durable before they are
  // (dm-thin flushes the data device before committing, Linux >= 5.2).
  auto committed = [this, epoch = epoch_, mark, waiters](Status st) {
    if (epoch != epoch_) return;
    committing_ = false;
    if (st.ok()) {
      md_.EndCommit(mark);
      ++commits_;
    }
    for (auto& w : *waiters) w(st);  // may ask for (and start) the next commit
    if (!committing_ && !commit_waiters_.empty()) {
      StartCommit();
    } else if (md_.dirty()) {
      Changed();
    }
    SpaceFreed();  // discarded chunks are free once committed
  };
  child_.Submit(Request{.op = Op::kFlush, .done = std::move(committed)});
}

Status ThinNode::SpaceError() const {
  const std::string what = name() + ": thin pool is out of data space";
  return config_.enospc ? Status::NoSpace(what) : Status::IoError(what);
}

void ThinNode::NoSpace(const std::shared_ptr<Io>& io) {
  if (!config_.queue_if_no_space || no_space_failed_) {
    ++no_space_errors_;
    // Possibly still inside Submit(): complete from an event.
    engine_.After(Nanos(0), [this, io] {
      if (io->epoch == epoch_) Complete(io, SpaceError());
    });
    return;
  }
  no_space_queue_.push_back(io);
  if (no_space_timer_ || config_.no_space_timeout <= Nanos(0)) return;
  no_space_timer_ = true;
  no_space_event_ = engine_.After(config_.no_space_timeout, [this, epoch = epoch_] {
    if (epoch != epoch_) return;
    // dm-thin: the pool stops queueing and fails what waits, and what comes.
    no_space_timer_ = false;
    no_space_failed_ = true;
    auto queued = std::move(no_space_queue_);
    no_space_queue_.clear();
    for (auto& io : queued) {
      ++no_space_errors_;
      Complete(io, SpaceError());
    }
  });
}

void ThinNode::SpaceFreed() {
  if (md_.free_chunks() == 0) return;
  // (A pool that timed out keeps failing at once when it fills again: dm-thin
  // keeps error_if_no_space set until the table is reloaded, by an lvextend.)
  if (no_space_timer_) {
    engine_.Cancel(no_space_event_);
    no_space_timer_ = false;
  }
  auto queued = std::move(no_space_queue_);
  no_space_queue_.clear();
  for (auto& io : queued) Write(io);  // in arrival order; may queue again
}

void ThinNode::SetOtherVolumesUsage(uint64_t bytes) {
  md_.set_others((bytes + config_.chunk - 1) / config_.chunk);
  SpaceFreed();
}

Status ThinNode::ExtendPool(uint64_t bytes) {
  const uint64_t chunks = bytes / config_.chunk;
  if (chunks < md_.pool_chunks()) {
    return Status::InvalidArgument(name() + ": a thin pool cannot shrink");
  }
  if (bytes > child_.geometry().capacity) {
    return Status::InvalidArgument(name() + ": the pool's data device holds only " +
                                   std::to_string(child_.geometry().capacity) + " bytes");
  }
  md_.set_pool_chunks(chunks);
  no_space_failed_ = false;  // lvextend reloads the pool's table
  SpaceFreed();
  return Status();
}

double ThinNode::data_percent() const {
  const uint64_t used = std::min(md_.pool_chunks(), md_.held() + md_.others());
  return 100.0 * static_cast<double>(used) / static_cast<double>(md_.pool_chunks());
}

void ThinNode::AppendStats(StatList& out) const {
  static constexpr StatField<ThinNode> kStats[] = {
      {"chunk_bytes", kBytes, [](const ThinNode& x) { return StatNumber(x.config_.chunk); }},
      {"mapped_chunks", kCount, [](const ThinNode& x) { return StatNumber(x.md_.mapped()); }},
      {"committed_chunks", kCount,
       [](const ThinNode& x) { return StatNumber(x.md_.committed_mapped()); }},
      {"pool_chunks", kCount, [](const ThinNode& x) { return StatNumber(x.md_.pool_chunks()); }},
      {"pool_held_chunks", kCount, [](const ThinNode& x) { return StatNumber(x.md_.held()); }},
      {"other_volumes_chunks", kCount,
       [](const ThinNode& x) { return StatNumber(x.md_.others()); }},
      {"pool_free_bytes", kBytes,
       [](const ThinNode& x) { return StatNumber(x.pool_free_bytes()); }},
      {"data_percent", kPercent, [](const ThinNode& x) { return StatNumber(x.data_percent()); }},
      {"commits", kCount, [](const ThinNode& x) { return StatNumber(x.commits_); }},
      {"provisioned_chunks", kCount, [](const ThinNode& x) { return StatNumber(x.provisioned_); }},
      {"zeroed_chunks", kCount, [](const ThinNode& x) { return StatNumber(x.zeroed_); }},
      {"discarded_chunks", kCount, [](const ThinNode& x) { return StatNumber(x.discarded_); }},
      {"no_space_errors", kCount, [](const ThinNode& x) { return StatNumber(x.no_space_errors_); }},
      {"waiting_for_space", kCount,
       [](const ThinNode& x) { return StatNumber(x.no_space_queue_.size()); }},
  };
  AppendStatTable(*this, kStats, out);
  for (uint32_t i = 0; i < config_.volumes && config_.volumes > 1; ++i) {
    out.push_back({"volume" + std::to_string(i) + "_mapped_bytes",
                   static_cast<double>(volume_mapped_bytes(i)), kBytes});
  }
}

}  // namespace storlab
