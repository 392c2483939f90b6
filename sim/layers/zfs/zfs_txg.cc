// ZfsPool: transaction groups (txg_sync_thread, dsl_pool_sync,
// vdev_config_sync) and power cuts.
#include <algorithm>
#include <vector>

#include "sim/layers/zfs/zfs.h"

namespace storlab {

void ZfsPool::ArmTimer() {
  if (timer_armed_ || open_records_.empty()) return;
  timer_armed_ = true;
  const Nanos at = Max(engine_.now(), last_sync_start_ + config_.txg_timeout);
  engine_.At(at, [this] {
    timer_armed_ = false;
    MaybeSync(true);
  });
}

void ZfsPool::MaybeSync(bool timer) {
  if (syncing_now_ || open_records_.empty()) return;
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

void ZfsPool::StartTxg() {
  syncing_now_ = true;
  last_sync_start_ = engine_.now();
  syncing_txg_ = open_txg_++;
  std::swap(open_, syncing_);  // the open txg quiesces; a new one opens
  open_->Clear();
  syncing_records_ = std::move(open_records_);
  open_records_.clear();
  syncing_dirty_ = open_dirty_;
  open_dirty_ = 0;
  const uint64_t rs = config_.record_size;
  std::vector<uint8_t> buf(keeps_data_ ? rs : 0);
  writes_left_ = 1;  // held until every write is issued
  for (const auto& [rec, tr] : syncing_records_) {
    if (tr.freed) continue;
    // The record as it will be on disk: committed bytes under the txg's.
    const uint8_t* data = nullptr;
    if (keeps_data_) {
      std::fill(buf.begin(), buf.end(), 0);
      (void)store_->Read(rec * rs, rs, buf.data());
      syncing_->Patch(rec * rs, rs, buf.data());
      data = buf.data();
    }
    const ZfsCompressed c = compressor_.Compress(data, rs);
    counters_.compress_cpu_ns += static_cast<uint64_t>(c.cpu.count());
    // The zio pipeline compresses on the issue taskq threads (the cores),
    // then queues the write at the vdevs.
    const Nanos ready = c.cpu > Nanos(0) ? cpu_.Compute(engine_.now(), c.cpu, rs) : engine_.now();
    ++writes_left_;
    // rec = rec: clang before 16 cannot capture a structured binding.
    engine_.At(ready, [this, rec = rec, c] { WriteRecord(rec, c); });
  }
  RecordWritten();  // drop the hold
}

void ZfsPool::WriteRecord(uint64_t rec, ZfsCompressed c) {
  const uint64_t rs = config_.record_size;
  ZfsBp bp;
  if (!vdevs_.Allocate(c.psize, &bp)) {
    ++counters_.alloc_failures;  // should not happen: capacity leaves room
    syncing_dirty_ -= std::min(syncing_dirty_, rs);
    return RecordWritten();
  }
  bp.compressed = c.compressed;
  ++counters_.records_written;
  counters_.logical_bytes += rs;
  counters_.physical_bytes += c.psize;
  if (c.compressed) ++counters_.compressed_records;
  vdevs_.Write(bp, ZfsIoClass::kAsyncWrite, [this, rec, bp, rs](Status st) {
    pending_bps_[rec] = bp;
    // dbuf_write_physdone(): dirty space is released as records land.
    syncing_dirty_ -= std::min(syncing_dirty_, rs);
    dirty_series_.Record(engine_.now(), static_cast<double>(dirty_bytes()));
    UpdateAsyncLimit();
    WakeBlocked();
    RecordWritten();
  });
}

void ZfsPool::RecordWritten() {
  if (--writes_left_ > 0) return;
  CommitTxg();
}

void ZfsPool::CommitTxg() {
  // vdev_config_sync(): flush, write the uberblock to every label, flush.
  vdevs_.FlushMembers([this](Status st) {
    if (!st.ok()) return Committed(st);
    vdevs_.WriteUberblock(syncing_txg_, [this](Status st2) {
      if (!st2.ok()) return Committed(st2);
      vdevs_.FlushMembers([this](Status st3) { Committed(st3); });
    });
  });
}

void ZfsPool::Committed(Status st) {
  // The txg is on stable storage: its data joins the committed content,
  // blocks it replaced are free again, and its log records are obsolete.
  (void)st;  // a failed flush leaves the data where the members put it
  const uint64_t rs = config_.record_size;
  (void)syncing_->DrainAllTo(*store_);
  syncing_->Clear();
  for (const auto& [rec, tr] : syncing_records_) {
    auto old = committed_bps_.find(rec);
    if (old != committed_bps_.end()) {
      vdevs_.Free(old->second);
      committed_bps_.erase(old);
    }
    auto nb = pending_bps_.find(rec);
    if (!tr.freed && nb != pending_bps_.end()) {
      committed_bps_[rec] = nb->second;
      arc_.Insert(rec);
    } else if (tr.freed) {
      (void)store_->Zero(rec * rs, rs);
    }
  }
  pending_bps_.clear();
  syncing_records_.clear();
  syncing_dirty_ = 0;
  committed_txg_ = syncing_txg_;
  zil_.TxgCommitted(committed_txg_);
  ++counters_.txgs;
  counters_.last_txg_ns = static_cast<uint64_t>((engine_.now() - last_sync_start_).count());
  syncing_now_ = false;
  dirty_series_.Record(engine_.now(), static_cast<double>(dirty_bytes()));
  UpdateAsyncLimit();
  WakeBlocked();
  MaybeSync(false);
}

void ZfsPool::OnPowerCut() {
  open_->Clear();
  syncing_->Clear();
  open_records_.clear();
  syncing_records_.clear();
  open_dirty_ = syncing_dirty_ = 0;
  syncing_now_ = false;
  writes_left_ = 0;
  timer_armed_ = false;
  pending_bps_.clear();
  zil_.PowerCut();
  blocked_.clear();
  arc_.Clear();
  record_reads_.clear();
  cpu_.Reset();
  last_wakeup_ = Nanos();
  last_sync_start_ = engine_.now();
  vdevs_.Reset([this](const std::function<void(const ZfsBp&)>& use) {
    for (const auto& [rec, bp] : committed_bps_) use(bp);
  });
  open_txg_ = committed_txg_ + 1;
  ReplayZil();
  dirty_series_.Record(engine_.now(), static_cast<double>(dirty_bytes()));
}

void ZfsPool::ReplayZil() {
  // zil_replay(): the committed log records become the first txg's writes.
  // They stay in the log until that txg commits.
  const uint64_t rs = config_.record_size;
  zil_.Replay(open_txg_, [&](const ZfsZil::LogEntry& e) {
    if (keeps_data_) open_->Put(e.offset, e.length, e.data.data());
    for (uint64_t rec = RecordOf(e.offset); rec <= LastRecordOf(e.offset, e.length); ++rec) {
      auto [it, inserted] = open_records_.try_emplace(rec);
      const bool whole = e.offset <= rec * rs && e.offset + e.length >= (rec + 1) * rs;
      if (inserted) {
        it->second.full = whole || !committed_bps_.count(rec);
        open_dirty_ += rs;
      }
      it->second.full = it->second.full || whole;
    }
  });
  ArmTimer();
}

}  // namespace storlab
