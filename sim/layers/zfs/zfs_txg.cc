// ZfsTxgSync: transaction groups (txg_sync_thread, dsl_pool_sync,
// vdev_config_sync), the write throttle (dmu_tx_delay) and power cuts.
#include "sim/layers/zfs/zfs_txg.h"

#include <algorithm>
#include <vector>

#include "sim/layers/zfs/zfs.h"

namespace storlab {

ZfsTxgSync::ZfsTxgSync(Engine& engine, const ZfsConfig& config, bool keeps_data, Pool& pool,
                       Store& store, HostCpu& cpu, const ZfsCompressor& compressor, ZfsVdevs& vdevs,
                       ZfsArc& arc)
    : engine_(engine),
      config_(config),
      record_size_(config.record_size),
      keeps_data_(keeps_data),
      pool_(pool),
      store_(store),
      cpu_(cpu),
      compressor_(compressor),
      vdevs_(vdevs),
      arc_(arc),
      // zfs_dirty_data_max: 10 % of RAM, at most 4 GiB, unless set.
      dirty_max_(config.dirty_max_bytes ? config.dirty_max_bytes
                                        : std::min(config.host.mem_bytes / 10, uint64_t{4} << 30)),
      open_(std::make_unique<Overlay>(keeps_data)),
      syncing_(std::make_unique<Overlay>(keeps_data)) {
  if (!keeps_data && config.compression != ZfsCompression::kOff)
    sample_ = std::make_unique<ZfsSample>(config.record_size, config.seed);
}

bool ZfsTxgSync::HoldsWhole(uint64_t rec) const {
  if (const TxgRecord* o = open_records_->Find(rec); o && o->full) return true;
  const TxgRecord* s = syncing_lookup_->Find(rec);
  return s && s->full;
}

const ZfsBp* ZfsTxgSync::Block(uint64_t rec) const { return committed_bps_.Find(rec); }

void ZfsTxgSync::PatchDirty(uint64_t off, uint64_t len, uint8_t* buf) const {
  // Newest wins: the syncing txg, then the open txg.
  syncing_->Patch(off, len, buf);
  open_->Patch(off, len, buf);
}

void ZfsTxgSync::RecordDirty() {
  dirty_series_.Record(engine_.now(), static_cast<double>(dirty_bytes()));
}

void ZfsTxgSync::Throttle(Request req) {
  // dmu_tx_wait(): at zfs_dirty_data_max, writers wait for the sync.
  if (!blocked_.empty() || dirty_bytes() >= dirty_max_) {
    blocked_.push_back(std::move(req));
    MaybeSync(false);
    return;
  }
  Admit(std::move(req));
}

void ZfsTxgSync::WakeBlocked() {
  while (!blocked_.empty() && dirty_bytes() < dirty_max_) {
    Request r = std::move(blocked_.front());
    blocked_.pop_front();
    Admit(std::move(r));
  }
}

void ZfsTxgSync::Admit(Request req) {
  // dmu_tx_delay(), once per transaction: one per record the write touches.
  const uint64_t dirty = dirty_bytes();
  const uint64_t min =
      static_cast<uint64_t>(static_cast<double>(dirty_max_) * config_.delay_min_fraction);
  const Nanos now = engine_.now();
  if (dirty > min && dirty < dirty_max_) {
    const uint64_t txs = LastRecordOf(req.offset, req.length) - RecordOf(req.offset) + 1;
    const double per = static_cast<double>(config_.delay_scale.count()) *
                       static_cast<double>(dirty - min) / static_cast<double>(dirty_max_ - dirty);
    const Nanos tx_time = Min(config_.delay_max, Nanos(static_cast<int64_t>(per))) * txs;
    const Nanos wake = Max(now + tx_time, last_wakeup_ + tx_time);
    last_wakeup_ = wake;
    ++counters_.throttled_writes;
    counters_.throttle_ns += static_cast<uint64_t>((wake - now).count());
    engine_.At(wake, [this, r = std::move(req)]() mutable { pool_.Admitted(std::move(r)); });
    return;
  }
  pool_.Admitted(std::move(req));
}

uint64_t ZfsTxgSync::Dirty(const Request& req) {
  const uint64_t rs = record_size_;
  const bool zero = req.op != Op::kWrite;
  for (uint64_t rec = RecordOf(req.offset); rec <= LastRecordOf(req.offset, req.length); ++rec) {
    const bool whole = req.offset <= rec * rs && req.offset + req.length >= (rec + 1) * rs;
    TxgRecord* it = open_records_->Find(rec);
    if (!it) {
      TxgRecord tr;
      tr.file = req.file_id;
      tr.full = whole || InMemory(rec) || !committed_bps_.Find(rec);
      tr.freed = zero && whole;
      *open_records_->TryEmplace(rec).first = tr;
      if (!tr.freed) open_dirty_ += rs;  // dbuf_dirty: the whole record counts
    } else {
      TxgRecord& tr = *it;
      if (tr.freed && !(zero && whole)) {  // written again after a free
        tr.freed = false;
        open_dirty_ += rs;
      } else if (!tr.freed && zero && whole) {
        tr.freed = true;
        open_dirty_ -= rs;
      }
      tr.full = tr.full || whole;
    }
    arc_.Touch(rec);
  }
  if (zero) {
    open_->PutZeros(req.offset, req.length);
    if (sample_) sample_->Zero(req.offset, req.length);
  } else {
    open_->Put(req.offset, req.length, req.data);
    if (sample_) sample_->Write(req.offset, req.length, req.data, has_block_);
  }
  const uint64_t txg = open_txg_;
  RecordDirty();
  UpdateAsyncLimit();
  MaybeSync(false);
  ArmTimer();
  return txg;
}

void ZfsTxgSync::UpdateAsyncLimit() {
  // vdev_queue_max_async_writes(): min_active below 30 % dirty, max_active
  // above 60 %, linear between.
  const double f = static_cast<double>(dirty_bytes()) / static_cast<double>(dirty_max_);
  const double lo = config_.async_write_min_dirty, hi = config_.async_write_max_dirty;
  const uint32_t min = config_.vdevs.async_write_min_active;
  const uint32_t max = config_.vdevs.max_active[static_cast<int>(ZfsIoClass::kAsyncWrite)];
  uint32_t n = min;
  if (f >= hi) {
    n = max;
  } else if (f > lo) {
    n = min + static_cast<uint32_t>((f - lo) / (hi - lo) * (max - min));
  }
  vdevs_.set_async_write_limit(n);
}

void ZfsTxgSync::ArmTimer() {
  if (timer_armed_ || open_records_->empty()) return;
  timer_armed_ = true;
  const Nanos at = Max(engine_.now(), last_sync_start_ + config_.txg_timeout);
  engine_.At(at, [this] {
    timer_armed_ = false;
    MaybeSync(true);
  });
}

void ZfsTxgSync::MaybeSync(bool timer) {
  if (syncing_now_ || open_records_->empty()) return;
  const uint64_t sync_bytes =
      static_cast<uint64_t>(static_cast<double>(dirty_max_) * config_.dirty_sync_fraction);
  const bool due = timer || engine_.now() >= last_sync_start_ + config_.txg_timeout;
  // txg_kick(): the open txg holds zfs_dirty_data_sync_percent, or writers
  // are waiting at the maximum.
  if (due || open_dirty_ > sync_bytes || !blocked_.empty()) {
    StartTxg();
  } else {
    ArmTimer();
  }
}

void ZfsTxgSync::StartTxg() {
  syncing_now_ = true;
  last_sync_start_ = engine_.now();
  syncing_txg_ = open_txg_++;
  std::swap(open_, syncing_);  // the open txg quiesces; a new one opens
  open_->Clear();
  syncing_records_.clear();
  syncing_records_.reserve(open_records_->size());
  open_records_->ForEach(
      [&](uint64_t rec, const TxgRecord& tr) { syncing_records_.emplace_back(rec, tr); });
  std::sort(syncing_records_.begin(), syncing_records_.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  std::swap(open_records_, syncing_lookup_);
  open_records_->Clear();
  syncing_dirty_ = open_dirty_;
  open_dirty_ = 0;
  const uint64_t rs = record_size_;
  const std::vector<std::pair<uint64_t, ZfsCompressed>> records = CompressRecords();
  writes_left_ = 1;  // held until every write is issued
  for (const auto& [rec, c] : records) {
    counters_.compress_cpu_ns += static_cast<uint64_t>(c.cpu.count());
    // The zio pipeline compresses on the issue taskq threads (the cores),
    // then queues the write at the vdevs.
    const Nanos ready = c.cpu > Nanos(0) ? cpu_.Compute(engine_.now(), c.cpu, rs) : engine_.now();
    ++writes_left_;
    // rec = rec, c = c: clang before 16 cannot capture a structured binding.
    engine_.At(ready, [this, rec = rec, c = c] { WriteRecord(rec, c); });
  }
  RecordWritten();  // drop the hold
}

std::vector<std::pair<uint64_t, ZfsCompressed>> ZfsTxgSync::CompressRecords() {
  // Each record as it will be on disk, compressed: with data, committed
  // bytes under the txg's; without, the sampled records' bytes (at most
  // ZfsSample::kPerTxg of them, evenly spread), whose outcomes the other
  // records take (zfs_sample.h).
  const uint64_t rs = record_size_;
  std::vector<uint8_t> buf(keeps_data_ ? rs : 0);
  std::vector<std::pair<uint64_t, ZfsCompressed>> records;
  std::vector<size_t> with_bytes;
  for (const auto& [rec, tr] : syncing_records_) {
    if (tr.freed) continue;
    records.emplace_back(rec, ZfsCompressed());
    if (keeps_data_) {
      std::fill(buf.begin(), buf.end(), 0);
      (void)store_.Read(rec * rs, rs, buf.data());
      syncing_->Patch(rec * rs, rs, buf.data());
      records.back().second = compressor_.Compress(buf.data(), rs);
    } else if (!sample_) {
      records.back().second = compressor_.Compress(nullptr, rs);
    } else if (sample_->Bytes(rec) != nullptr) {
      with_bytes.push_back(records.size() - 1);
    }
  }
  if (!sample_) return records;
  std::vector<bool> done(records.size(), false);
  std::vector<ZfsCompressed> sampled;
  const size_t n = std::min<size_t>(with_bytes.size(), ZfsSample::kPerTxg);
  for (size_t i = 0; i < n; ++i) {
    const size_t at = with_bytes[i * with_bytes.size() / n];
    records[at].second = compressor_.Compress(sample_->Bytes(records[at].first), rs);
    sampled.push_back(records[at].second);
    done[at] = true;
  }
  if (!sampled.empty()) last_sampled_ = std::move(sampled);
  size_t k = 0;
  for (size_t i = 0; i < records.size(); ++i) {
    if (done[i]) continue;
    records[i].second = last_sampled_.empty() ? compressor_.Compress(nullptr, rs)
                                              : last_sampled_[k++ % last_sampled_.size()];
  }
  return records;
}

void ZfsTxgSync::WriteRecord(uint64_t rec, ZfsCompressed c) {
  const uint64_t rs = record_size_;
  ZfsBp bp;
  if (c.psize == 0) {
    // An all-zero record: a hole, no block and no I/O (zio_write_compress).
    ++counters_.records_written;
    ++counters_.hole_records;
    counters_.logical_bytes += rs;
    syncing_dirty_ -= std::min(syncing_dirty_, rs);
    RecordDirty();
    UpdateAsyncLimit();
    WakeBlocked();
    return RecordWritten();
  }
  if (!vdevs_.Allocate(c.psize, &bp)) {
    ++counters_.alloc_failures;  // should not happen: capacity leaves room
    syncing_dirty_ -= std::min(syncing_dirty_, rs);
    return RecordWritten();
  }
  bp.compressed = c.compressed;
  bp.decompress_cpu = c.decompress_cpu;
  ++counters_.records_written;
  counters_.logical_bytes += rs;
  counters_.physical_bytes += c.psize;
  if (c.compressed) ++counters_.compressed_records;
  vdevs_.Write(bp, ZfsIoClass::kAsyncWrite, [this, rec, bp, rs](Status st) {
    *pending_bps_.TryEmplace(rec).first = bp;
    // dbuf_write_physdone(): dirty space is released as records land.
    syncing_dirty_ -= std::min(syncing_dirty_, rs);
    RecordDirty();
    UpdateAsyncLimit();
    WakeBlocked();
    RecordWritten();
  });
}

void ZfsTxgSync::RecordWritten() {
  if (--writes_left_ > 0) return;
  CommitTxg();
}

void ZfsTxgSync::CommitTxg() {
  // vdev_config_sync(): flush, write the uberblock to every label, flush.
  vdevs_.FlushMembers([this](Status st) {
    if (!st.ok()) return Committed(st);
    vdevs_.WriteUberblock(syncing_txg_, [this](Status st2) {
      if (!st2.ok()) return Committed(st2);
      vdevs_.FlushMembers([this](Status st3) { Committed(st3); });
    });
  });
}

void ZfsTxgSync::Committed(Status st) {
  // The txg is on stable storage: its data joins the committed content,
  // blocks it replaced are free again, and its log records are obsolete.
  (void)st;  // a failed flush leaves the data where the members put it
  const uint64_t rs = record_size_;
  (void)syncing_->DrainAllTo(store_);
  syncing_->Clear();
  for (const auto& [rec, tr] : syncing_records_) {
    if (const ZfsBp* old = committed_bps_.Find(rec)) {
      vdevs_.Free(*old);
      committed_bps_.Erase(rec);
    }
    const ZfsBp* nb = pending_bps_.Find(rec);
    if (!tr.freed && nb) {
      *committed_bps_.TryEmplace(rec).first = *nb;
      arc_.Insert(rec);
    } else if (tr.freed) {
      (void)store_.Zero(rec * rs, rs);
    }
  }
  pending_bps_.Clear();
  syncing_records_.clear();
  syncing_lookup_->Clear();
  syncing_dirty_ = 0;
  committed_txg_ = syncing_txg_;
  pool_.TxgCommitted(committed_txg_);
  ++counters_.txgs;
  counters_.last_txg_ns = static_cast<uint64_t>((engine_.now() - last_sync_start_).count());
  syncing_now_ = false;
  RecordDirty();
  UpdateAsyncLimit();
  WakeBlocked();
  MaybeSync(false);
}

void ZfsTxgSync::PowerCut() {
  open_->Clear();
  syncing_->Clear();
  open_records_->Clear();
  syncing_records_.clear();
  syncing_lookup_->Clear();
  open_dirty_ = syncing_dirty_ = 0;
  syncing_now_ = false;
  writes_left_ = 0;
  timer_armed_ = false;
  pending_bps_.Clear();
  blocked_.clear();
  last_wakeup_ = Nanos();
  last_sync_start_ = engine_.now();
  vdevs_.Reset([this](const std::function<void(const ZfsBp&)>& use) {
    committed_bps_.ForEach([&](uint64_t, const ZfsBp& bp) { use(bp); });
  });
  open_txg_ = committed_txg_ + 1;
}

void ZfsTxgSync::Replay(uint64_t offset, uint64_t length, const uint8_t* data) {
  const uint64_t rs = record_size_;
  if (keeps_data_) open_->Put(offset, length, data);
  if (sample_) sample_->Write(offset, length, data, has_block_);
  for (uint64_t rec = RecordOf(offset); rec <= LastRecordOf(offset, length); ++rec) {
    auto [it, inserted] = open_records_->TryEmplace(rec);
    const bool whole = offset <= rec * rs && offset + length >= (rec + 1) * rs;
    if (inserted) {
      it->full = whole || !committed_bps_.Find(rec);
      open_dirty_ += rs;
    }
    it->full = it->full || whole;
  }
}

}  // namespace storlab
