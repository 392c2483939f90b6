// PageCache: construction, the write path, discards, direct I/O and stats.
// Reads are in page_cache_read.cc; writeback and syncs are the Writeback
// class's (page_cache_writeback.h); the factory in
// sim/profile/factories/page_cache_factory.cc.
#include "sim/layers/page_cache/page_cache.h"

#include <algorithm>
#include <cstring>

#include "sim/layers/nfs/nfs.h"
#include "sim/stat_table.h"

namespace storlab {

namespace {

std::unique_ptr<NfsClient> MakeNfsClient(const PageCacheConfig& config, Node& child) {
  const Nfs* nfs = NodeAs<Nfs>(&child);
  if (!nfs) return nullptr;
  return std::make_unique<NfsClient>(nfs->client_config(), config.host.mem_bytes, nfs->wsize());
}
}  // namespace

PageCache::PageCache(Engine& engine, std::string name, const PageCacheConfig& config, Node& child)
    : Node(engine, std::move(name)),
      config_(config),
      child_(child),
      cpu_(config.host.cores, config.host.copy_bytes_per_s_per_core, config.host.memory_bandwidth),
      throttle_(config.host),
      data_(config.keeps_data),
      capacity_pages_(std::max<uint64_t>(throttle_.limits().dirtyable / kPage, 1)),
      nfs_client_(MakeNfsClient(config, child)),
      writeback_(
          engine_,
          // NFS: WRITEs coalesce up to wsize (nfs_generic_pg_test)
          // and are bounded by the RPC slot table, not nr_requests.
          WritebackConfig{.max_io_bytes = nfs_client_ ? nfs_client_->wsize() : config.max_io_bytes,
                          .queue_depth = nfs_client_ ? NodeAs<Nfs>(&child)->max_in_flight()
                                                     : config.writeback_queue_depth,
                          .dirty_expire = config.host.dirty_expire,
                          .interval = config.host.writeback_interval,
                          .capacity = child.geometry().capacity,
                          .keeps_data = config.keeps_data,
                          .nfs = nfs_client_.get()},
          pages_, data_, throttle_, child,
          Writeback::Hooks{
              .destaged = [this](uint64_t off, uint64_t len) { TraceDestaged(off, len); },
              .cleaned =
                  [this] {
                    NoteDirtyChange();
                    WakeBlockedWriters();
                  }}) {
  geometry_ = child.geometry();
  geometry_.physical_block = std::max<uint32_t>(geometry_.physical_block, kPage);
  caps_ = child.caps();
  caps_.volatile_cache = true;
  traces_volatile_ = true;  // TraceDestaged at each writeback
  caps_.caches_reads = true;
  // A FUA write is made durable by writeback and a child flush.
  caps_.honors_fua = child.caps().honors_flush;
  caps_.queue_depth = std::max<uint32_t>(caps_.queue_depth, 1024);
}

PageCache::~PageCache() = default;

PageCache::Counters PageCache::counters() const {
  const WritebackCounters& w = writeback_.counters();
  const CacheCounters& c = counters_;
  return Counters{.absorbed_bytes = c.absorbed_bytes,
                  .newly_dirtied_bytes = c.newly_dirtied_bytes,
                  .rewritten_dirty_bytes = c.rewritten_dirty_bytes,
                  .written_back_bytes = w.written_back_bytes,
                  .writeback_requests = w.writeback_requests,
                  .writeback_errors = w.writeback_errors,
                  .throttled_writes = c.throttled_writes,
                  .throttled_ns = c.throttled_ns,
                  .read_hit_bytes = c.read_hit_bytes,
                  .read_miss_bytes = c.read_miss_bytes,
                  .child_read_bytes = c.child_read_bytes,
                  .readahead_bytes = c.readahead_bytes,
                  .evicted_bytes = c.evicted_bytes,
                  .fsyncs = w.fsyncs,
                  .fsync_ns_total = w.fsync_ns_total,
                  .fsync_ns_max = w.fsync_ns_max,
                  .fsync_written_bytes = w.fsync_written_bytes,
                  .last_fsync_ns = w.last_fsync_ns,
                  .last_fsync_bytes = w.last_fsync_bytes,
                  .nfs_rewrite_waits = c.nfs_rewrite_waits,
                  .nfs_rewrite_wait_ns = c.nfs_rewrite_wait_ns,
                  .nfs_commits = w.nfs_commits,
                  .nfs_congested_skips = w.nfs_congested_skips};
}

uint64_t PageCache::dirty_bytes() const { return dirty_total_bytes(); }
uint64_t PageCache::dirty_total_bytes() const {
  // NFS pages answered UNSTABLE count as writeback until their COMMIT.
  const uint64_t unstable = nfs_client_ ? nfs_client_->unstable_bytes() : 0;
  return pages_.dirty_or_writeback_pages() * kPage + unstable;
}
uint64_t PageCache::writeback_bytes() const { return pages_.writeback_pages() * kPage; }
uint64_t PageCache::cached_bytes() const { return pages_.cached_pages() * kPage; }

uint64_t PageCache::RunBytes(uint64_t first, uint64_t count) const {
  const uint64_t start = first * kPage;
  return std::min(count * kPage, geometry_.capacity - start);
}

void PageCache::DoSubmit(Request req) {
  const bool direct = (req.flags & kDirect) != 0;
  switch (req.op) {
    case Op::kRead:
      return direct ? StartDirect(std::move(req)) : StartRead(std::move(req));
    case Op::kWrite:
      return direct ? StartDirect(std::move(req)) : StartWrite(std::move(req));
    case Op::kFlush: {
      const uint32_t file = req.file_id;
      writeback_.StartSync(
          file, file == 0, 0, UINT64_MAX, true, true,
          [done = std::move(req.done)](Status st) mutable { done(std::move(st)); });
      return;
    }
    case Op::kTrim:
    case Op::kWriteZeroes:
      return StartDiscard(std::move(req));
  }
}

uint64_t PageCache::Alignment(const Request& req) const {
  const bool buffered = (req.flags & kDirect) == 0 && (req.op == Op::kRead || req.op == Op::kWrite);
  return buffered ? 1 : geometry_.logical_block;
}

// The overlay keeps 512-byte sectors; buffered I/O may start and end
// anywhere. A range is widened to whole sectors, which are all held: the
// pages a request covers only in part were read into the cache first.
void PageCache::PutBytes(uint64_t off, uint64_t len, const uint8_t* data) {
  const uint64_t lo = off / Overlay::kSector * Overlay::kSector;
  const uint64_t hi = (off + len + Overlay::kSector - 1) / Overlay::kSector * Overlay::kSector;
  if (!data || (lo == off && hi == off + len)) return data_.Put(off, len, data);
  std::vector<uint8_t> sectors(hi - lo);
  data_.Patch(lo, hi - lo, sectors.data());
  std::memcpy(sectors.data() + (off - lo), data, len);
  data_.Put(lo, hi - lo, sectors.data());
}

void PageCache::PatchBytes(uint64_t off, uint64_t len, uint8_t* buf) const {
  const uint64_t lo = off / Overlay::kSector * Overlay::kSector;
  const uint64_t hi = (off + len + Overlay::kSector - 1) / Overlay::kSector * Overlay::kSector;
  if (lo == off && hi == off + len) return data_.Patch(off, len, buf);
  std::vector<uint8_t> sectors(hi - lo);
  std::memcpy(sectors.data() + (off - lo), buf, len);
  data_.Patch(lo, hi - lo, sectors.data());
  std::memcpy(buf, sectors.data() + (off - lo), len);
}

// ---- Writes ----

void PageCache::StartWrite(Request req) {
  // balance_dirty_pages(): at the limit, writers wait (in arrival order)
  // until writeback brings dirty memory back under it.
  if (!blocked_writers_.empty() || dirty_total_bytes() >= throttle_.limits().limit) {
    blocked_writers_.emplace_back(std::move(req), engine_.now());
    writeback_.Pump();
    return;
  }
  CopyIn(std::move(req));
}

void PageCache::WakeBlockedWriters() {
  while (!blocked_writers_.empty() && dirty_total_bytes() < throttle_.limits().limit) {
    auto [req, arrived] = std::move(blocked_writers_.front());
    blocked_writers_.pop_front();
    ++counters_.throttled_writes;
    counters_.throttled_ns += static_cast<uint64_t>((engine_.now() - arrived).count());
    CopyIn(std::move(req));
  }
}

void PageCache::CopyIn(Request req) {
  const uint64_t first = PageOf(req.offset), last = LastPageOf(req.offset, req.length);
  // write_begin: a page the write covers only in part must be read first
  // unless it is cached.
  auto partial = [&](uint64_t p) {
    const uint64_t start = p * kPage, end = std::min(start + kPage, geometry_.capacity);
    return (req.offset > start || req.offset + req.length < end) && !pages_.AllCached(p, p);
  };
  if (nfs_client_ && WaitForNfsWrite(req, first, last)) return;
  const bool head = partial(first), tail = last != first && partial(last);
  if (head || tail) {
    if (head) ReadPages(first, first, first, first);
    if (tail) ReadPages(last, last, last, last);
    WaitForReads(head ? first : last, tail ? last : first,
                 [this, r = std::move(req)](Status st) mutable {
                   if (!st.ok()) return r.done(std::move(st));
                   CopyIn(std::move(r));
                 });
    return;
  }
  const Nanos end = cpu_.Copy(engine_.now(), req.length);
  engine_.At(end, [this, r = std::move(req)]() mutable { FinishWrite(std::move(r)); });
}

bool PageCache::WaitForNfsWrite(Request& req, uint64_t first, uint64_t last) {
  // nfs_updatepage → nfs_lock_and_join_requests: the page's request is
  // locked while its WRITE is in flight; nfs_page_group_lock_head waits
  // for the reply (nfs_wait_on_request). A page answered UNSTABLE and
  // awaiting COMMIT is not waited for: the join takes it off the commit
  // list (nfs_clear_request_commit) and it is sent again.
  if (!pages_.AnyWriteback(first, last)) return false;
  ++counters_.nfs_rewrite_waits;
  writeback_.WaitForWriteback(
      first, last, [this, since = engine_.now(), r = std::move(req)](Status) mutable {
        counters_.nfs_rewrite_wait_ns += static_cast<uint64_t>((engine_.now() - since).count());
        CopyIn(std::move(r));
      });
  return true;
}

void PageCache::FinishWrite(Request req) {
  const Nanos now = engine_.now();
  const uint64_t first = PageOf(req.offset), last = LastPageOf(req.offset, req.length);
  const PageTable::DirtyResult r = pages_.MarkDirty(first, last, req.file_id, now);
  PutBytes(req.offset, req.length, req.data);
  counters_.absorbed_bytes += req.length;
  counters_.newly_dirtied_bytes += r.newly_dirty * kPage;
  counters_.rewritten_dirty_bytes += r.rewritten * kPage;
  EvictOverflow();
  NoteDirtyChange();
  // balance_dirty_pages() pauses the writer after it dirtied new pages.
  const Nanos ack = throttle_.Pause(now, dirty_total_bytes(), r.newly_dirty * kPage);
  if (ack > now) {
    ++counters_.throttled_writes;
    counters_.throttled_ns += static_cast<uint64_t>((ack - now).count());
  }
  auto ack_fn = [this, first, last](Request r) {
    if (!r.fua()) return r.done(Status());
    // O_DSYNC: write back this range and flush the child.
    writeback_.StartSync(r.file_id, true, first, last, true, false,
                         [done = std::move(r.done)](Status st) mutable { done(std::move(st)); });
  };
  if (ack == now) return ack_fn(std::move(req));
  engine_.At(ack, [ack_fn, r = std::move(req)]() mutable { ack_fn(std::move(r)); });
}

void PageCache::NoteDirtyChange() {
  dirty_series_.Record(engine_.now(), static_cast<double>(dirty_total_bytes()));
  writeback_.OnDirtyChange();
}

void PageCache::EvictOverflow() {
  if (pages_.cached_pages() <= capacity_pages_) return;
  const uint64_t evicted =
      pages_.EvictClean(pages_.cached_pages() - capacity_pages_, [&](uint64_t p, uint64_t n) {
        data_.Erase(p * kPage, std::min(n * kPage, geometry_.capacity - p * kPage));
      });
  counters_.evicted_bytes += evicted * kPage;
}

// ---- Trim, write-zeroes ----

void PageCache::StartDiscard(Request req) {
  ++invalidations_;
  const uint64_t first = PageOf(req.offset), last = LastPageOf(req.offset, req.length);
  // truncate_inode_pages_range(): wait for writeback in the range, drop it,
  // then let the device do the rest.
  writeback_.WaitForWriteback(first, last, [this, r = std::move(req)](Status) mutable {
    DropRange(r.offset, r.length);
    child_.Submit(std::move(r));
  });
}

void PageCache::DropRange(uint64_t off, uint64_t len) {
  const uint64_t first = PageOf(off), last = LastPageOf(off, len);
  const uint64_t end = off + len;
  auto whole = [&](uint64_t p) {
    return off <= p * kPage && end >= std::min((p + 1) * kPage, geometry_.capacity);
  };
  // Partly covered pages keep their state; the covered part reads as zeros
  // (truncate_inode_pages_range zeroes partial pages).
  for (uint64_t p : {first, last}) {
    if (whole(p) || !pages_.AllCached(p, p)) continue;
    const uint64_t lo = std::max(off, p * kPage), hi = std::min(end, (p + 1) * kPage);
    data_.PutZeros(lo, hi - lo);
  }
  const uint64_t lo = whole(first) ? first : first + 1;
  const uint64_t hi = whole(last) ? last : last - 1;
  if (lo > hi || hi == UINT64_MAX) return;
  pages_.Drop(lo, hi);
  data_.Erase(lo * kPage, std::min((hi + 1) * kPage, geometry_.capacity) - lo * kPage);
  writeback_.ForgetPages(lo, hi);
  NoteDirtyChange();
  WakeBlockedWriters();
}

// ---- Direct I/O ----

void PageCache::StartDirect(Request req) {
  const uint64_t first = PageOf(req.offset), last = LastPageOf(req.offset, req.length);
  if (req.op == Op::kWrite) ++invalidations_;
  // filemap_write_and_wait_range(), then the I/O; a write then drops the
  // pages it made stale (invalidate_inode_pages2_range).
  const uint32_t file = req.file_id;  // read before the lambda moves req
  writeback_.StartSync(file, true, first, last, false, false,
                       [this, first, last, r = std::move(req)](Status st) mutable {
                         if (!st.ok()) return r.done(std::move(st));
                         r.flags &= ~kDirect;
                         if (r.op == Op::kRead) return child_.Submit(std::move(r));
                         r.done = [this, first, last, done = std::move(r.done), off = r.offset,
                                   len = r.length](Status s) mutable {
                           ++invalidations_;
                           writeback_.WaitForWriteback(
                               first, last,
                               [this, off, len, d = std::move(done), s](Status) mutable {
                                 DropRange(off, len);
                                 d(std::move(s));
                               });
                         };
                         child_.Submit(std::move(r));
                       });
}

// ---- Power cut, stats ----

void PageCache::OnPowerCut() {
  pages_.Clear();
  data_.Clear();
  cpu_.Reset();
  throttle_.Reset();
  blocked_writers_.clear();
  reads_.clear();
  read_waiters_.clear();
  writeback_.Reset();
  streams_.clear();
  dirty_series_.Record(engine_.now(), 0);
}

void PageCache::AppendStats(StatList& out) const {
  static constexpr StatField<PageCache> kCache[] = {
      {"dirty_bytes", kBytes, [](const PageCache& x) { return StatNumber(x.dirty_total_bytes()); }},
      {"writeback_bytes", kBytes,
       [](const PageCache& x) { return StatNumber(x.writeback_bytes()); }},
      {"cached_bytes", kBytes, [](const PageCache& x) { return StatNumber(x.cached_bytes()); }},
      {"dirty_background_bytes", kBytes,
       [](const PageCache& x) { return StatNumber(x.throttle_.limits().background); }},
      {"dirty_freerun_bytes", kBytes,
       [](const PageCache& x) { return StatNumber(x.throttle_.limits().freerun); }},
      {"dirty_limit_bytes", kBytes,
       [](const PageCache& x) { return StatNumber(x.throttle_.limits().limit); }},
      {"write_bandwidth_bytes_per_s", kBytesPerSecond,
       [](const PageCache& x) { return StatNumber(x.throttle_.write_bandwidth()); }},
  };
  static constexpr StatField<Counters> kCounters[] = {
      Field<&Counters::absorbed_bytes>("absorbed_bytes", kBytes),
      Field<&Counters::newly_dirtied_bytes>("newly_dirtied_bytes", kBytes),
      Field<&Counters::rewritten_dirty_bytes>("rewritten_dirty_bytes", kBytes),
      Field<&Counters::written_back_bytes>("written_back_bytes", kBytes),
      Field<&Counters::writeback_requests>("writeback_requests", kCount),
      Field<&Counters::writeback_errors>("writeback_errors", kCount),
      Field<&Counters::throttled_writes>("throttled_writes", kCount),
      Field<&Counters::throttled_ns>("throttled_ns", kNanos),
      Field<&Counters::read_hit_bytes>("read_hit_bytes", kBytes),
      Field<&Counters::read_miss_bytes>("read_miss_bytes", kBytes),
      Field<&Counters::child_read_bytes>("child_read_bytes", kBytes),
      Field<&Counters::readahead_bytes>("readahead_bytes", kBytes),
      Field<&Counters::evicted_bytes>("evicted_bytes", kBytes),
      Field<&Counters::fsyncs>("fsyncs", kCount),
      Field<&Counters::fsync_ns_total>("fsync_ns_total", kNanos),
      Field<&Counters::fsync_ns_max>("fsync_ns_max", kNanos),
      Field<&Counters::fsync_written_bytes>("fsync_written_bytes", kBytes),
      Field<&Counters::last_fsync_ns>("last_fsync_ns", kNanos),
      Field<&Counters::last_fsync_bytes>("last_fsync_bytes", kBytes),
  };
  static constexpr StatField<Counters> kNfs[] = {
      Field<&Counters::nfs_rewrite_waits>("nfs_rewrite_waits", kCount),
      Field<&Counters::nfs_rewrite_wait_ns>("nfs_rewrite_wait_ns", kNanos),
      Field<&Counters::nfs_commits>("nfs_commits", kCount),
      Field<&Counters::nfs_congested_skips>("nfs_congested_skips", kCount),
  };
  AppendStatTable(*this, kCache, out);
  AppendStatTable(counters(), kCounters, out);
  if (nfs_client_) AppendStatTable(counters(), kNfs, out);  // block devices' stats unchanged
}

}  // namespace storlab
