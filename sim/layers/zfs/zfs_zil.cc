// ZfsZil: the ZFS intent log (zil_commit): sync writes and fsync.
#include "sim/layers/zfs/zfs_zil.h"

#include <algorithm>
#include <memory>
#include <set>

namespace storlab {

void ZfsZil::Commit(uint32_t file, bool fsync, Callback<void(Status)> done) {
  waiting_.push_back({file, fsync, engine_.now(), std::move(done)});
  if (!busy_) Start();
}

void ZfsZil::Start() {
  // One commit at a time: a waiter that arrives meanwhile waits for the
  // next one (its writes may be in this one's log blocks, not yet durable).
  if (busy_ || waiting_.empty()) return;
  // Everyone waiting shares one commit (the ZIL batches concurrent
  // committers into the same log blocks).
  std::vector<Waiter> batch = std::move(waiting_);
  waiting_.clear();
  bool all = false;
  std::set<uint32_t> files;
  for (const Waiter& w : batch) {
    if (w.file == 0) all = true;
    files.insert(w.file);
  }
  const uint64_t rs = config_.record_size;
  const uint64_t committed = pool_.committed_txg();
  std::vector<LogEntry> entries;
  uint64_t log_bytes = 0, max_txg = 0;
  std::set<uint64_t> indirect;  // records written in place (WR_INDIRECT)
  for (auto& [f, list] : itxs_) {
    if (!all && !files.count(f)) continue;
    for (Itx& i : list) {
      if (i.logged || i.txg <= committed) continue;
      i.logged = true;
      max_txg = std::max(max_txg, i.txg);
      LogEntry e{i.txg, i.offset, i.length, {}};
      if (config_.keeps_data) {  // WR_NEED_COPY: the data as it is now
        e.data.resize(i.length);
        pool_.CopyCurrent(i.offset, i.length, e.data.data());
      }
      entries.push_back(std::move(e));
      log_bytes += config_.itx_header_bytes;
      if (!vdevs_.has_slog() && i.length >= config_.immediate_write_bytes) {
        for (uint64_t rec = i.offset / rs; rec <= (i.offset + i.length - 1) / rs; ++rec)
          indirect.insert(rec);
      } else {
        log_bytes += i.length;
      }
    }
  }
  if (entries.empty()) {  // nothing to log: every write is already durable
    engine_.After(Nanos(0),
                  [this, b = std::move(batch)]() mutable { Done(std::move(b), {}, Status()); });
    busy_ = true;
    return;
  }
  busy_ = true;
  ++counters_.commits;
  counters_.bytes += log_bytes;
  // zil_lwb_write_issue(): log blocks of up to zil_maxblocksize, and the
  // in-place record writes.
  const uint64_t blocks = (log_bytes + config_.block_bytes - 1) / config_.block_bytes;
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
    if (!st.ok()) return Done(std::move(b), {}, st);
    // zil_lwb_flush_vdevs(): the log is durable once the devices flushed.
    auto flushed = [this, b = std::move(b), e = std::move(e)](Status s) mutable {
      Done(std::move(b), std::move(e), s);
    };
    if (vdevs_.has_slog()) {
      vdevs_.FlushSlog(std::move(flushed));
    } else {
      vdevs_.FlushMembers(std::move(flushed));
    }
  };
  for (uint64_t b = 0; b < blocks; ++b) {
    const uint64_t bytes = std::min(config_.block_bytes, log_bytes - b * config_.block_bytes);
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
    blocks_.emplace_back(max_txg, bp);
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
    counters_.indirect_bytes += c.psize;
    blocks_.emplace_back(max_txg, bp);
    vdevs_.Write(bp, ZfsIoClass::kSyncWrite, one_done);
  }
  one_done(Status());  // drop the hold
}

void ZfsZil::Done(std::vector<Waiter> batch, std::vector<LogEntry> entries, Status st) {
  if (st.ok()) {
    // Records whose txg committed while the log was being written are
    // obsolete already: replaying them would undo newer committed data.
    const uint64_t committed = pool_.committed_txg();
    for (LogEntry& e : entries)
      if (e.txg > committed) log_.push_back(std::move(e));
  }
  busy_ = false;
  for (Waiter& w : batch) {
    if (w.fsync) {
      const uint64_t ns = static_cast<uint64_t>((engine_.now() - w.started).count());
      ++counters_.fsyncs;
      counters_.fsync_ns_total += ns;
      counters_.fsync_ns_max = std::max(counters_.fsync_ns_max, ns);
      counters_.last_fsync_ns = ns;
    }
    w.done(st);
  }
  Start();
}

void ZfsZil::TxgCommitted(uint64_t txg) {
  // One pass, freeing in log order (an erase per block was quadratic: a
  // 1 GiB fsync after fio's layout logs 131,072 indirect blocks of 8 KiB).
  auto kept = blocks_.begin();
  for (auto& b : blocks_) {
    if (b.first <= txg) {
      vdevs_.Free(b.second);
    } else {
      *kept++ = b;
    }
  }
  blocks_.erase(kept, blocks_.end());
  for (auto& [file, list] : itxs_) {
    list.erase(std::remove_if(list.begin(), list.end(), [&](const Itx& i) { return i.txg <= txg; }),
               list.end());
  }
  log_.erase(
      std::remove_if(log_.begin(), log_.end(), [&](const LogEntry& e) { return e.txg <= txg; }),
      log_.end());
}

void ZfsZil::PowerCut() {
  blocks_.clear();
  itxs_.clear();
  waiting_.clear();
  busy_ = false;
}

}  // namespace storlab
