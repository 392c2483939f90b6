// Writeback's syncs (fsync, sync, O_DSYNC, direct I/O's
// filemap_write_and_wait_range): the pages a sync waits for, and its flush
// of the child once they are clean.
#include <algorithm>
#include <memory>
#include <utility>
#include <vector>

#include "sim/bit_count.h"
#include "sim/layers/page_cache/page_cache_writeback.h"

namespace storlab {

namespace {
using Mask = PageTable::Mask;
}  // namespace

void Writeback::AddNeed(SyncWaiter& w, uint64_t g, Mask m) {
  const PageTable::Group* grp = pages_.Find(g);
  if (!grp) return;
  const Mask fresh = grp->dirty & m;
  const Mask inflight = grp->writeback & ~grp->dirty & m;
  if (!(fresh | inflight)) return;
  auto& e = w.need[g];
  const Mask add = (fresh | inflight) & ~(e.first | e.second);
  e.first |= fresh & add;
  e.second |= inflight & add;
  w.pages_left += uint64_t{BitCount(add)};
  w.to_issue += uint64_t{BitCount(fresh & add)};
}

void Writeback::StartSync(uint32_t file, bool all_files, uint64_t first, uint64_t last,
                          bool flush_child, bool fsync, Callback<void(Status)> then) {
  auto w = std::make_unique<SyncWaiter>();
  w->id = next_id_++;
  w->file = file;
  w->started = engine_.now();
  w->flush_child = flush_child;
  w->fsync = fsync;
  w->then = std::move(then);
  if (fsync) {  // a writeback error is reported once, to the next fsync
    for (auto e = file_errors_.begin(); e != file_errors_.end();) {
      if (!all_files && e->first != file) {
        ++e;
        continue;
      }
      if (w->error.ok()) w->error = e->second;
      e = file_errors_.erase(e);
    }
  }
  if (first == 0 && last == UINT64_MAX) {
    for (const auto& [f, fi] : pages_.files()) {
      if (!all_files && f != file) continue;
      for (uint64_t g : fi.groups) {
        const PageTable::Group* grp = pages_.Find(g);
        AddNeed(*w, g, all_files ? ~Mask{0} : PageTable::OwnedBy(*grp, f));
      }
    }
  } else {
    for (uint64_t g = PageTable::GroupOf(first); g <= PageTable::GroupOf(last); ++g)
      AddNeed(*w, g, PageTable::SpanMask(g, first, last));
  }
  const uint64_t id = w->id;
  syncs_.emplace(id, std::move(w));
  CheckSync(id);
  Pump();
}

void Writeback::CheckSync(uint64_t id) {
  auto it = syncs_.find(id);
  if (it == syncs_.end()) return;
  SyncWaiter& w = *it->second;
  if (w.pages_left > 0 || w.flushing) return;
  w.flushing = true;
  auto finish = [this, id](Status st) {
    auto it = syncs_.find(id);
    if (it == syncs_.end()) return;
    std::unique_ptr<SyncWaiter> w = std::move(it->second);
    syncs_.erase(it);
    if (w->fsync) {
      const uint64_t ns = static_cast<uint64_t>((engine_.now() - w->started).count());
      ++counters_.fsyncs;
      counters_.fsync_ns_total += ns;
      counters_.fsync_ns_max = std::max(counters_.fsync_ns_max, ns);
      counters_.last_fsync_ns = ns;
      counters_.last_fsync_bytes = w->written_bytes;
    }
    w->then(w->error.ok() ? std::move(st) : w->error);
  };
  if (w.flush_child && config_.nfs) {
    NfsCommit(w.file, std::move(finish));  // nfs_file_fsync → nfs_commit_inode
  } else if (w.flush_child) {
    Request f{.op = Op::kFlush, .file_id = w.file, .done = std::move(finish)};
    child_.Submit(std::move(f));
  } else {
    engine_.After(Nanos(0), [finish = std::move(finish)]() mutable { finish(Status()); });
  }
}

void Writeback::ForgetPages(uint64_t first, uint64_t last) {
  std::vector<uint64_t> check;
  for (auto& [sid, w] : syncs_) {
    for (uint64_t g = PageTable::GroupOf(first); g <= PageTable::GroupOf(last); ++g) {
      auto e = w->need.find(g);
      if (e == w->need.end()) continue;
      const Mask m = PageTable::SpanMask(g, first, last);
      const Mask gone = (e->second.first | e->second.second) & m;
      e->second.first &= ~m;
      e->second.second &= ~m;
      w->pages_left -= uint64_t{BitCount(gone)};
      if ((e->second.first | e->second.second) == 0) w->need.erase(e);
    }
    check.push_back(sid);
  }
  for (uint64_t sid : check) CheckSync(sid);
}

}  // namespace storlab
