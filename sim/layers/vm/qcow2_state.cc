// The qcow2 image's saved state (storlab sim --state, docs/state.md): the
// image's metadata as Qcow2Map holds it (the file's end, the L1 table, the
// refcount blocks, the mapping in memory and the durable one) and what
// qemu holds in memory for it (the L2 cache's slices in LRU order and the
// dirty ones, the L2 changes not written back by slice, those written and
// waiting for a flush of the file, the dirty refcount blocks, the flush
// dependency, the lazy-refcounts dirty bit, O_DIRECT). Saved once idle:
// no metadata operation queued or running, no allocation in flight.
// Counters are per run.
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "sim/layers/vm/qcow2_l2_cache.h"
#include "sim/layers/vm/qcow2_map.h"
#include "sim/layers/vm/qcow2_node.h"
#include "sim/state_coding.h"

namespace storlab {
namespace {

// A map of guest cluster -> host cluster + 1 (0: unmapped), sorted.
void SaveQcow2Map(StateWriter& w, const std::unordered_map<uint64_t, uint64_t>& m) {
  std::vector<std::pair<uint64_t, uint64_t>> v(m.begin(), m.end());
  std::sort(v.begin(), v.end());
  w.U64(v.size());
  for (const auto& [k, x] : v) {
    w.U64(k);
    w.U64(x);
  }
}

void RestoreQcow2Map(StateReader& r, std::unordered_map<uint64_t, uint64_t>& m) {
  m.clear();
  const uint64_t n = r.Count(2);
  for (uint64_t i = 0; i < n && r.ok(); ++i) {
    const uint64_t k = r.U64();
    m[k] = r.U64();
  }
}

void SaveQcow2Change(StateWriter& w, const Qcow2Map::Change& c) {
  w.U64(c.guest);
  w.U64(c.host ? *c.host + 1 : 0);
}

Qcow2Map::Change RestoreQcow2Change(StateReader& r) {
  Qcow2Map::Change c{.guest = r.U64()};
  if (const uint64_t h = r.U64(); h != 0) c.host = h - 1;
  return c;
}

}  // namespace

void Qcow2Map::SaveState(StateWriter& w) const {
  w.U64(next_cluster_);
  w.U64(l2_offset_.size());
  for (uint64_t t : l2_offset_) w.U64(t);
  SaveQcow2Map(w, refblock_offset_);
  SaveQcow2Map(w, map_);
  SaveQcow2Map(w, durable_);
}

Status Qcow2Map::RestoreState(StateReader& r) {
  next_cluster_ = r.U64();
  if (r.U64() != l2_offset_.size() && r.ok()) r.Fail("an L1 table of another size");
  for (uint64_t& t : l2_offset_) t = r.U64();
  RestoreQcow2Map(r, refblock_offset_);
  RestoreQcow2Map(r, map_);
  RestoreQcow2Map(r, durable_);
  return r.status();
}

void Qcow2L2Cache::SaveState(StateWriter& w) const {
  w.U64(lru_.size());
  for (const Entry& e : lru_) w.U64(e.slice);  // least recently used first
  w.U64(dirty_.size());
  for (uint64_t s : dirty_) w.U64(s);
}

Status Qcow2L2Cache::RestoreState(StateReader& r) {
  const uint64_t n = r.Count(1);
  if (n > capacity_) r.Fail("more L2 slices than the cache holds");
  for (uint64_t i = 0; i < n && r.ok(); ++i) {
    const uint64_t s = r.U64();
    if (entries_.count(s)) {
      r.Fail("an L2 slice twice");
      break;
    }
    Insert(s);
  }
  const uint64_t d = r.Count(1);
  for (uint64_t i = 0; i < d && r.ok(); ++i) {
    const uint64_t s = r.U64();
    if (!entries_.count(s)) r.Fail("a dirty L2 slice not in the cache");
    dirty_.insert(s);
  }
  return r.status();
}

Status Qcow2Node::SaveState(StateWriter& w) const {
  if (meta_busy_ || !meta_queue_.empty() || !allocating_.empty() || !tables_in_progress_.empty()) {
    return Status::Internal("qcow2 image not idle");
  }
  map_.SaveState(w);
  l2_.SaveState(w);
  w.U64(pending_.size());
  for (const auto& [slice, changes] : pending_) {
    w.U64(slice);
    w.U64(changes.size());
    for (const auto& c : changes) SaveQcow2Change(w, c);
  }
  w.U64(written_.size());
  for (const auto& c : written_) SaveQcow2Change(w, c);
  w.U64(dirty_refblocks_.size());
  for (uint64_t b : dirty_refblocks_) w.U64(b);
  w.Bool(depends_on_flush_);
  w.Bool(marked_dirty_);
  w.U64(direct_);
  return Status();
}

Status Qcow2Node::RestoreState(StateReader& r) {
  RETURN_IF_ERROR(map_.RestoreState(r));
  RETURN_IF_ERROR(l2_.RestoreState(r));
  const uint64_t slices = r.Count(2);
  for (uint64_t i = 0; i < slices && r.ok(); ++i) {
    std::vector<Qcow2Map::Change>& v = pending_[r.U64()];
    const uint64_t n = r.Count(2);
    for (uint64_t j = 0; j < n && r.ok(); ++j) v.push_back(RestoreQcow2Change(r));
  }
  const uint64_t written = r.Count(2);
  for (uint64_t i = 0; i < written && r.ok(); ++i) written_.push_back(RestoreQcow2Change(r));
  const uint64_t refblocks = r.Count(1);
  for (uint64_t i = 0; i < refblocks && r.ok(); ++i) dirty_refblocks_.insert(r.U64());
  depends_on_flush_ = r.Bool();
  marked_dirty_ = r.Bool();
  direct_ = static_cast<uint32_t>(r.U64());
  if (r.ok() && direct_ != 0 && direct_ != kDirect) r.Fail("a bad O_DIRECT flag");
  return r.status();
}

}  // namespace storlab
