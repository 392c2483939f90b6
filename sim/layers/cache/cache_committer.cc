// CacheCommitter: committing a cache device's mapping (see the header).
#include "sim/layers/cache/cache_committer.h"

#include <algorithm>
#include <memory>

#include "sim/join.h"

namespace storlab {

CacheCommitter::CacheCommitter(Engine& engine, const Config& cfg, CacheTable& table,
                               Node& cache_dev, Node& origin, Callback<void()> after_commit)
    : engine_(engine),
      cfg_(cfg),
      table_(table),
      cache_dev_(cache_dev),
      origin_(origin),
      after_commit_(std::move(after_commit)) {}

void CacheCommitter::RecordChange(uint64_t block) {
  const CacheEntry* e = table_.Find(block);
  if (e && e->valid.any()) {
    changes_[block] = Mapping{e->slot, e->valid};
  } else {
    changes_[block] = std::nullopt;
  }
  ArmTimer();
}

void CacheCommitter::ArmTimer() {
  if (timer_ || running_) return;
  timer_ = engine_.After(cfg_.period, [this] {
    timer_ = {};
    if (!changes_.empty() || table_.has_pending_slots()) Commit(false, nullptr);
  });
}

void CacheCommitter::Commit(bool force_flush, Callback<void(Status)> done) {
  if (done) next_waiters_.push_back(std::move(done));
  next_force_ = next_force_ || force_flush;
  if (!running_) Start();
}

void CacheCommitter::Start() {
  running_ = true;
  if (timer_) {
    engine_.Cancel(timer_);
    timer_ = {};
  }
  struct InFlight {
    std::vector<Callback<void(Status)>> waiters;
    std::unordered_map<uint64_t, std::optional<Mapping>> delta;
    std::vector<uint32_t> released;
    Nanos start;
  };
  auto c = std::make_shared<InFlight>();
  c->waiters.swap(next_waiters_);
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
    running_ = false;
    // A waiter may request (and so start) the next commit itself.
    for (auto& w : c->waiters) w(st);
    if (!running_) {
      if (!next_waiters_.empty() || next_force_) {
        Start();
      } else if (!changes_.empty() || table_.has_pending_slots()) {
        ArmTimer();
      }
    }
    after_commit_();
  };
  auto write_metadata = [this, c, finish = std::move(finish)](Status st) mutable {
    if (!st.ok() || (c->delta.empty() && c->released.empty())) return finish(std::move(st));
    const uint64_t bytes = 4096 * (1 + (c->delta.size() * 16 + 4095) / 4096);
    Request r{.op = Op::kWrite,
              .flags = kFua | kBackground,
              .offset = 0,
              .length = std::min(bytes, cfg_.metadata_size / 4096 * 4096),
              .done = std::move(finish)};
    cache_dev_.Submit(std::move(r));
  };
  auto join = Join::Make(std::move(write_metadata));
  for (Node* dev : {flush_fast ? &cache_dev_ : nullptr, flush_origin ? &origin_ : nullptr}) {
    if (!dev) continue;
    Request f{.op = Op::kFlush, .flags = kBackground, .done = join->Arm()};
    dev->Submit(std::move(f));
  }
  join->Seal(engine_);
}

void CacheCommitter::PowerCut() {
  next_waiters_.clear();
  running_ = false;
  next_force_ = false;
  timer_ = {};
  changes_.clear();
  fast_written_ = origin_written_ = false;
}

}  // namespace storlab
