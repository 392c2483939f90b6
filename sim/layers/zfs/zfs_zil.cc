// ZfsPool: the ZFS intent log (zil_commit): sync writes and fsync.
#include <algorithm>
#include <memory>
#include <set>

#include "sim/layers/zfs/zfs.h"

namespace storlab {

void ZfsPool::ZilCommit(uint32_t file, bool fsync, Callback<void(Status)> done) {
  zil_waiting_.push_back({file, fsync, engine_.now(), std::move(done)});
  if (!zil_busy_) StartZilCommit();
}

void ZfsPool::StartZilCommit() {
  // One commit at a time: a waiter that arrives meanwhile waits for the
  // next one (its writes may be in this one's log blocks, not yet durable).
  if (zil_busy_ || zil_waiting_.empty()) return;
  // Everyone waiting shares one commit (the ZIL batches concurrent
  // committers into the same log blocks).
  std::vector<ZilWaiter> batch = std::move(zil_waiting_);
  zil_waiting_.clear();
  bool all = false;
  std::set<uint32_t> files;
  for (const ZilWaiter& w : batch) {
    if (w.file == 0) all = true;
    files.insert(w.file);
  }
  const uint64_t rs = config_.record_size;
  std::vector<LogEntry> entries;
  uint64_t log_bytes = 0, max_txg = 0;
  std::set<uint64_t> indirect;  // records written in place (WR_INDIRECT)
  for (auto& [file, list] : itxs_) {
    if (!all && !files.count(file)) continue;
    for (Itx& i : list) {
      if (i.logged || i.txg <= committed_txg_) continue;
      i.logged = true;
      max_txg = std::max(max_txg, i.txg);
      LogEntry e{i.txg, i.offset, i.length, {}};
      if (keeps_data_) {  // WR_NEED_COPY: the data as it is now
        e.data.resize(i.length);
        (void)store_->Read(i.offset, i.length, e.data.data());
        syncing_->Patch(i.offset, i.length, e.data.data());
        open_->Patch(i.offset, i.length, e.data.data());
      }
      entries.push_back(std::move(e));
      log_bytes += config_.itx_header_bytes;
      if (!vdevs_.has_slog() && i.length >= config_.immediate_write_bytes) {
        for (uint64_t rec = RecordOf(i.offset); rec <= LastRecordOf(i.offset, i.length); ++rec)
          indirect.insert(rec);
      } else {
        log_bytes += i.length;
      }
    }
  }
  if (entries.empty()) {  // nothing to log: every write is already durable
    engine_.After(Nanos(0),
                  [this, b = std::move(batch)]() mutable { ZilDone(std::move(b), {}, Status()); });
    zil_busy_ = true;
    return;
  }
  zil_busy_ = true;
  ++counters_.zil_commits;
  counters_.zil_bytes += log_bytes;
  // Log blocks of up to zil_maxblocksize, and the in-place record writes.
  const uint64_t blocks = (log_bytes + config_.zil_block_bytes - 1) / config_.zil_block_bytes;
  struct Pending {
    uint64_t left = 1;
    Status status;
  };
  auto pending = std::make_shared<Pending>();
  auto finish = std::make_shared<Callback<void(Status)>>();
  auto one_done = [pending, finish](Status st) {
    if (!st.ok() && pending->status.ok()) pending->status = st;
    if (--pending->left == 0) (*finish)(pending->status);
  };
  *finish = [this, b = std::move(batch), e = std::move(entries)](Status st) mutable {
    if (!st.ok()) return ZilDone(std::move(b), {}, st);
    // zil_lwb_flush_vdevs(): the log is durable once the devices flushed.
    auto flushed = [this, b = std::move(b), e = std::move(e)](Status s) mutable {
      ZilDone(std::move(b), std::move(e), s);
    };
    if (vdevs_.has_slog()) {
      vdevs_.FlushSlog(std::move(flushed));
    } else {
      vdevs_.FlushMembers(std::move(flushed));
    }
  };
  for (uint64_t b = 0; b < blocks; ++b) {
    const uint64_t bytes =
        std::min(config_.zil_block_bytes, log_bytes - b * config_.zil_block_bytes);
    ++pending->left;
    if (vdevs_.has_slog()) {
      vdevs_.SlogWrite(bytes, one_done);
      continue;
    }
    ZfsBp bp;
    const uint64_t psize = (bytes + ZfsVdevs::kSector - 1) / ZfsVdevs::kSector * ZfsVdevs::kSector;
    if (!vdevs_.Allocate(psize, &bp)) {
      ++counters_.alloc_failures;
      --pending->left;
      continue;
    }
    zil_blocks_.emplace_back(max_txg, bp);
    vdevs_.Write(bp, ZfsIoClass::kSyncWrite, one_done);
  }
  for ([[maybe_unused]] uint64_t rec : indirect) {  // dmu_sync(): the record, in place
    ZfsBp bp;
    const ZfsCompressed c = compressor_.Compress(nullptr, rs);
    if (!vdevs_.Allocate(c.psize, &bp)) {
      ++counters_.alloc_failures;
      continue;
    }
    ++pending->left;
    counters_.zil_indirect_bytes += c.psize;
    zil_blocks_.emplace_back(max_txg, bp);
    vdevs_.Write(bp, ZfsIoClass::kSyncWrite, one_done);
  }
  one_done(Status());  // drop the hold
}

void ZfsPool::ZilDone(std::vector<ZilWaiter> batch, std::vector<LogEntry> entries, Status st) {
  if (st.ok()) {
    // Records whose txg committed while the log was being written are
    // obsolete already: replaying them would undo newer committed data.
    for (LogEntry& e : entries)
      if (e.txg > committed_txg_) zil_log_.push_back(std::move(e));
  }
  zil_busy_ = false;
  for (ZilWaiter& w : batch) {
    if (w.fsync) {
      const uint64_t ns = static_cast<uint64_t>((engine_.now() - w.started).count());
      ++counters_.fsyncs;
      counters_.fsync_ns_total += ns;
      counters_.fsync_ns_max = std::max(counters_.fsync_ns_max, ns);
      counters_.last_fsync_ns = ns;
    }
    w.done(st);
  }
  StartZilCommit();
}

}  // namespace storlab
