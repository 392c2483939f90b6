// CacheCore: background migrations, the tick bio and the prefill — how
// dm-cache (Linux drivers/md/dm-cache-target.c, since the 4.12 rework)
// moves blocks for a policy of background migrations (smq).
//
// A miss is served from the origin; when the policy wants the block, a
// promotion job copies the whole block afterwards (mg_start -> mg_copy:
// dm-kcopyd reads it from the origin and writes it to the cache device,
// competing with foreground I/O), at most kMaxMigrations queued
// (btracker_create(10240) in smq_create). With no free block, a miss that
// would promote queues a demotion instead, while the free blocks and the
// queued demotions are fewer than a quarter of the cache (queue_promotion,
// free_target_met, FREE_TARGET 25): the promotion itself is dropped, and
// later misses promote into the blocks the demotions freed. Demoting a
// clean block copies nothing: its mapping is removed and committed, and the
// block is free after the commit (mg_update_metadata).
//
// The migration worker (check_migrations) issues every queued job at once;
// migration_threshold only decides whether it may also write dirty blocks
// back while idle (spare_migration_bandwidth -> smq_get_background_work's
// `idle`): it throttles no promotion and no demotion. Here the destager
// writes dirty blocks back (cache_destager.h).
#include <algorithm>
#include <vector>

#include "sim/layers/cache/cache_core.h"
#include "sim/random.h"

namespace storlab {
namespace {
constexpr uint32_t kMaxMigrations = 10240;   // smq_create: btracker_create(10240)
constexpr uint64_t kFreeTargetPercent = 25;  // dm-cache-policy-smq.c FREE_TARGET
constexpr size_t kMaxDemotionScan = 64;
}  // namespace

void CacheCore::QueuePromotion(uint64_t block, Promote how) {
  // Cached or being promoted already (btracker_promotion_already_present).
  // Writes in flight to the block at the origin do not stop a promotion:
  // it takes the block's write lock at once (new writes wait for it) and
  // copies the block once they have ended (mg_lock_writes: dm_cell_lock_v2
  // at WRITE_LOCK_LEVEL, then quiesce -> mg_copy).
  if (!Cacheable(block) || table_.Find(block)) return;
  if (!table_.has_free_slot()) {
    // free_target_met: free blocks plus queued demotions (here: blocks
    // neither mapped nor free, waiting for their commit).
    const uint64_t slots = table_.slots();
    if ((slots - table_.size()) * 100 < slots * kFreeTargetPercent) QueueDemotion();
    return;
  }
  if (migrations_ >= kMaxMigrations) {
    ++c_.promotions_dropped;
    return;
  }
  const uint32_t slot = *table_.TakeFreeSlot();
  CacheEntry& e = table_.Insert(block, slot);
  e.locked = true;
  policy_->Insert(e, false, how);
  ++c_.promotions_queued;
  ++migrations_;
  auto p = std::make_shared<Promotion>();
  p->block = block;
  p->slot = slot;
  p->background = true;
  if (busy_writes_.count(block)) {
    quiescing_.emplace(block, std::move(p));
    return;
  }
  CopyPromotion(p);
}

void CacheCore::CopyPromotion(const std::shared_ptr<Promotion>& p) {
  if (keeps_data_) p->data.resize(bs_);
  Request r{.op = Op::kRead,
            .flags = kBackground,
            .offset = BlockOffset(p->block),
            .length = bs_,
            .data = p->data.empty() ? nullptr : p->data.data(),
            .done = [this, p](Status st) {
              if (st.ok()) {
                WritePromotion(p);
              } else {
                EndPromotion(*p, std::move(st));
              }
            }};
  origin_.Submit(std::move(r));
}

void CacheCore::QueueDemotion() {
  auto v = policy_->DemotionVictim([this](uint64_t b) { return Evictable(b); }, kMaxDemotionScan);
  // No clean block in the lower half: the kernel would write a dirty one
  // back (queue_writeback); the destager does that here.
  if (!v) return;
  ++c_.demotions;
  Evict(*v, /*claim=*/false);
  if (committer_) committer_->Commit(false, nullptr);
}

bool CacheCore::TakeTickBio() {
  if (!need_tick_bio_) return false;
  need_tick_bio_ = false;
  return true;
}

void CacheCore::TickBioDone() {
  policy_->Tick(engine_.now());
  need_tick_bio_ = true;
}

void CacheCore::Prefill() {
  const uint64_t slots = table_.slots();
  const uint64_t origin_blocks = capacity_ / bs_;
  const uint64_t n = std::min<uint64_t>(
      origin_blocks, static_cast<uint64_t>(cfg_.prefill * static_cast<double>(slots)));
  // Distinct origin blocks, drawn from the seed, in ascending order.
  std::vector<uint64_t> blocks;
  if (n == origin_blocks) {
    for (uint64_t b = 0; b < n; ++b) blocks.push_back(b);
  } else {
    Random rng(cfg_.seed, name_ + "/prefill");
    std::vector<bool> taken(origin_blocks, false);
    while (blocks.size() < n) {
      const uint64_t b = rng.Uniform(origin_blocks);
      if (taken[b]) continue;
      taken[b] = true;
      blocks.push_back(b);
    }
    std::sort(blocks.begin(), blocks.end());
  }
  for (uint64_t b : blocks) {
    const uint32_t slot = *table_.TakeFreeSlot();
    CacheEntry& e = table_.Insert(b, slot);
    e.valid.SetAll();
    policy_->Load(e, false);
    if (committer_) committer_->Preload(b, slot, e.valid);
  }
}

}  // namespace storlab
