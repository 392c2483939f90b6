// The SSD's saved state (storlab sim --state, docs/state.md): the Ssd and
// the parts it owns — the FTL's mapping and blocks (ssd_ftl_state.cc), the
// SLC cache, the flash array's timelines and GC debt, the host interface's
// timelines, the write buffer, the map cache of a DRAM-less drive — and its
// wear figures.
// Saved when the drive is idle: no command in it, no program in flight.
// Each part checks that the sizes it reads are the ones its configuration
// gives, so a state never lands in a drive of another geometry.
#include <array>
#include <memory>
#include <utility>
#include <vector>

#include "sim/devices/ssd.h"
#include "sim/devices/ssd_state_runs.h"
#include "sim/state_coding.h"

namespace storlab {
namespace {

using ssd_state::GetInts;
using ssd_state::GetRuns;
using ssd_state::kAnySize;
using ssd_state::PutInts;
using ssd_state::PutRuns;

void PutTimes(StateWriter& w, const std::vector<Nanos>& v) {
  w.U64(v.size());
  for (Nanos t : v) w.Time(t);
}

std::vector<Nanos> GetTimes(StateReader& r, size_t n, const char* what) {
  if (r.U64() != n) r.Fail(std::string(what) + ": another size (another drive geometry)");
  std::vector<Nanos> v(r.ok() ? n : 0);
  for (Nanos& t : v) t = r.Time();
  return v;
}

void PutPipe(StateWriter& w, const SsdPipe& p) {
  w.Time(p.next_free());
  w.Time(p.busy());
}

void GetPipe(StateReader& r, SsdPipe* p) {
  const Nanos next_free = r.Time(), busy = r.Time();
  p->Set(next_free, busy);
}

}  // namespace

void SsdSlcCache::SaveState(StateWriter& w) const {
  w.U64(table_.size());
  for (size_t c = 0; c < table_.size(); ++c) {
    w.Bool(table_[c] != nullptr);
    if (table_[c]) PutRuns(w, table_[c].get(), size_t{1} << kChunkShift);
  }
  w.U64(blocks_.size());
  for (const Block& b : blocks_) {
    w.U64(b.filled);
    w.U64(b.valid);
    w.Bool(b.closed);
    w.U64(b.prev);
    w.U64(b.next);
    PutInts(w, b.units);
  }
  PutInts(w, free_);
  PutInts(w, bucket_);
  w.U64(min_valid_);
  w.U64(open_);
  w.U64(in_use_);
  w.U64(used_);
  w.U64(valid_units_);
  w.U64(reclaimed_);
}

Status SsdSlcCache::RestoreState(StateReader& r) {
  if (r.U64() != table_.size()) r.Fail("slc table: another size (another drive geometry)");
  for (size_t c = 0; c < table_.size() && r.ok(); ++c) {
    table_[c].reset();
    if (!r.Bool()) continue;
    table_[c] = std::make_unique<uint32_t[]>(size_t{1} << kChunkShift);
    if (r.U64() != (1u << kChunkShift)) r.Fail("slc table chunk: another size");
    GetRuns(r, table_[c].get(), uint64_t{1} << kChunkShift, "slc table chunk");
  }
  const uint64_t nblocks = r.Count(6);
  blocks_.assign(nblocks, Block());
  for (Block& b : blocks_) {
    b.filled = r.U64();
    b.valid = static_cast<uint32_t>(r.U64());
    b.closed = r.Bool();
    b.prev = static_cast<uint32_t>(r.U64());
    b.next = static_cast<uint32_t>(r.U64());
    b.units = GetInts<uint32_t>(r, kAnySize, "slc block units");
  }
  free_.clear();
  for (uint32_t f : GetInts<uint32_t>(r, kAnySize, "slc free slots")) {
    if (f >= nblocks) r.Fail("slc free slot out of range");
    free_.push_back(f);
  }
  bucket_ = GetInts<uint32_t>(r, kAnySize, "slc buckets");
  min_valid_ = static_cast<uint32_t>(r.U64());
  open_ = static_cast<uint32_t>(r.U64());
  if (open_ != kNone && open_ >= nblocks) r.Fail("slc open block out of range");
  in_use_ = static_cast<uint32_t>(r.U64());
  used_ = r.U64();
  valid_units_ = r.U64();
  reclaimed_ = r.U64();
  return r.status();
}

void SsdFlashArray::SaveState(StateWriter& w) const {
  PutTimes(w, plane_free_);
  w.U64(channel_.size());
  for (const SsdPipe& p : channel_) PutPipe(w, p);
  w.U64(next_die_);
  for (const auto& s : program_jitter_.state()) w.Words(s);
  w.Time(debt_per_die_);
  PutTimes(w, paid_);
  w.Time(paid_total_);
  w.Time(die_busy_);
}

Status SsdFlashArray::RestoreState(StateReader& r) {
  plane_free_ = GetTimes(r, plane_free_.size(), "flash planes");
  if (r.U64() != channel_.size()) r.Fail("flash channels: another count");
  for (SsdPipe& p : channel_) GetPipe(r, &p);
  next_die_ = static_cast<uint32_t>(r.Below(dies_, "next die"));
  std::array<Random::State, 2> jitter;
  for (auto& s : jitter) s = r.Words();
  program_jitter_.set_state(jitter);
  debt_per_die_ = r.Time();
  paid_ = GetTimes(r, paid_.size(), "flash debts");
  paid_total_ = r.Time();
  die_busy_ = r.Time();
  return r.status();
}

void SsdHostInterface::SaveState(StateWriter& w) const {
  for (const SsdPipe* p : {&controller_, &write_path_, &down_, &up_}) PutPipe(w, *p);
}

Status SsdHostInterface::RestoreState(StateReader& r) {
  for (SsdPipe* p : {&controller_, &write_path_, &down_, &up_}) GetPipe(r, p);
  return r.status();
}

void SsdWriteBuffer::SaveState(StateWriter& w) const {
  w.U64(held_);
  w.U64(next_seq_);
  w.U64(durable_through_);
  w.U64(open_.seq);
  w.U64(open_.size);
  w.U64(open_.data_bytes);
  w.Bool(open_.slc);
  w.Bool(open_.done);
  w.Time(open_.ready);
  w.U64(open_.ranges.size());
  for (const auto& [off, len] : open_.ranges) {
    w.U64(off);
    w.U64(len);
  }
}

Status SsdWriteBuffer::RestoreState(StateReader& r) {
  held_ = r.U64();
  next_seq_ = r.U64();
  durable_through_ = r.U64();
  open_.seq = r.U64();
  open_.size = r.U64();
  open_.data_bytes = r.U64();
  open_.slc = r.Bool();
  open_.done = r.Bool();
  open_.ready = r.Time();
  const uint64_t n = r.Count(2);
  open_.ranges.clear();
  for (uint64_t i = 0; i < n && r.ok(); ++i) {
    const uint64_t off = r.U64(), len = r.U64();
    open_.ranges.emplace_back(off, len);
  }
  return r.status();
}

void SsdMapCache::SaveState(StateWriter& w) const {
  w.U64(lru_.size());
  for (const Segment& s : lru_) {  // coldest first
    w.U64(static_cast<uint64_t>(&s - segments_.data()));
    w.Bool(s.dirty);
  }
  w.U64(hits_);
  w.U64(misses_);
}

Status SsdMapCache::RestoreState(StateReader& r) {
  const uint64_t n = r.Count(2);
  for (uint64_t i = 0; i < n && r.ok(); ++i) {
    const uint64_t idx = r.Below(segments_.size(), "map segment");
    const bool dirty = r.Bool();
    if (!r.ok()) break;
    if (lru_.Linked(segments_[idx])) {
      r.Fail("map segment twice");
      break;
    }
    segments_[idx].dirty = dirty;
    lru_.PushHot(segments_[idx]);
  }
  hits_ = r.U64();
  misses_ = r.U64();
  return r.status();
}

Status Ssd::SaveState(StateWriter& w) const {
  if (!queue_.idle() || buffer_.programs_pending() || !write_waiters_.empty() ||
      !durable_waiters_.empty()) {
    return Status::Internal("ssd not idle");
  }
  w.Words(cut_rng_.state());
  w.U64(committed_through_);
  w.Time(commit_end_);
  w.Time(last_activity_);
  w.Bool(!media_error_.ok());
  w.Bytes(media_error_.message());
  w.U64(flush_commits_);
  for (uint64_t v : {wear_.host_bytes_written, wear_.nand_bytes_written, wear_.gc_copied_bytes,
                     wear_.fold_bytes, wear_.map_bytes_written, wear_.erased_bytes}) {
    w.U64(v);
  }
  host_.SaveState(w);
  flash_.SaveState(w);
  ftl_.SaveState(w);
  slc_.SaveState(w);
  buffer_.SaveState(w);
  w.Bool(map_cache_ != nullptr);
  if (map_cache_) map_cache_->SaveState(w);
  overlay_.SaveState(w);
  return store_->SaveState(w);
}

Status Ssd::RestoreState(StateReader& r) {
  cut_rng_.set_state(r.Words());
  committed_through_ = r.U64();
  commit_end_ = r.Time();
  last_activity_ = r.Time();
  const bool error = r.Bool();
  const std::string message = r.Bytes();
  if (error) media_error_ = Status::IoError(message);
  flush_commits_ = r.U64();
  for (uint64_t* v : {&wear_.host_bytes_written, &wear_.nand_bytes_written, &wear_.gc_copied_bytes,
                      &wear_.fold_bytes, &wear_.map_bytes_written, &wear_.erased_bytes}) {
    *v = r.U64();
  }
  RETURN_IF_ERROR(r.status());
  RETURN_IF_ERROR(host_.RestoreState(r));
  RETURN_IF_ERROR(flash_.RestoreState(r));
  RETURN_IF_ERROR(ftl_.RestoreState(r));
  RETURN_IF_ERROR(slc_.RestoreState(r));
  RETURN_IF_ERROR(buffer_.RestoreState(r));
  if (r.Bool() != (map_cache_ != nullptr)) r.Fail("a map cache where the drive has none");
  if (r.ok() && map_cache_) RETURN_IF_ERROR(map_cache_->RestoreState(r));
  RETURN_IF_ERROR(r.status());
  RETURN_IF_ERROR(overlay_.RestoreState(r));
  return store_->RestoreState(r);
}

}  // namespace storlab
