// Writeback: the flusher (background and periodic writeback, as in Linux
// fs/fs-writeback.c). Syncs are in page_cache_writeback_sync.cc.
#include "sim/layers/page_cache/page_cache_writeback.h"

#include <algorithm>
#include <bit>

#include "sim/bit_count.h"

namespace storlab {

namespace {
using Mask = PageTable::Mask;
}  // namespace

Writeback::Writeback(Engine& engine, const WritebackConfig& config, PageTable& pages,
                     const Overlay& data, DirtyThrottle& throttle, Node& child, Hooks hooks)
    : engine_(engine),
      config_(config),
      pages_(pages),
      data_(data),
      throttle_(throttle),
      child_(child),
      hooks_(std::move(hooks)) {}

uint64_t Writeback::RunBytes(uint64_t first, uint64_t count) const {
  const uint64_t start = first * kPage;
  return std::min(count * kPage, config_.capacity - start);
}

void Writeback::OnDirtyChange() {
  if (pages_.dirty_or_writeback_pages() > 0) ArmTick();
  if (pages_.dirty_pages() * kPage > throttle_.limits().background) Pump();
}

void Writeback::Reset() {
  writebacks_.clear();
  writeback_waiters_.clear();
  syncs_.clear();
  file_errors_.clear();
  bg_queue_.clear();
  bg_chunk_left_ = 0;
  tick_armed_ = false;
  kupdate_ = false;
  if (config_.nfs) config_.nfs->Reset();
}

// ---- Issuing writeback ----

void Writeback::Pump() {
  while (writebacks_.size() < config_.queue_depth) {
    if (IssueSyncWriteback()) continue;
    if (IssueBackgroundWriteback()) continue;
    break;
  }
}

std::pair<uint64_t, uint64_t> Writeback::NextSyncRun(SyncWaiter& w) {
  // NFS: nothing left to send. Over NFS a page is never dirty while under
  // WRITE (a rewrite waits for the reply), so a fresh page that a scan did
  // not find sendable was sent — by this sync or by background writeback
  // that started after it — and never needs this sync again. Without this,
  // each completion would rescan thousands of groups in flight. (A block
  // device's page may be redirtied under writeback that began before the
  // sync: it becomes sendable again when that ends, so it keeps scanning.)
  if (config_.nfs && w.to_issue == 0) return {0, 0};
  const uint64_t max_pages = config_.max_io_bytes / kPage;
  auto candidates = [&](uint64_t g) -> Mask {
    auto e = w.need.find(g);
    const PageTable::Group* grp = pages_.Find(g);
    if (e == w.need.end() || !grp) return 0;
    return e->second.first & grp->dirty & ~grp->writeback;
  };
  // From the cursor to the end, then from the start (pages skipped while
  // under writeback may be ready now).
  for (int pass = 0; pass < 2; ++pass) {
    auto it = pass == 0 ? w.need.lower_bound(w.cursor) : w.need.begin();
    for (; it != w.need.end() && (pass == 0 || it->first < w.cursor); ++it) {
      const Mask cand = candidates(it->first);
      if (!cand) continue;
      const uint64_t start = it->first * PageTable::kGroupPages + std::countr_zero(cand);
      uint64_t page = start;
      while (page - start < max_pages &&
             (candidates(PageTable::GroupOf(page)) & (Mask{1} << (page % PageTable::kGroupPages))))
        ++page;
      w.cursor = PageTable::GroupOf(page);
      return {start, page - start};
    }
  }
  if (config_.nfs) w.to_issue = 0;
  return {0, 0};
}

bool Writeback::IssueSyncWriteback() {
  if (syncs_.empty()) return false;
  // Round-robin over the syncs in progress, one run each, the way several
  // fsync()ing tasks share the device queue.
  auto it = syncs_.upper_bound(sync_rotor_);
  for (size_t k = 0; k < syncs_.size(); ++k, ++it) {
    if (it == syncs_.end()) it = syncs_.begin();
    SyncWaiter& w = *it->second;
    if (w.flushing || w.pages_left == 0) continue;
    auto [first, count] = NextSyncRun(w);
    if (count == 0) continue;
    sync_rotor_ = w.id;
    const uint32_t owner = pages_.OwnerOfPage(first);
    // NFS: FLUSH_COND_STABLE (nfs_client.h).
    const bool last = count >= w.to_issue;
    w.to_issue -= std::min(w.to_issue, count);
    const bool stable = config_.nfs && config_.nfs->FileSync(owner, RunBytes(first, count), last);
    IssueRun(owner, first, count, w.id, stable);
    return true;
  }
  return false;
}

uint64_t Writeback::ChunkPages() const {
  // writeback_chunk_size(): min(bandwidth / 2, limit / DIRTY_SCOPE) per
  // inode per turn, rounded to MIN_WRITEBACK_PAGES (4 MiB).
  constexpr uint64_t kMinPages = (4u << 20) / kPage;
  const uint64_t bw_pages = static_cast<uint64_t>(throttle_.write_bandwidth() / 2) / kPage;
  const uint64_t scope = throttle_.limits().limit / 8 / kPage;
  const uint64_t pages = std::min(bw_pages, scope);
  return (pages + kMinPages) / kMinPages * kMinPages;
}

bool Writeback::IssueBackgroundWriteback() {
  const bool over_bg = pages_.dirty_pages() * kPage > throttle_.limits().background;
  if (!over_bg && !kupdate_) return false;
  if (config_.nfs && !NfsBackgroundMayWrite()) return false;
  const Nanos now = engine_.now();
  auto eligible = [&](uint32_t f) {
    PageTable::File* fi = pages_.FindFile(f);
    if (!fi || fi->groups.empty()) return false;
    // Periodic (kupdate) writeback takes only files dirty for dirty_expire.
    return over_bg || fi->dirtied_when + config_.dirty_expire <= now;
  };
  const uint64_t max_pages = config_.max_io_bytes / kPage;
  for (int round = 0; round < 2; ++round) {
    if (bg_queue_.empty()) {  // queue_io(): the dirty files, oldest first
      for (uint32_t f : pages_.DirtyFilesByAge())
        if (eligible(f)) bg_queue_.push_back(f);
      bg_chunk_left_ = ChunkPages();
      ++bg_pass_;
      if (bg_queue_.empty()) break;
    }
    while (!bg_queue_.empty()) {
      const uint32_t f = bg_queue_.front();
      PageTable::File* fi = pages_.FindFile(f);
      if (!eligible(f) || bg_chunk_left_ == 0) {
        bg_queue_.pop_front();
        bg_chunk_left_ = ChunkPages();
        ++bg_pass_;
        continue;
      }
      auto [first, count] = pages_.NextDirtyRun(f, fi->cursor, std::min(max_pages, bg_chunk_left_));
      if (count == 0) {
        // The pass over the file ended (range_cyclic wraps). If it is still
        // dirty, it was redirtied meanwhile: redirty_tail() makes it young.
        fi->cursor = 0;
        if (!fi->groups.empty()) fi->dirtied_when = now;
        bg_queue_.pop_front();
        bg_chunk_left_ = ChunkPages();
        ++bg_pass_;
        continue;
      }
      fi->cursor = first + count;
      bg_chunk_left_ -= std::min(bg_chunk_left_, count);
      IssueRun(f, first, count, 0);
      return true;
    }
  }
  if (!over_bg) kupdate_ = false;  // nothing expired is left
  return false;
}

void Writeback::IssueRun(uint32_t file, uint64_t first, uint64_t count, uint64_t sync_id,
                         bool stable) {
  pages_.StartWriteback(first, first + count - 1);
  const uint64_t id = next_id_++;
  WritebackOp& op = writebacks_[id];
  op.first = first;
  op.count = count;
  op.file = file;
  op.submitted = engine_.now();
  op.sync_id = sync_id;
  op.pass = sync_id ? 0 : bg_pass_;
  op.stable = stable;
  const uint64_t bytes = RunBytes(first, count);
  if (config_.nfs) {
    config_.nfs->OnWriteSent(bytes);
    if (!sync_id) config_.nfs->PassSent(op.pass);
  }
  if (config_.keeps_data) {
    op.data = std::make_unique<uint8_t[]>(bytes);  // zeroed
    data_.Patch(first * kPage, bytes, op.data.get());
  }
  Request r{.op = Op::kWrite,
            // wbc_to_write_flags(): a WB_SYNC_ALL writeback is REQ_SYNC.
            .flags = kBackground | (stable ? kFua : 0u) | (sync_id != 0 ? kSync : 0u),
            .offset = first * kPage,
            .length = bytes,
            .data = op.data.get(),
            .file_id = file,
            .done = [this, id](Status st) { OnWritebackDone(id, std::move(st)); }};
  throttle_.OnWritebackStart(engine_.now());
  ++counters_.writeback_requests;
  child_.Submit(std::move(r));
}

void Writeback::OnWritebackDone(uint64_t id, Status st) {
  auto it = writebacks_.find(id);
  if (it == writebacks_.end()) return;
  WritebackOp op = std::move(it->second);
  writebacks_.erase(it);
  const uint64_t last = op.first + op.count - 1;
  const uint64_t bytes = RunBytes(op.first, op.count);
  pages_.EndWriteback(op.first, last);
  if (config_.nfs) NfsWriteDone(op, bytes, st.ok());
  if (st.ok()) {
    hooks_.destaged(op.first * kPage, bytes);
    counters_.written_back_bytes += bytes;
    throttle_.OnWrittenBack(engine_.now(), bytes);
  } else {
    // Like Linux: the pages are clean now and the error goes to the next
    // fsync of the file (mapping_set_error).
    ++counters_.writeback_errors;
    file_errors_.emplace(op.file, st);
  }
  if (op.sync_id) {
    counters_.fsync_written_bytes += bytes;
    if (auto s = syncs_.find(op.sync_id); s != syncs_.end()) s->second->written_bytes += bytes;
  }
  std::vector<uint64_t> check;
  for (auto& [sid, w] : syncs_) {
    bool touched = false;
    for (uint64_t g = PageTable::GroupOf(op.first); g <= PageTable::GroupOf(last); ++g) {
      auto e = w->need.find(g);
      if (e == w->need.end()) continue;
      const Mask m = PageTable::SpanMask(g, op.first, last);
      Mask done = e->second.second & m;             // in flight when the sync began
      if (id > w->id) done |= e->second.first & m;  // submitted after it began
      if (!done) continue;
      touched = true;
      e->second.first &= ~done;
      e->second.second &= ~done;
      w->pages_left -= uint64_t{BitCount(done)};
      if (!st.ok()) w->error = st;
      if ((e->second.first | e->second.second) == 0) w->need.erase(e);
    }
    if (touched) check.push_back(sid);
  }
  if (writebacks_.empty()) throttle_.OnWritebackIdle(engine_.now());
  hooks_.cleaned();
  WakeWritebackWaiters(op.first, last);
  for (uint64_t sid : check) CheckSync(sid);
  Pump();
}

// ---- The periodic flusher tick ----

void Writeback::ArmTick() {
  if (tick_armed_ || config_.interval <= Nanos(0)) return;
  tick_armed_ = true;
  engine_.After(config_.interval, [this] { OnTick(); });
}

void Writeback::OnTick() {
  tick_armed_ = false;
  const Nanos now = engine_.now();
  for (const auto& [f, fi] : pages_.files()) {
    if (!fi.groups.empty() && fi.dirtied_when + config_.dirty_expire <= now) {
      kupdate_ = true;
      break;
    }
  }
  if (kupdate_) Pump();
  if (pages_.dirty_or_writeback_pages() > 0) ArmTick();
}

// ---- Waiting for writeback in flight ----

void Writeback::WaitForWriteback(uint64_t first, uint64_t last, Callback<void(Status)> fn) {
  if (!pages_.AnyWriteback(first, last)) return fn(Status());
  writeback_waiters_.push_back({first, last, std::move(fn)});
}

void Writeback::WakeWritebackWaiters(uint64_t first, uint64_t last) {
  // A waiter's pages were under writeback when it was last looked at, and
  // only EndWriteback (of pages [first, last], just before this) takes
  // pages out of writeback: a waiter elsewhere still waits, and is not
  // looked up (an NFS client's 256 rewrites waiting for their WRITEs each
  // looked up every reply's pages: a tenth of the NAS's test B).
  std::vector<Waiter> ready;
  size_t kept = 0;
  for (size_t i = 0; i < writeback_waiters_.size(); ++i) {
    Waiter& w = writeback_waiters_[i];
    if (w.first <= last && first <= w.last && !pages_.AnyWriteback(w.first, w.last)) {
      ready.push_back(std::move(w));
      continue;
    }
    if (kept != i) writeback_waiters_[kept] = std::move(w);
    ++kept;
  }
  writeback_waiters_.erase(writeback_waiters_.begin() + static_cast<ptrdiff_t>(kept),
                           writeback_waiters_.end());
  for (Waiter& w : ready) w.fn(Status());
}

}  // namespace storlab
