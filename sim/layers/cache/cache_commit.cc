// CacheCore: metadata commits and the restart after a power cut, for a
// cache with a cache device (dm-cache's model).
//
// The mapping (which origin block is in which slot, which sectors are valid)
// is kept on the cache device and changes in memory between commits. A
// commit flushes the cache device (and the origin, if the destager wrote to
// it since the last commit), then writes the changed mappings (16 bytes
// each, lvm2's DM_BYTES_PER_BLOCK) plus a superblock with FUA to the
// metadata area. Commits run every commit_period while anything changed
// (dm-cache's COMMIT_PERIOD, 1 s), for every FLUSH and FUA write, and before
// a demoted slot is reused. After a power cut the cache reloads the last
// committed mapping and, as dm-cache does after an unclean shutdown
// (dm-cache-metadata.c: "clean_when_opened"), treats every block as dirty,
// so that all of it is written back to the origin again.
//
// This is what keeps the model safe: a slot named by the committed mapping
// is never reused before the next commit, and data the mapping points at
// was flushed before the mapping was written. The metadata's bytes are not
// stored on the cache device (the write carries no data); their cost is.
#include <algorithm>

#include "sim/join.h"
#include "sim/layers/cache/cache_core.h"

namespace storlab {

void CacheCore::RecordChange(uint64_t block) {
  if (!fast_) return;
  const CacheEntry* e = table_.Find(block);
  if (e && e->valid.any()) {
    changes_[block] = Committed{e->slot, e->valid};
  } else {
    changes_[block] = std::nullopt;
  }
  ArmCommitTimer();
}

void CacheCore::ArmCommitTimer() {
  if (!fast_ || commit_timer_ || commit_running_) return;
  commit_timer_ = engine_.After(cfg_.commit_period, [this] {
    commit_timer_ = {};
    if (!changes_.empty() || table_.has_pending_slots()) RequestCommit(false, nullptr);
  });
}

void CacheCore::RequestCommit(bool force_flush, Callback<void(Status)> done) {
  if (done) next_commit_waiters_.push_back(std::move(done));
  next_force_ = next_force_ || force_flush;
  if (!commit_running_) StartCommit();
}

void CacheCore::StartCommit() {
  commit_running_ = true;
  if (commit_timer_) {
    engine_.Cancel(commit_timer_);
    commit_timer_ = {};
  }
  struct Commit {
    std::vector<Callback<void(Status)>> waiters;
    std::unordered_map<uint64_t, std::optional<Committed>> delta;
    std::vector<uint32_t> released;
    Nanos start;
  };
  auto c = std::make_shared<Commit>();
  c->waiters.swap(next_commit_waiters_);
  c->delta.swap(changes_);
  c->released = table_.TakePending();
  c->start = engine_.now();
  const bool flush_fast = next_force_ || fast_written_;
  const bool flush_origin = next_force_ || origin_written_;
  next_force_ = fast_written_ = origin_written_ = false;

  auto finish = [this, c](Status st) {
    if (st.ok()) {
      for (auto& [b, v] : c->delta) {
        if (v) {
          committed_[b] = std::move(*v);
        } else {
          committed_.erase(b);
        }
      }
      table_.ReleaseSlots(c->released);
      ++c_.commits;
    } else {
      // Nothing was committed: the changes wait for the next commit.
      for (auto& [b, v] : c->delta) changes_.emplace(b, std::move(v));
      table_.DeferSlots(c->released);
    }
    c_.commit_time += engine_.now() - c->start;
    commit_running_ = false;
    // A waiter may request (and so start) the next commit itself.
    for (auto& w : c->waiters) w(st);
    if (!commit_running_) {
      if (!next_commit_waiters_.empty() || next_force_) {
        StartCommit();
      } else if (!changes_.empty() || table_.has_pending_slots()) {
        ArmCommitTimer();
      }
    }
    WakeSpace();
  };
  auto write_metadata = [this, c, finish = std::move(finish)](Status st) mutable {
    if (!st.ok() || (c->delta.empty() && c->released.empty())) return finish(std::move(st));
    const uint64_t bytes = 4096 * (1 + (c->delta.size() * 16 + 4095) / 4096);
    Request r{.op = Op::kWrite,
              .flags = kFua | kBackground,
              .offset = 0,
              .length = std::min(bytes, cfg_.metadata_size / 4096 * 4096),
              .done = std::move(finish)};
    fast_->Submit(std::move(r));
  };
  auto join = Join::Make(std::move(write_metadata));
  for (Node* dev : {flush_fast ? fast_ : nullptr, flush_origin ? &origin_ : nullptr}) {
    if (!dev) continue;
    Request f{.op = Op::kFlush, .flags = kBackground, .done = join->Arm()};
    dev->Submit(std::move(f));
  }
  join->Seal(engine_);
}

void CacheCore::Restore() {
  changes_.clear();
  fast_written_ = origin_written_ = false;
  std::vector<uint64_t> blocks;
  blocks.reserve(committed_.size());
  for (const auto& [b, c] : committed_) blocks.push_back(b);
  std::sort(blocks.begin(), blocks.end());
  std::vector<bool> used(table_.slots(), false);
  const Nanos now = engine_.now();
  for (uint64_t b : blocks) {
    const Committed& c = committed_.at(b);
    CacheEntry& e = table_.Insert(b, c.slot);
    used[c.slot] = true;
    const uint64_t seq = ++write_seq_;
    for (auto [f, n] : c.valid.Runs()) table_.MarkDirty(e, f, n, seq, now);
    policy_->Insert(b, true, Promote::kPermanent);
  }
  table_.SetUsedSlots(used);
  kick_pending_ = table_.dirty_blocks() > 0;
}

}  // namespace storlab
