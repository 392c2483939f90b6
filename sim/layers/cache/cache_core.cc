#include "sim/layers/cache/cache_core.h"

#include <algorithm>

#include "sim/stat_table.h"

namespace storlab {
namespace {

CacheDestager::Config DestagerConfig(const CacheConfig& cfg, uint32_t sector, uint64_t data_base,
                                     bool keeps_data) {
  CacheDestager::Config d;
  d.depth = cfg.destage_depth;
  d.max_io = cfg.destage_max_io;
  d.background = static_cast<uint64_t>(cfg.dirty_background * static_cast<double>(cfg.size));
  d.expire = cfg.dirty_expire;
  d.block_size = cfg.block_size;
  d.sector = sector;
  d.data_base = data_base;
  d.keeps_data = keeps_data;
  return d;
}

}  // namespace

const char* CacheModeName(CacheMode m) {
  switch (m) {
    case CacheMode::kWriteBack:
      return "writeback";
    case CacheMode::kWriteThrough:
      return "writethrough";
    case CacheMode::kWriteAround:
      return "writearound";
  }
  return "?";
}

CacheCore::CacheCore(Engine& engine, std::string name, const CacheConfig& cfg, Node* fast,
                     Node& origin, bool keeps_data)
    : engine_(engine),
      name_(std::move(name)),
      cfg_(cfg),
      fast_(fast),
      origin_(origin),
      keeps_data_(keeps_data),
      capacity_(origin.geometry().capacity),
      sector_(std::max(origin.geometry().logical_block,
                       fast ? fast->geometry().logical_block : uint32_t{512})),
      bs_(cfg.block_size),
      data_base_(fast ? cfg.metadata_size : 0),
      memory_(fast ? nullptr
                   : std::make_unique<CacheMemory>(engine_, name_ + "/ram", cfg_.size, sector_,
                                                   cfg_.ram_latency, cfg_.ram_bytes_per_s,
                                                   keeps_data_)),
      table_(static_cast<uint32_t>(cfg.size / cfg.block_size),
             static_cast<uint32_t>(cfg.block_size / sector_), sector_, fast != nullptr),
      policy_(MakeCachePolicy(cfg.policy, cfg.size / cfg.block_size, capacity_ / cfg.block_size,
                              table_)),
      seq_(cfg.sequential_cutoff),
      destager_(engine_, name_, DestagerConfig(cfg_, sector_, data_base_, keeps_data_), table_,
                cache_dev(), origin_, *this),
      committer_(fast ? std::make_unique<CacheCommitter>(
                            engine_, CacheCommitter::Config{cfg.metadata_size, cfg.commit_period},
                            table_, *fast, origin_, [this] { WakeSpace(); })
                      : nullptr) {
  if (cfg_.prefill > 0) Prefill();
}

CacheCore::~CacheCore() = default;

Geometry CacheCore::geometry() const {
  Geometry g = origin_.geometry();
  g.logical_block = sector_;
  g.physical_block = std::max(g.physical_block, sector_);
  return g;
}

Capabilities CacheCore::caps() const {
  Capabilities c = origin_.caps();
  const Capabilities* f = fast_ ? &fast_->caps() : nullptr;
  c.volatile_cache =
      cfg_.mode == CacheMode::kWriteBack || c.volatile_cache || (f && f->volatile_cache);
  c.caches_reads = true;
  if (f) {
    c.honors_flush = c.honors_flush && f->honors_flush;
    c.honors_fua = c.honors_fua && f->honors_flush;  // FUA commits through the cache device
    c.queue_depth = std::max(c.queue_depth, f->queue_depth);
  }
  return c;
}

bool CacheCore::IsCached(uint64_t offset) const {
  const CacheEntry* e = table_.Find(offset / bs_);
  return e && e->valid.AllSet(static_cast<uint32_t>((offset % bs_) / sector_), 1);
}

uint64_t CacheCore::DirtyBytesIn(uint64_t offset, uint64_t length) const {
  uint64_t n = 0;
  for (const Span& s : Spans(offset, length)) {
    const CacheEntry* e = table_.Find(s.block);
    if (e) n += uint64_t{e->dirty.Count(s.first, s.count)} * sector_;
  }
  return n;
}

void CacheCore::Submit(Request req) {
  if (kick_pending_) {
    kick_pending_ = false;
    destager_.Kick();
  }
  switch (req.op) {
    case Op::kRead:
      return Read(std::move(req));
    case Op::kWrite: {
      bool bypass = seq_.Observe(req.offset, req.length);
      if (bypass) ++c_.bypassed_ios;
      return Write(std::move(req), bypass);
    }
    case Op::kTrim:
    case Op::kWriteZeroes:
      return Discard(std::move(req));
    case Op::kFlush:
      return Flush(std::move(req));
  }
}

std::vector<CacheCore::Span> CacheCore::Spans(uint64_t off, uint64_t len) const {
  std::vector<Span> v;
  uint64_t pos = off, end = off + len;
  while (pos < end) {
    uint64_t b = pos / bs_;
    uint64_t in = pos - b * bs_;
    uint64_t n = std::min(end - pos, bs_ - in);
    v.push_back(
        {b, static_cast<uint32_t>(in / sector_), static_cast<uint32_t>(n / sector_), pos - off});
    pos += n;
  }
  return v;
}

void CacheCore::WaitBlock(uint64_t block, Callback<void()> retry) {
  block_waiters_[block].push_back(std::move(retry));
}

void CacheCore::WakeBlock(uint64_t block) {
  auto it = block_waiters_.find(block);
  if (it == block_waiters_.end()) return;
  std::vector<Callback<void()>> w = std::move(it->second);
  block_waiters_.erase(it);
  for (auto& fn : w) fn();
}

void CacheCore::WaitSpace(Callback<void()> retry, bool first_wait) {
  if (first_wait) ++c_.throttled_writes;
  space_waiters_.push_back(std::move(retry));
  destager_.Kick();
  if (fast_ && !table_.has_free_slot() && table_.has_pending_slots()) {
    committer_->Commit(false, nullptr);
  }
}

void CacheCore::WakeSpace() {
  if (space_waiters_.empty()) return;
  // Retry in arrival order; a request that still finds no room queues again
  // at the back, behind the ones that were already waiting after it.
  std::deque<Callback<void()>> w;
  w.swap(space_waiters_);
  size_t n = w.size();
  for (size_t i = 0; i < n; ++i) {
    Callback<void()> fn = std::move(w.front());
    w.pop_front();
    fn();
  }
}

void CacheCore::Unpin(uint64_t block) {
  if (CacheEntry* e = table_.Find(block)) Unpin(*e);
}

void CacheCore::Unpin(CacheEntry& e) {
  if (e.io > 0 && --e.io == 0) WakeBlock(e.block);
}

void CacheCore::Unbusy(uint64_t block) {
  auto it = busy_writes_.find(block);
  if (it == busy_writes_.end() || --it->second > 0) return;
  busy_writes_.erase(it);
  // A promotion of the block waited for its last write at the origin.
  auto q = quiescing_.find(block);
  if (q == quiescing_.end()) return;
  std::shared_ptr<Promotion> p = std::move(q->second);
  quiescing_.erase(q);
  CopyPromotion(p);
}

bool CacheCore::Evictable(uint64_t block) const {
  const CacheEntry* e = table_.Find(block);
  return e && !e->locked && e->io == 0 && !e->dirty.any();
}

uint32_t CacheCore::Evict(CacheEntry& e, bool claim) {
  const uint64_t block = e.block;
  policy_->Remove(e);
  uint32_t slot = table_.Erase(e, claim);
  if (memory_) memory_->Discard(SlotOffset(slot), bs_);
  RecordChange(block);
  return slot;
}

void CacheCore::Flush(Request req) {
  ++c_.flushes;
  Completion done = [this, start = engine_.now(), done = std::move(req.done)](Status st) mutable {
    c_.flush_time += engine_.now() - start;
    done(std::move(st));
  };
  if (fast_) {
    // Dirty data on the cache device is durable once the device is flushed
    // and the mapping committed: a FLUSH commits (and flushes the origin).
    committer_->Commit(true, std::move(done));
    return;
  }
  destager_.Flush(write_seq_, std::move(done));
}

void CacheCore::Written(const std::vector<CachePiece>& writes) {
  if (on_destaged_) {
    for (const CachePiece& p : writes) on_destaged_(p.dev_off, p.len);
  }
  if (committer_) committer_->OriginWritten();
}

void CacheCore::Unlocked(const std::vector<uint64_t>& blocks) {
  RecordDirty();
  for (uint64_t b : blocks) WakeBlock(b);
}

CacheCounters CacheCore::counters() const {
  CacheCounters c = c_;
  const CacheDestager::Counters& d = destager_.counters();
  c.destage_ops = d.destage_ops;
  c.destaged_bytes = d.destaged_bytes;
  c.destage_errors = d.destage_errors;
  if (committer_) {
    c.commits = committer_->counters().commits;
    c.commit_time = committer_->counters().commit_time;
  }
  return c;
}

void CacheCore::ResetCounters() {
  c_ = CacheCounters();
  destager_.ResetCounters();
  if (committer_) committer_->ResetCounters();
}

void CacheCore::AppendStats(StatList& out, const std::string& prefix) const {
  static constexpr StatField<CacheCounters> kCounters[] = {
      Field<&CacheCounters::read_hits>("read_hits", kCount),
      Field<&CacheCounters::read_misses>("read_misses", kCount),
      Field<&CacheCounters::write_hits>("write_hits", kCount),
      Field<&CacheCounters::write_misses>("write_misses", kCount),
      Field<&CacheCounters::promotions>("promotions", kCount),
      Field<&CacheCounters::demotions>("demotions", kCount),
      Field<&CacheCounters::invalidations>("invalidations", kCount),
      Field<&CacheCounters::bypassed_ios>("bypassed_ios", kCount),
      Field<&CacheCounters::throttled_writes>("throttled_writes", kCount),
      Field<&CacheCounters::destage_ops>("destage_ops", kCount),
      Field<&CacheCounters::destaged_bytes>("destaged_bytes", kBytes),
      Field<&CacheCounters::destage_errors>("destage_errors", kCount),
      Field<&CacheCounters::flushes>("flushes", kCount),
      Field<&CacheCounters::flush_time>("flush_time_ns", kNanos),
      Field<&CacheCounters::commits>("commits", kCount),
      Field<&CacheCounters::commit_time>("commit_time_ns", kNanos),
  };
  static constexpr StatField<CacheCore> kTable[] = {
      {"dirty_bytes", kBytes,
       [](const CacheCore& x) { return StatNumber(x.table_.dirty_bytes()); }},
      {"cached_bytes", kBytes,
       [](const CacheCore& x) { return StatNumber(x.table_.size() * x.bs_); }},
      {"cache_size_bytes", kBytes, [](const CacheCore& x) { return StatNumber(x.cfg_.size); }},
  };
  static constexpr StatField<CacheCounters> kMigrations[] = {
      Field<&CacheCounters::promotions_queued>("promotions_queued", kCount),
      Field<&CacheCounters::promotions_dropped>("promotions_dropped", kCount),
  };
  AppendStatTable(counters(), kCounters, out, prefix);
  AppendStatTable(*this, kTable, out, prefix);
  if (policy_->background_migrations()) AppendStatTable(counters(), kMigrations, out, prefix);
  StatList p;
  policy_->AppendStats(p);
  for (auto& s : p) out.push_back({prefix + s.name, s.value, s.unit});
}

void CacheCore::RecordDirty() {
  dirty_series_.Record(engine_.now(), static_cast<double>(table_.dirty_bytes()));
}

void CacheCore::PowerCut() {
  block_waiters_.clear();
  space_waiters_.clear();
  busy_writes_.clear();
  quiescing_.clear();
  destager_.PowerCut();
  if (committer_) committer_->PowerCut();
  dirty_reserved_ = 0;
  need_tick_bio_ = true;
  migrations_ = 0;
  seq_.Clear();
  policy_ = MakeCachePolicy(cfg_.policy, cfg_.size / bs_, capacity_ / bs_, table_);
  table_.Clear();
  if (memory_) {
    memory_->PowerCut();
  } else {
    Restore();
  }
  RecordDirty();
}

void CacheCore::Restore() {
  // The restart after a power cut: the last committed mapping, every block
  // of it dirty, as dm-cache does after an unclean shutdown
  // (dm-cache-metadata.c: "clean_when_opened"), so that all of it is
  // written back to the origin again.
  const auto& committed = committer_->committed();
  std::vector<uint64_t> blocks;
  blocks.reserve(committed.size());
  for (const auto& [b, c] : committed) blocks.push_back(b);
  std::sort(blocks.begin(), blocks.end());
  std::vector<uint32_t> used;
  used.reserve(blocks.size());
  const Nanos now = engine_.now();
  for (uint64_t b : blocks) {
    const CacheCommitter::Mapping& c = committed.at(b);
    CacheEntry& e = table_.Insert(b, c.slot);
    used.push_back(c.slot);
    const uint64_t seq = ++write_seq_;
    for (auto [f, n] : c.valid.Runs()) table_.MarkDirty(e, f, n, seq, now);
    policy_->Load(e, true);
  }
  std::sort(used.begin(), used.end());
  used.erase(std::unique(used.begin(), used.end()), used.end());
  table_.SetUsedSlots(used);
  kick_pending_ = table_.dirty_blocks() > 0;
}

}  // namespace storlab
