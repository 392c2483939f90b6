// ZfsPool: the write path (zfs_write -> dmu_tx_assign -> dbuf_dirty), the
// write throttle, trims and write-zeroes.
#include <algorithm>
#include <memory>

#include "sim/layers/zfs/zfs.h"

namespace storlab {

void ZfsPool::StartWrite(Request req) {
  // dmu_tx_wait(): at zfs_dirty_data_max, writers wait for the sync.
  if (!blocked_.empty() || dirty_bytes() >= dirty_max_) {
    blocked_.push_back(std::move(req));
    MaybeSync(false);
    return;
  }
  Admit(std::move(req));
}

void ZfsPool::WakeBlocked() {
  while (!blocked_.empty() && dirty_bytes() < dirty_max_) {
    Request r = std::move(blocked_.front());
    blocked_.pop_front();
    Admit(std::move(r));
  }
}

void ZfsPool::Admit(Request req) {
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
    engine_.At(wake, [this, r = std::move(req)]() mutable { Prepare(std::move(r)); });
    return;
  }
  Prepare(std::move(req));
}

void ZfsPool::Prepare(Request req) {
  // A write covering part of a record that is not in memory reads it first
  // (dmu_buf_will_dirty -> dbuf_read): only the first and last records can
  // be partial.
  const uint64_t rs = config_.record_size;
  std::vector<uint64_t> need;
  for (uint64_t rec : {RecordOf(req.offset), LastRecordOf(req.offset, req.length)}) {
    const bool partial = req.offset > rec * rs || req.offset + req.length < (rec + 1) * rs;
    if (partial && !InMemory(rec) && committed_bps_.count(rec) &&
        std::find(need.begin(), need.end(), rec) == need.end())
      need.push_back(rec);
  }
  if (need.empty()) {
    const Nanos end = cpu_.Copy(engine_.now(), req.op == Op::kWrite ? req.length : 0);
    engine_.At(end, [this, r = std::move(req)]() mutable { Apply(std::move(r)); });
    return;
  }
  counters_.rmw_reads += need.size();
  // Then again: the records are in the ARC now.
  ReadRecords(need, std::move(req), [this](Request r) { Prepare(std::move(r)); });
}

void ZfsPool::Apply(Request req) {
  const uint64_t rs = config_.record_size;
  const bool zero = req.op != Op::kWrite;
  for (uint64_t rec = RecordOf(req.offset); rec <= LastRecordOf(req.offset, req.length); ++rec) {
    const bool whole = req.offset <= rec * rs && req.offset + req.length >= (rec + 1) * rs;
    auto it = open_records_.find(rec);
    if (it == open_records_.end()) {
      TxgRecord tr;
      tr.file = req.file_id;
      tr.full = whole || InMemory(rec) || !committed_bps_.count(rec);
      tr.freed = zero && whole;
      open_records_.emplace(rec, tr);
      if (!tr.freed) open_dirty_ += rs;  // dbuf_dirty: the whole record counts
    } else {
      TxgRecord& tr = it->second;
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
  } else {
    open_->Put(req.offset, req.length, req.data);
    counters_.absorbed_bytes += req.length;
    if (req.fua()) counters_.sync_write_bytes += req.length;
  }
  zil_.Assign(req.file_id, open_txg_, req.offset, req.length);
  dirty_series_.Record(engine_.now(), static_cast<double>(dirty_bytes()));
  UpdateAsyncLimit();
  MaybeSync(false);
  ArmTimer();
  if (req.fua()) {
    // O_DSYNC: the write is committed to the ZIL before it completes.
    zil_.Commit(req.file_id, false,
                [done = std::move(req.done)](Status st) mutable { done(std::move(st)); });
    return;
  }
  req.done(Status());
}

void ZfsPool::UpdateAsyncLimit() {
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

}  // namespace storlab
