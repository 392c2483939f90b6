// The page cache's saved state (storlab sim --state, docs/state.md): the
// PageCache and the parts it owns — PageTable, Writeback, and (in their own
// files) DirtyThrottle and HostCpu. A state is saved when the stack is
// idle: nothing is dirty, under writeback or being read, so what is kept
// is what a machine that was not rebooted still has in RAM — clean pages,
// in LRU order, with their data when the run keeps data.
#include <memory>
#include <utility>

#include "sim/layers/page_cache/page_cache.h"
#include "sim/layers/page_cache/page_cache_writeback.h"
#include "sim/layers/page_cache/page_table.h"
#include "sim/state_coding.h"

namespace storlab {

void PageTable::SaveState(StateWriter& w) const {
  w.U64(groups_.size());
  for (size_t i = NextLive(lru_head_); i < lru_log_.size(); i = NextLive(i + 1)) {
    const Group& g = *groups_.Find(lru_log_[i].group);  // coldest first
    w.U64(g.index);
    w.U64(g.cached);
    w.U64(g.owner);
    w.Bool(g.owners != nullptr);
    if (g.owners) {
      for (uint32_t i = 0; i < kGroupPages; ++i) w.U64(g.owners[i]);
    }
  }
  w.U64(files_.size());
  for (const auto& [id, f] : files_) {
    w.U64(id);
    w.Time(f.dirtied_when);
    w.U64(f.cursor);
  }
}

Status PageTable::RestoreState(StateReader& r) {
  if (groups_.size() || !files_.empty()) return Status::Internal("PageTable: not empty");
  const uint64_t groups = r.Count(4);
  for (uint64_t i = 0; i < groups && r.ok(); ++i) {
    const uint64_t index = r.U64();
    const uint64_t cached = r.U64();
    const uint64_t owner = r.U64();
    std::unique_ptr<uint32_t[]> owners;
    if (r.Bool()) {
      owners.reset(new uint32_t[kGroupPages]);
      for (uint32_t k = 0; k < kGroupPages; ++k) owners[k] = static_cast<uint32_t>(r.U64());
    }
    if (cached == 0 || cached > UINT32_MAX || owner > UINT32_MAX) r.Fail("a bad page group");
    if (r.ok() && groups_.Find(index)) r.Fail("page group " + std::to_string(index) + " twice");
    if (!r.ok()) break;
    Group& g = Get(index);  // pushed hot: the saved order, coldest first
    g.cached = static_cast<Mask>(cached);
    g.owner = static_cast<uint32_t>(owner);
    g.owners = std::move(owners);
    cached_ += static_cast<uint64_t>(__builtin_popcount(g.cached));
  }
  const uint64_t files = r.Count(3);
  for (uint64_t i = 0; i < files && r.ok(); ++i) {
    const uint64_t id = r.U64();
    File f;
    f.dirtied_when = r.Time();
    f.cursor = r.U64();
    if (id > UINT32_MAX) r.Fail("a bad file id");
    if (r.ok()) files_.emplace(static_cast<uint32_t>(id), std::move(f));
  }
  return r.status();
}

void Writeback::SaveState(StateWriter& w) const {
  w.U64(next_id_);
  w.U64(sync_rotor_);
  w.U64(file_errors_.size());
  for (const auto& [file, st] : file_errors_) {
    w.U64(file);
    w.Bool(st.code() == Status::Code::kNoSpace);
    w.Bytes(st.message());
  }
  w.U64(bg_queue_.size());
  for (uint32_t f : bg_queue_) w.U64(f);
  w.U64(bg_chunk_left_);
  w.Bool(kupdate_);
}

Status Writeback::RestoreState(StateReader& r) {
  next_id_ = r.U64();
  sync_rotor_ = r.U64();
  const uint64_t errors = r.Count(3);
  for (uint64_t i = 0; i < errors && r.ok(); ++i) {
    const auto file = static_cast<uint32_t>(r.U64());
    const bool no_space = r.Bool();
    const std::string msg = r.Bytes();
    file_errors_[file] = no_space ? Status::NoSpace(msg) : Status::IoError(msg);
  }
  const uint64_t queued = r.Count(1);
  for (uint64_t i = 0; i < queued && r.ok(); ++i) {
    bg_queue_.push_back(static_cast<uint32_t>(r.U64()));
  }
  bg_chunk_left_ = r.U64();
  kupdate_ = r.Bool();
  return r.status();
}

Status PageCache::SaveState(StateWriter& w) const {
  if (pages_.dirty_or_writeback_pages() || !reads_.empty() || !blocked_writers_.empty() ||
      writeback_.in_flight() || writeback_.syncs()) {
    return Status::Internal("page cache not idle");
  }
  w.U64(next_id_);
  w.U64(invalidations_);
  w.U64(streams_.size());
  for (const auto& [file, s] : streams_) {
    w.U64(file);
    w.U64(s.prev_page);
    w.U64(s.start);
    w.U64(s.size);
    w.U64(s.async);
    w.Bool(s.marker);
  }
  cpu_.SaveState(w);
  throttle_.SaveState(w);
  pages_.SaveState(w);
  writeback_.SaveState(w);
  data_.SaveState(w);
  return Status();
}

Status PageCache::RestoreState(StateReader& r) {
  next_id_ = r.U64();
  invalidations_ = r.U64();
  const uint64_t streams = r.Count(6);
  for (uint64_t i = 0; i < streams && r.ok(); ++i) {
    const auto file = static_cast<uint32_t>(r.U64());
    Stream& s = streams_[file];
    s.prev_page = r.U64();
    s.start = r.U64();
    s.size = r.U64();
    s.async = r.U64();
    s.marker = r.Bool();
  }
  RETURN_IF_ERROR(r.status());
  RETURN_IF_ERROR(cpu_.RestoreState(r));
  RETURN_IF_ERROR(throttle_.RestoreState(r));
  RETURN_IF_ERROR(pages_.RestoreState(r));
  RETURN_IF_ERROR(writeback_.RestoreState(r));
  RETURN_IF_ERROR(data_.RestoreState(r));
  if (pages_.cached_pages() > capacity_pages_) {
    r.Fail("more cached pages than this host's memory holds");
    return r.status();
  }
  return Status();
}

}  // namespace storlab
