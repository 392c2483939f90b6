// CacheCore: the engine of a block cache — a fast cache device (or RAM) in
// front of a slow origin, in write-back, write-through or write-around mode.
//
// Shapes. With a cache device (an SSD: dm-cache / lvmcache, bcache), cached
// blocks live in slots on that device, after a metadata area; the mapping
// is committed there the way dm-cache commits it (CacheCommitter,
// cache_committer.h), so
// what a FLUSH made durable on the cache device survives a power cut. Without
// one (a drive's buffer, a NAS's page cache), blocks live in CacheMemory, and
// a power cut loses everything that was not destaged.
//
// Data plane. Reads take valid sectors from the cache and the rest from the
// origin; a missed block the policy wants is promoted from the origin read
// (copied to the cache in the background) — or, with a policy of
// background migrations (smq, cache_migrate.cc), by a job of its own after
// the miss was served: dm-cache's migration (origin read of the whole
// block, cache write), queued at most 10240 deep. Writes, by mode:
//   write-back    cached (or newly promoted whole) blocks are written to the
//                 cache and marked dirty; the rest go to the origin.
//   write-through the cache and the origin are both written; the write
//                 completes when both are.
//   write-around  writes go to the origin only; a cached clean copy is
//                 dropped. Writes never promote.
// FUA writes go through to the origin (with FUA) in every mode. Large
// sequential streams bypass the cache (sequential_cutoff). Dirty data is
// destaged to the origin in simulated time by a CacheDestager
// (cache_destager.h): above the background threshold, when older than the
// expiry, when a FLUSH waits, or when writers wait for room. Writes that
// would push dirty data past the limit wait (or, with over_limit =
// write-through, bypass the cache).
//
// Consistency. A promotion or destage locks its block; writes to a locked
// block wait, reads do not. A block with client I/O in flight is never
// destaged, evicted or dropped; a block being written at the origin is not
// promoted. Not thread-safe: the engine's thread runs everything.
#ifndef STORLAB_SIM_LAYERS_CACHE_CACHE_CORE_H_
#define STORLAB_SIM_LAYERS_CACHE_CACHE_CORE_H_

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "sim/engine.h"
#include "sim/layers/cache/cache_committer.h"
#include "sim/layers/cache/cache_destager.h"
#include "sim/layers/cache/cache_memory.h"
#include "sim/layers/cache/cache_pieces.h"
#include "sim/layers/cache/cache_policy.h"
#include "sim/layers/cache/cache_seq.h"
#include "sim/layers/cache/cache_table.h"
#include "sim/node.h"

