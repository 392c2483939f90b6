// The ZFS pool's saved state (storlab sim --state, docs/state.md). Saved
// once the pool is idle, so every txg has committed: nothing is dirty, the
// ZIL holds nothing (its records are obsolete once their txg commits), no
// vdev I/O is queued. What is kept:
//   - the committed content (the pool's store: data when the run keeps it);
//   - the dataset's or zvol's block map: each record's block (offset,
//     allocated size, member, compressed or not, what decompressing it
//     costs) — compression sizes are those the blocks took when written;
//   - the space maps: each allocator's free extents and next-fit cursor,
//     the stripe's rotor, the SLOG ring's cursor;
//   - the txg numbers, when the last sync started (the next one is due
//     txg_timeout later), the write throttle's last wakeup;
//   - the ARC's records, least recently used first: RAM, kept as the host
//     page cache is (a run ends without dropping it; --reboot empties it,
//     as a power cut does); not which of them the dbuf cache held
//     uncompressed (zfs_arc.h): after a restore it holds the most recently
//     used;
//   - the host CPU's timeline and, in timing-only runs with compression,
//     the sample of record bytes the compression ratio is measured on.
// Counters are per run.
#include <algorithm>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "sim/layers/zfs/zfs.h"
#include "sim/layers/zfs/zfs_arc.h"
#include "sim/layers/zfs/zfs_sample.h"
#include "sim/layers/zfs/zfs_txg.h"
#include "sim/layers/zfs/zfs_vdevs.h"
#include "sim/state_coding.h"

