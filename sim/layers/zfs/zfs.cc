// ZfsPool: construction, request dispatch and stats (its factory:
// sim/profile/factories/zfs_factory.cc).
// Writes: zfs_write.cc; reads: zfs_read.cc; the ARC: zfs_arc.h; transaction
// groups and the write throttle: zfs_txg.h; the ZIL: zfs_zil.h.
#include "sim/layers/zfs/zfs.h"

#include <algorithm>

#include "sim/stat_table.h"

namespace storlab {

uint64_t ZfsPool::DefaultCapacity(uint64_t usable, uint64_t dirty_max, uint64_t record) {
  const uint64_t room = usable - usable / 32;  // spa_slop_shift = 5
  // A txg rewrites at most dirty_max of records; copy-on-write needs that
  // much free space beside the data.
  const uint64_t cap = room / 2 > dirty_max ? room - dirty_max : room / 2;
  return cap / record * record;
}

ZfsPool::ZfsPool(Engine& engine, std::string name, const ZfsConfig& config,
                 const std::vector<ZfsVdevs::MemberSpec>& members, Node* slog,
                 std::unique_ptr<Store> store, bool keeps_data)
    : Node(engine, std::move(name)),
      config_(config),
      cpu_(config.host.cores, config.host.copy_bytes_per_s_per_core, config.host.memory_bandwidth),
      compressor_(config.compression, config.rates, config.compress_ratio),
      vdevs_(members, slog, config.vdevs),
      members_(),
      slog_(slog),
      store_(std::move(store)),
      // zfs_arc_max: half the RAM unless set.
      arc_(config.arc_bytes ? config.arc_bytes : config.host.mem_bytes / 2, config.record_size),
      txg_(engine, config_, keeps_data, *this, *store_, cpu_, compressor_, vdevs_, arc_),
      zil_(engine,
           ZfsZil::Config{config.record_size, config.immediate_write_bytes, config.zil_block_bytes,
                          config.itx_header_bytes, keeps_data},
           *this, vdevs_, compressor_) {
  for (const auto& m : members)
    if (std::find(members_.begin(), members_.end(), m.node) == members_.end())
      members_.push_back(m.node);
  if (config_.arc_bytes == 0) config_.arc_bytes = config.host.mem_bytes / 2;
  geometry_.capacity = config.capacity;
  geometry_.logical_block = 512;
  geometry_.physical_block = static_cast<uint32_t>(std::min<uint64_t>(config.record_size, 1 << 20));
  caps_.trim = true;
  caps_.volatile_cache = true;
  caps_.caches_reads = true;  // the ARC
  caps_.queue_depth = 1024;
  caps_.uses_write_data = config.compression != ZfsCompression::kOff;
  caps_.honors_flush = caps_.honors_fua = true;
  for (Node* m : children()) {
    caps_.honors_flush = caps_.honors_flush && m->caps().honors_flush;
    caps_.honors_fua = caps_.honors_fua && m->caps().honors_flush;
    caps_.rotational = caps_.rotational || m->caps().rotational;
  }
  if (config_.sync == ZfsSync::kDisabled) caps_.honors_flush = caps_.honors_fua = false;
  // sync=always: a write completes once it is in the ZIL on stable storage.
  if (config_.sync == ZfsSync::kAlways && caps_.honors_flush) caps_.volatile_cache = false;
}

ZfsPool::~ZfsPool() = default;

std::vector<Node*> ZfsPool::children() const {
  std::vector<Node*> v = members_;
  if (slog_) v.push_back(slog_);
  return v;
}

ZfsPool::Counters ZfsPool::counters() const {
  Counters c = counters_;
  const ZfsTxgSync::Counters& t = txg_.counters();
  c.txgs = t.txgs;
  c.records_written = t.records_written;
  c.logical_bytes = t.logical_bytes;
  c.physical_bytes = t.physical_bytes;
  c.compressed_records = t.compressed_records;
  c.hole_records = t.hole_records;
  c.compress_cpu_ns = t.compress_cpu_ns;
  c.throttled_writes = t.throttled_writes;
  c.throttle_ns = t.throttle_ns;
  c.last_txg_ns = t.last_txg_ns;
  const ZfsZil::Counters& z = zil_.counters();
  c.alloc_failures = t.alloc_failures + z.alloc_failures;
  c.zil_commits = z.commits;
  c.zil_bytes = z.bytes;
  c.zil_indirect_bytes = z.indirect_bytes;
  c.fsyncs = z.fsyncs;
  c.fsync_ns_total = z.fsync_ns_total;
  c.fsync_ns_max = z.fsync_ns_max;
  c.last_fsync_ns = z.last_fsync_ns;
  return c;
}

void ZfsPool::CopyCurrent(uint64_t offset, uint64_t length, uint8_t* out) const {
  (void)store_->Read(offset, length, out);
  txg_.PatchDirty(offset, length, out);
}

bool ZfsPool::InMemory(uint64_t rec) const { return txg_.HoldsWhole(rec) || InArc(rec); }

void ZfsPool::OnPowerCut() {
  txg_.PowerCut();
  zil_.PowerCut();
  arc_.Clear();
  record_reads_.clear();
  cpu_.Reset();
  // zil_replay(): the committed log records become the first txg's writes.
  // They stay in the log until that txg commits.
  zil_.Replay(txg_.open_txg(), [this](const ZfsZil::LogEntry& e) {
    txg_.Replay(e.offset, e.length, e.data.data());
  });
  txg_.ArmTimer();
  txg_.RecordDirty();
}

void ZfsPool::DoSubmit(Request req) {
  switch (req.op) {
    case Op::kRead:
      return StartRead(std::move(req));
    case Op::kWrite:
    case Op::kTrim:
    case Op::kWriteZeroes:
      return txg_.Throttle(std::move(req));  // then Admitted -> Prepare
    case Op::kFlush: {
      if (config_.sync == ZfsSync::kDisabled) return CompleteAfter(Nanos(0), std::move(req));
      // fsync(2) on ZFS is zil_commit() of the file (0: every file).
      zil_.Commit(req.file_id, true,
                  [done = std::move(req.done)](Status st) mutable { done(std::move(st)); });
      return;
    }
  }
}

void ZfsPool::AppendStats(StatList& out) const {
  static constexpr StatField<ZfsPool> kPool[] = {
      {"dirty_bytes", kBytes, [](const ZfsPool& z) { return StatNumber(z.dirty_bytes()); }},
      {"dirty_max_bytes", kBytes, [](const ZfsPool& z) { return StatNumber(z.dirty_max_bytes()); }},
      {"arc_used_bytes", kBytes, [](const ZfsPool& z) { return StatNumber(z.arc_.used_bytes()); }},
      {"dbuf_cache_bytes", kBytes,
       [](const ZfsPool& z) { return StatNumber(z.arc_.uncompressed_bytes()); }},
      {"committed_txg", kCount, [](const ZfsPool& z) { return StatNumber(z.committed_txg()); }},
  };
  static constexpr StatField<Counters> kCounters[] = {
      Field<&Counters::absorbed_bytes>("absorbed_bytes", kBytes),
      Field<&Counters::sync_write_bytes>("sync_write_bytes", kBytes),
      Field<&Counters::rmw_reads>("rmw_reads", kCount),
      Field<&Counters::dbuf_decompressions>("dbuf_decompressions", kCount),
      Field<&Counters::decompress_cpu_ns>("decompress_cpu_ns", kNanos),
      Field<&Counters::arc_hits>("arc_hits", kCount),
      Field<&Counters::arc_misses>("arc_misses", kCount),
      Field<&Counters::txgs>("txgs", kCount),
      Field<&Counters::records_written>("records_written", kCount),
      Field<&Counters::logical_bytes>("logical_bytes", kBytes),
      Field<&Counters::physical_bytes>("physical_bytes", kBytes),
      Field<&Counters::compressed_records>("compressed_records", kCount),
      Field<&Counters::compress_cpu_ns>("compress_cpu_ns", kNanos),
      Field<&Counters::alloc_failures>("alloc_failures", kCount),
      Field<&Counters::throttled_writes>("throttled_writes", kCount),
      Field<&Counters::throttle_ns>("throttle_ns", kNanos),
      Field<&Counters::zil_commits>("zil_commits", kCount),
      Field<&Counters::zil_bytes>("zil_bytes", kBytes),
      Field<&Counters::zil_indirect_bytes>("zil_indirect_bytes", kBytes),
      Field<&Counters::fsyncs>("fsyncs", kCount),
      Field<&Counters::fsync_ns_total>("fsync_ns_total", kNanos),
      Field<&Counters::fsync_ns_max>("fsync_ns_max", kNanos),
      Field<&Counters::last_fsync_ns>("last_fsync_ns", kNanos),
      Field<&Counters::last_txg_ns>("last_txg_ns", kNanos),
  };
  AppendStatTable(*this, kPool, out);
  AppendStatTable(counters(), kCounters, out);
}

}  // namespace storlab