namespace storlab {

enum class CacheMode : uint8_t { kWriteBack, kWriteThrough, kWriteAround };
const char* CacheModeName(CacheMode m);

struct CacheConfig {
  CacheMode mode = CacheMode::kWriteThrough;
  PolicyKind policy = PolicyKind::kSmq;
  uint64_t size = 0;  // bytes of cached data (slots × block_size)
  uint64_t block_size = 64 << 10;
  double dirty_background = 0.10;              // destage while dirty > this fraction of size
  double dirty_limit = 0.70;                   // writes wait (or bypass) above this fraction
  bool over_limit_bypass = false;              // above the limit: bypass (true) or wait (false)
  Nanos dirty_expire = Nanos(30'000'000'000);  // 0: dirty data never expires
  uint64_t sequential_cutoff = 4 << 20;        // 0: never bypass
  uint32_t destage_depth = 8;                  // destage operations in flight
  uint64_t destage_max_io = 1 << 20;           // merge contiguous dirty blocks up to this
  // Cache device only:
  uint64_t metadata_size = 0;  // bytes at the start of the cache device
  Nanos commit_period = Nanos(1'000'000'000);
  // RAM only:
  Nanos ram_latency = Nanos(1000);
  double ram_bytes_per_s = 5.4e9;
  // The share of the cache's blocks holding other data at the start
  // (clean, cold to this run: a cache shared with other VMs), which origin
  // blocks drawn from `seed`.
  double prefill = 0;
  uint64_t seed = 0;
};

// Counters a cache reports (AppendStats): the core's own, the destager's and
// the metadata commits'.
struct CacheCounters {
  uint64_t read_hits = 0, read_misses = 0;  // blocks
  uint64_t write_hits = 0, write_misses = 0;
  uint64_t promotions = 0, demotions = 0, invalidations = 0;
  // Background migrations (smq): promotion jobs queued, and promotions not
  // queued because the job queue was full.
  uint64_t promotions_queued = 0, promotions_dropped = 0;
  uint64_t bypassed_ios = 0, throttled_writes = 0;
  uint64_t destage_ops = 0, destaged_bytes = 0, destage_errors = 0;
  uint64_t flushes = 0, commits = 0;
  Nanos flush_time, commit_time;
};

class CacheCore final : private CacheDestager::Owner {
 public:
  // `fast`: the cache device, or nullptr to cache in RAM. `cfg` must be
  // resolved (size, metadata_size set; see ValidateCacheConfig in cache.h).
  CacheCore(Engine& engine, std::string name, const CacheConfig& cfg, Node* fast, Node& origin,
            bool keeps_data);
  ~CacheCore();
  CacheCore(const CacheCore&) = delete;
  CacheCore& operator=(const CacheCore&) = delete;

  // REQUIRES: `req` is valid for geometry(). Completes it later, from an
  // engine event.
  void Submit(Request req);
  // Drops everything volatile and forgets work in flight (the engine has
  // been cleared); with a cache device, reloads the committed metadata.
  void PowerCut();

  Geometry geometry() const;
  Capabilities caps() const;
  const CacheConfig& config() const { return cfg_; }
  CacheCounters counters() const;
  uint64_t dirty_bytes() const { return table_.dirty_bytes(); }
  uint64_t cached_blocks() const { return table_.size(); }
  bool IsCached(uint64_t offset) const;
  // Bytes of [offset, offset+length) that are dirty now (sector-granular).
  uint64_t DirtyBytesIn(uint64_t offset, uint64_t length) const;
  const CachePolicy& policy() const { return *policy_; }
  void AppendStats(StatList& out, const std::string& prefix) const;
  const TimeSeries& dirty_series() const { return dirty_series_; }
  void ResetCounters();
  // storlab sim --state (cache_state.cc): the table, the policy, the
  // sequential detector, the write sequence, the destager's cursor, the
  // committed mapping (cache device) or the RAM's contents. REQUIRES: idle
  // (no request, promotion, destage or commit in flight or waiting).
  Status SaveState(StateWriter& w) const;
  Status RestoreState(StateReader& r);
  // Runs for each origin range a destage wrote (the owner's trace).
  void set_on_destaged(Callback<void(uint64_t, uint64_t)> fn) { on_destaged_ = std::move(fn); }

 private:
  // Clean blocks the policy may offer before a promotion or a write
  // allocation gives up.
  static constexpr size_t kMaxVictimScan = 64;

  struct Span {  // the part of one cache block a request touches
    uint64_t block;
    uint32_t first, count;  // sectors within the block
    uint64_t buf_off;       // byte offset in the request
  };
  using Piece = CachePiece;
  struct ReadOp;
  struct WriteOp;
  struct Promotion {
    uint64_t block = 0;
    uint32_t slot = 0;
    bool after_commit = false;  // the slot was just demoted: write it after a commit
    bool background = false;    // a migration of its own (cache_migrate.cc)
    std::vector<uint8_t> data;
  };

  // Geometry helpers.
  std::vector<Span> Spans(uint64_t off, uint64_t len) const;
  bool Cacheable(uint64_t block) const { return (block + 1) * bs_ <= capacity_; }
  uint64_t BlockOffset(uint64_t block) const { return block * bs_; }
  uint64_t SlotOffset(uint32_t slot) const { return data_base_ + uint64_t{slot} * bs_; }
  Node& cache_dev() const { return fast_ ? *fast_ : *memory_; }

  // Reads (cache_read.cc).
  void Read(Request req);
  void ReadDone(const std::shared_ptr<ReadOp>& op, Status st);
  // A slot for promoting a block; *after_commit when it may only be written
  // after the next metadata commit.
  std::optional<uint32_t> SlotForPromotion(bool* after_commit);
  void WritePromotion(const std::shared_ptr<Promotion>& p);
  void EndPromotion(const Promotion& p, Status st);

  // Background migrations (cache_migrate.cc): dm-cache's queue_promotion
  // and queue_demotion; the tick bio; the prefill.
  void QueuePromotion(uint64_t block, Promote how);
  // The copy of a queued promotion: the whole block from the origin, then
  // to its slot (mg_copy). Starts once no write to the block is in flight
  // at the origin (Unbusy).
  void CopyPromotion(const std::shared_ptr<Promotion>& p);
  void QueueDemotion();
  // Tags this request as the tick bio if one is wanted
  // (check_if_tick_bio_needed); TickBioDone at its end (cache_end_io).
  bool TakeTickBio();
  void TickBioDone();
  void Prefill();

  // Writes, write-zeroes and trims (cache_write.cc).
  // `waited`: a retry of a request that already waited for room.
  void Write(Request req, bool bypass, bool waited = false);
  void WriteDone(const std::shared_ptr<WriteOp>& op, Status st);
  void Discard(Request req);

  // Waiting.
  void WaitBlock(uint64_t block, Callback<void()> retry);
  void WakeBlock(uint64_t block);
  void WaitSpace(Callback<void()> retry, bool first_wait);
  void WakeSpace();
  void Unpin(uint64_t block);
  void Unpin(CacheEntry& e);
  void Unbusy(uint64_t block);
  bool Evictable(uint64_t block) const;
  // Unmaps the block of `e` (clean, idle); returns its slot, freed or,
  // with `claim`, kept for the caller.
  uint32_t Evict(CacheEntry& e, bool claim);
  uint32_t Evict(uint64_t block, bool claim) { return Evict(*table_.Find(block), claim); }

  // FLUSH: a metadata commit with a cache device, the destager's in RAM.
  void Flush(Request req);
  void RecordDirty();

  // What the destager asks of the cache (CacheDestager::Owner).
  bool WritersWaiting() const override { return !space_waiters_.empty(); }
  void Cleaned(CacheEntry& e) override { policy_->SetDirty(e, false); }
  void Written(const std::vector<CachePiece>& writes) override;
  void Unlocked(const std::vector<uint64_t>& blocks) override;
  void RoomMade() override { WakeSpace(); }

  // The metadata commits' (cache device only): a mapping changed, data was
  // written to the cache device; the restart from the committed mapping.
  void RecordChange(uint64_t block) {
    if (committer_) committer_->RecordChange(block);
  }
  void CacheWritten() {
    if (committer_) committer_->CacheWritten();
  }
  void Restore();

  Engine& engine_;
  std::string name_;
  CacheConfig cfg_;
  Node* fast_;
  Node& origin_;
  bool keeps_data_;
  uint64_t capacity_;
  uint32_t sector_;
  uint64_t bs_;
  uint64_t data_base_;
  std::unique_ptr<CacheMemory> memory_;  // without a cache device
  CacheTable table_;
  std::unique_ptr<CachePolicy> policy_;
  SequentialDetector seq_;
  CacheCounters c_;  // the core's own (the destager's and the commits' are theirs)
  TimeSeries dirty_series_{"dirty_bytes"};

  // Requests waiting for a block (locked, or in use when it must be idle)
  // or for room (dirty limit, a free slot). FIFO.
  std::unordered_map<uint64_t, std::vector<Callback<void()>>> block_waiters_;
  std::deque<Callback<void()>> space_waiters_;
  std::unordered_map<uint64_t, uint32_t> busy_writes_;  // unmapped blocks being written
  // Promotions locked and waiting for their block's writes at the origin
  // to end before they copy it (mg_lock_writes -> quiesce).
  std::unordered_map<uint64_t, std::shared_ptr<Promotion>> quiescing_;
  uint64_t dirty_reserved_ = 0;  // bytes in-flight writes will dirty
  uint64_t write_seq_ = 0;       // completed writes into the cache
  bool kick_pending_ = false;    // destage after a restart, on the next request
  bool need_tick_bio_ = true;    // cache->need_tick_bio
  uint32_t migrations_ = 0;      // background promotions in flight
  Callback<void(uint64_t, uint64_t)> on_destaged_;
  CacheDestager destager_;
  std::unique_ptr<CacheCommitter> committer_;  // with a cache device
};

}  // namespace storlab

#endif  // STORLAB_SIM_LAYERS_CACHE_CACHE_CORE_H_