namespace storlab {
namespace {

void SaveBp(StateWriter& w, const ZfsBp& bp) {
  w.U64(bp.offset);
  w.U64(bp.asize);
  w.U64(bp.member);
  w.Bool(bp.compressed);
  w.Time(bp.decompress_cpu);
}

ZfsBp RestoreBp(StateReader& r) {
  ZfsBp bp;
  bp.offset = r.U64();
  bp.asize = r.U64();
  bp.member = static_cast<uint32_t>(r.Below(1u << 16, "a zfs block's member"));
  bp.compressed = r.Bool();
  bp.decompress_cpu = r.Time();
  return bp;
}

}  // namespace

void ExtentAllocator::SaveState(StateWriter& w) const {
  w.U64(cursor_);
  w.U64(free_.size());
  for (const auto& [off, len] : free_) {
    w.U64(off);
    w.U64(len);
  }
}

Status ExtentAllocator::RestoreState(StateReader& r) {
  cursor_ = r.U64();
  free_.clear();
  free_bytes_ = 0;
  const uint64_t n = r.Count(2);
  uint64_t at = start_;
  for (uint64_t i = 0; i < n && r.ok(); ++i) {
    const uint64_t off = r.U64(), len = r.U64();
    if (r.ok() && (off < at || len == 0 || len > end_ - off || off > end_)) {
      r.Fail("a free extent out of order or outside the vdev");
    }
    if (!r.ok()) break;
    free_[off] = len;
    free_bytes_ += len;
    at = off + len;
  }
  if (r.ok() && (cursor_ < start_ || cursor_ > end_))
    r.Fail("an allocation cursor outside the vdev");
  return r.status();
}

Status ZfsVdevs::SaveState(StateWriter& w) const {
  for (const Member& m : members_) {
    for (size_t c = 0; c < m.queued.size(); ++c) {
      if (!m.queued[c].empty() || m.active[c]) return Status::Internal("zfs vdev not idle");
    }
  }
  w.U64(allocs_.size());
  for (const ExtentAllocator& a : allocs_) a.SaveState(w);
  w.U64(rotor_);
  w.U64(rotor_bytes_);
  w.U64(slog_cursor_);
  w.U64(async_write_limit_);
  return Status();
}

Status ZfsVdevs::RestoreState(StateReader& r) {
  if (r.U64() != allocs_.size() && r.ok()) r.Fail("another number of space maps");
  for (ExtentAllocator& a : allocs_) RETURN_IF_ERROR(a.RestoreState(r));
  rotor_ = static_cast<uint32_t>(r.Below(members_.size(), "the stripe's rotor"));
  rotor_bytes_ = r.U64();
  slog_cursor_ = r.U64();
  async_write_limit_ = static_cast<uint32_t>(r.U64());
  if (r.ok() && (async_write_limit_ < config_.async_write_min_active ||
                 async_write_limit_ > config_.max_active[3])) {
    r.Fail("an async write limit outside its range");
  }
  return r.status();
}

void ZfsArc::SaveState(StateWriter& w) const {
  w.U64(lru_.size());
  for (const Entry& e : lru_) w.U64(e.record);  // least recently used first
}

Status ZfsArc::RestoreState(StateReader& r) {
  const uint64_t n = r.Count(1);
  if (n * record_bytes_ > capacity_bytes_ && n > 1) r.Fail("more records than the ARC holds");
  for (uint64_t i = 0; i < n && r.ok(); ++i) {
    const uint64_t rec = r.U64();
    if (Contains(rec)) {
      r.Fail("a record twice in the ARC");
      break;
    }
    Insert(rec);
  }
  return r.status();
}

void ZfsSample::SaveState(StateWriter& w) const {
  w.U64(considered_);
  // The records considered, as runs of record numbers.
  std::vector<std::pair<uint64_t, uint64_t>> runs;
  for (uint64_t i = 0; i < seen_.size(); ++i) {
    if (!seen_[i]) continue;
    if (!runs.empty() && runs.back().first + runs.back().second == i) {
      ++runs.back().second;
    } else {
      runs.emplace_back(i, 1);
    }
  }
  w.U64(runs.size());
  for (const auto& [first, n] : runs) {
    w.U64(first);
    w.U64(n);
  }
  std::vector<uint64_t> recs;
  recs.reserve(records_.size());
  for (const auto& kv : records_) recs.push_back(kv.first);
  std::sort(recs.begin(), recs.end());
  w.U64(recs.size());
  for (uint64_t rec : recs) {
    w.U64(rec);
    w.Raw(records_.at(rec).get(), record_size_);
  }
}

Status ZfsSample::RestoreState(StateReader& r, uint64_t max_records) {
  considered_ = r.U64();
  const uint64_t runs = r.Count(2);
  uint64_t at = 0;
  for (uint64_t i = 0; i < runs && r.ok(); ++i) {
    const uint64_t first = r.U64(), n = r.U64();
    if (r.ok() && (first < at || n == 0 || first > max_records || n > max_records - first)) {
      r.Fail("a sampled run out of order or past the records");
    }
    if (!r.ok()) break;
    if (first + n > seen_.size()) seen_.resize(first + n);
    for (uint64_t k = first; k < first + n; ++k) seen_[k] = true;
    at = first + n;
  }
  const uint64_t recs = r.Count(record_size_);
  if (r.ok() && recs * record_size_ > kMaxBytes) r.Fail("a sample larger than its limit");
  for (uint64_t i = 0; i < recs && r.ok(); ++i) {
    const uint64_t rec = r.Below(max_records, "a sampled record");
    auto bytes = std::make_unique<uint8_t[]>(record_size_);
    r.Raw(bytes.get(), record_size_);
    records_[rec] = std::move(bytes);
  }
  return r.status();
}

Status ZfsTxgSync::SaveState(StateWriter& w) const {
  if (!open_records_->empty() || !syncing_records_.empty() || syncing_now_ || writes_left_ ||
      timer_armed_ || !blocked_.empty() || !pending_bps_.empty()) {
    return Status::Internal("zfs txgs not idle");
  }
  w.U64(open_txg_);
  w.U64(syncing_txg_);
  w.U64(committed_txg_);
  w.Time(last_sync_start_);
  w.Time(last_wakeup_);
  std::vector<std::pair<uint64_t, ZfsBp>> bps;
  bps.reserve(committed_bps_.size());
  committed_bps_.ForEach([&](uint64_t rec, const ZfsBp& bp) { bps.emplace_back(rec, bp); });
  std::sort(bps.begin(), bps.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  w.U64(bps.size());
  for (const auto& [rec, bp] : bps) {
    w.U64(rec);
    SaveBp(w, bp);
  }
  w.Bool(sample_ != nullptr);
  if (sample_) sample_->SaveState(w);
  w.U64(last_sampled_.size());
  for (const ZfsCompressed& c : last_sampled_) {
    w.U64(c.psize);
    w.Bool(c.compressed);
    w.Time(c.cpu);
    w.Time(c.decompress_cpu);
  }
  return Status();
}

Status ZfsTxgSync::RestoreState(StateReader& r, uint64_t max_records) {
  open_txg_ = r.U64();
  syncing_txg_ = r.U64();
  committed_txg_ = r.U64();
  if (r.ok() && (committed_txg_ >= open_txg_ || syncing_txg_ >= open_txg_)) {
    r.Fail("txg numbers out of order");
  }
  last_sync_start_ = r.Time();
  last_wakeup_ = r.Time();
  const uint64_t n = r.Count(5);
  for (uint64_t i = 0; i < n && r.ok(); ++i) {
    const uint64_t rec = r.U64();
    *committed_bps_.TryEmplace(rec).first = RestoreBp(r);
  }
  if (r.Bool() != (sample_ != nullptr) && r.ok()) r.Fail("saved with(out) a compression sample");
  RETURN_IF_ERROR(r.status());
  if (sample_) RETURN_IF_ERROR(sample_->RestoreState(r, max_records));
  const uint64_t sampled = r.Count(3);
  for (uint64_t i = 0; i < sampled && r.ok(); ++i) {
    ZfsCompressed c;
    c.psize = r.U64();
    c.compressed = r.Bool();
    c.cpu = r.Time();
    c.decompress_cpu = r.Time();
    last_sampled_.push_back(c);
  }
  return r.status();
}

Status ZfsPool::SaveState(StateWriter& w) const {
  if (!record_reads_.empty() || !zil_.empty()) return Status::Internal("zfs pool not idle");
  RETURN_IF_ERROR(store_->SaveState(w));
  cpu_.SaveState(w);
  RETURN_IF_ERROR(vdevs_.SaveState(w));
  RETURN_IF_ERROR(txg_.SaveState(w));
  arc_.SaveState(w);
  return Status();
}

Status ZfsPool::RestoreState(StateReader& r) {
  RETURN_IF_ERROR(store_->RestoreState(r));
  RETURN_IF_ERROR(cpu_.RestoreState(r));
  RETURN_IF_ERROR(vdevs_.RestoreState(r));
  RETURN_IF_ERROR(txg_.RestoreState(r, geometry_.capacity / config_.record_size));
  RETURN_IF_ERROR(arc_.RestoreState(r));
  return r.status();
}

}  // namespace storlab
