// Qcow2Node's guest requests: reads, writes (allocation and COW), discards.
#include "sim/layers/vm/qcow2_node.h"

#include <algorithm>
#include <cstring>

#include "sim/join.h"
#include "sim/stat_table.h"

namespace storlab {

Qcow2Node::Qcow2Node(Engine& engine, std::string name, Node& child, const Config& config)
    : NodeWrapper(engine, std::move(name), child),
      config_(config),
      slice_entries_(config.l2_cache_entry_size / 8),
      slices_per_table_(config.cluster_size / config.l2_cache_entry_size),
      map_(config.cluster_size, config.virtual_size, config.preallocation != Preallocation::kOff),
      l2_(std::max<uint64_t>(1, config.l2_cache_bytes / config.l2_cache_entry_size)) {
  geometry_.capacity = config.virtual_size;
  // The guest's writes are buffered in qcow2's metadata caches until a
  // flush (and in the file's cache below): FLUSH means something here.
  caps_.volatile_cache = true;
  caps_.trim = true;
  if (config.keeps_data) {
    const uint64_t n = std::max<uint64_t>(config.cluster_size, child.geometry().logical_block);
    zeros_.assign(n, 0);
    scratch_.assign(n, 0);
  }
}

uint64_t Qcow2Node::AllocateHost(uint64_t n) {
  const uint64_t first = map_.AllocateClusters(n);
  counters_.allocated_clusters += n;
  return first;
}

void Qcow2Node::DoSubmit(Request req) {
  if (req.op != Op::kFlush) direct_ = req.flags & kDirect;
  if (req.op == Op::kFlush) return Flush(std::move(req));
  Start(std::move(req));
}

// qcow2_get_host_offset / handle_copied look the L2 entries up in the cache
// (qcow2_cache_get: a miss reads the slice); a write under a missing L2
// table allocates it (get_cluster_table -> l2_allocate).
void Qcow2Node::Start(Request req) {
  const uint64_t cs = config_.cluster_size;
  const bool write = req.op != Op::kRead && req.op != Op::kTrim;
  const uint64_t first = SliceOf(req.offset / cs);
  const uint64_t last = SliceOf((req.offset + req.length - 1) / cs);
  std::vector<uint64_t> missing;
  for (uint64_t s = first; s <= last; ++s) {
    if (!map_.HasTable(TableOf(s))) {
      if (write) missing.push_back(s);
    } else if (l2_.Touch(s)) {
      ++counters_.l2_hits;
    } else {
      missing.push_back(s);  // LoadSlice counts the miss, or the hit after a wait
    }
  }
  if (missing.empty()) return Proceed(std::move(req));
  struct Wait {
    Request req;
    Status st;
  };
  auto wait = std::make_shared<Wait>(Wait{.req = std::move(req), .st = Status()});
  for (size_t i = 0; i < missing.size(); ++i) {
    const bool final = i + 1 == missing.size();
    LoadSlice(missing[i], write, [this, wait, final](Status st) {
      if (!st.ok() && wait->st.ok()) wait->st = std::move(st);
      if (!final) return;
      if (!wait->st.ok()) return wait->req.done(std::move(wait->st));
      Proceed(std::move(wait->req));
    });
  }
}

void Qcow2Node::Proceed(Request req) {
  switch (req.op) {
    case Op::kRead:
      return Read(std::move(req));
    case Op::kTrim:
      return Discard(std::move(req));
    default:
      return Write(std::move(req));
  }
}

// qcow2_co_preadv_part: each host-contiguous run is one read of the file;
// unallocated clusters read as zeros (no backing file) without I/O. A
// cluster whose allocating write is in flight still reads as before it.
void Qcow2Node::Read(Request req) {
  const uint64_t cs = config_.cluster_size;
  const uint64_t end = req.offset + req.length;
  auto join = Join::Make(std::move(req.done));
  uint64_t run_host = 0, run_len = 0, run_at = 0;
  auto issue = [&] {
    if (run_len == 0) return;
    child_.Submit(Request{.op = Op::kRead,
                          .flags = req.flags,
                          .offset = run_host,
                          .length = run_len,
                          .data = req.data ? req.data + run_at : nullptr,
                          .done = join->Arm()});
    run_len = 0;
  };
  for (uint64_t off = req.offset; off < end;) {
    const uint64_t g = off / cs;
    const uint64_t seg = std::min(end, (g + 1) * cs) - off;
    const auto host = allocating_.count(g) != 0 ? std::nullopt : map_.Lookup(g);
    if (!host) {
      issue();
      if (req.data) std::memset(req.data + (off - req.offset), 0, seg);
    } else {
      const uint64_t h = *host * cs + off % cs;
      if (run_len != 0 && run_host + run_len != h) issue();
      if (run_len == 0) {
        run_host = h;
        run_at = off - req.offset;
      }
      run_len += seg;
    }
    off += seg;
  }
  issue();
  join->Seal(engine_);
}

// qcow2_co_pdiscard -> qcow2_cluster_discard -> discard_in_l2_slice: the
// clusters wholly inside the range lose their L2 entries (partial clusters
// are left alone: bdrv_co_pdiscard aligns to pdiscard_alignment, the
// cluster size); their refcounts drop to 0 and, with pass-discard-request
// (on with discard=unmap), the host range is discarded too.
void Qcow2Node::Discard(Request req) {
  const uint64_t cs = config_.cluster_size;
  const uint64_t first = (req.offset + cs - 1) / cs;
  const uint64_t end = (req.offset + req.length) / cs;
  auto join = Join::Make(std::move(req.done));
  const bool pass = child_.caps().trim;
  uint64_t run_host = 0, run_len = 0;
  auto issue = [&] {
    if (run_len == 0 || !pass) return;
    child_.Submit(Request{.op = Op::kTrim,
                          .flags = direct_,
                          .offset = run_host,
                          .length = run_len,
                          .done = join->Arm()});
    run_len = 0;
  };
  for (uint64_t g = first; g < end; ++g) {
    const auto host = map_.Lookup(g);
    if (!host || allocating_.count(g) != 0) continue;
    const Qcow2Map::Change c{g, std::nullopt};
    map_.Set(c);
    const uint64_t slice = SliceOf(g);
    pending_[slice].push_back(c);
    if (!l2_.Touch(slice)) l2_.Insert(slice);
    l2_.MarkDirty(slice);
    dirty_refblocks_.insert(map_.RefcountBlockOf(*host));
    ++counters_.discarded_clusters;
    if (run_len != 0 && run_host + run_len != *host * cs) issue();
    if (run_len == 0) run_host = *host * cs;
    run_len += cs;
  }
  issue();
  join->Seal(engine_);
}

// qcow2_alloc_cluster_link_l2: the new clusters' refcounts (update_refcount,
// done at allocation) and L2 entries are updated in their caches; after a
// COW the L2 cache may be written only after a flush of the file.
void Qcow2Node::Allocated(const std::vector<Qcow2Map::Change>& fresh, uint64_t cow_bytes) {
  for (const Qcow2Map::Change& c : fresh) {
    map_.Set(c);
    const uint64_t slice = SliceOf(c.guest);
    pending_[slice].push_back(c);
    // Evicted meanwhile (a cache smaller than one request's slices): back in.
    if (!l2_.Touch(slice)) l2_.Insert(slice);
    l2_.MarkDirty(slice);
    dirty_refblocks_.insert(map_.RefcountBlockOf(*c.host));
  }
  counters_.cow_bytes += cow_bytes;
  if (cow_bytes > 0) depends_on_flush_ = true;
}

void Qcow2Node::WakeWaiters(const std::vector<Qcow2Map::Change>& fresh) {
  std::vector<Request> again;
  for (const Qcow2Map::Change& c : fresh) {
    auto it = allocating_.find(c.guest);
    if (it == allocating_.end()) continue;
    for (Request& r : it->second) again.push_back(std::move(r));
    allocating_.erase(it);
  }
  for (Request& r : again) Start(std::move(r));
}

void Qcow2Node::OnPowerCut() {
  ++epoch_;
  for (uint64_t t : tables_in_progress_) map_.SetTable(t, 0);
  tables_in_progress_.clear();
  map_.RevertToDurable();
  l2_.Clear();
  allocating_.clear();
  pending_.clear();
  written_.clear();
  dirty_refblocks_.clear();
  depends_on_flush_ = false;
  meta_queue_.clear();
  meta_busy_ = false;
}

void Qcow2Node::AppendStats(StatList& out) const {
  using C = Counters;
  static constexpr StatField<C> kStats[] = {
      Field<&C::allocated_clusters>("allocated_clusters", kCount),
      Field<&C::cow_bytes>("cow_bytes", kBytes),
      Field<&C::l2_hits>("l2_hits", kCount),
      Field<&C::l2_misses>("l2_misses", kCount),
      Field<&C::l2_evictions>("l2_evictions", kCount),
      Field<&C::l2_tables_allocated>("l2_tables_allocated", kCount),
      Field<&C::refcount_blocks_allocated>("refcount_blocks_allocated", kCount),
      Field<&C::metadata_reads>("metadata_reads", kCount),
      Field<&C::metadata_writes>("metadata_writes", kCount),
      Field<&C::metadata_write_bytes>("metadata_write_bytes", kBytes),
      Field<&C::file_flushes>("file_flushes", kCount),
      Field<&C::discarded_clusters>("discarded_clusters", kCount),
  };
  AppendStatTable(counters_, kStats, out);
  out.push_back({"image_file_bytes", static_cast<double>(map_.file_end()), kBytes});
}

}  // namespace storlab
