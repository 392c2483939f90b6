// ZfsArc: the records a ZFS pool holds in its adaptive replacement cache,
// and the order in which it lets them go.
//
// Only what benchmarks see of arc.c: a record read from the members, or
// written by a txg, stays in memory until `capacity_bytes` of records are
// held; then the least recently used go first. A read or a write that finds
// a record touches it (arc_access). The MRU/MFU split and the ghost lists of
// the real ARC are not modelled: the order is one LRU (sim/lru_list.h). The
// ARC holds no data (the pool's store does); it answers "is this record in
// memory". A power cut empties it (Clear).
//
// The ARC holds records as they are on disk, compressed
// (zfs_compressed_arc_enabled, on by default); the dbuf cache in front of
// it holds them uncompressed (dbuf.c: dbuf_cache_target_bytes(), the ARC's
// target >> dbuf_cache_shift (5): 1/32 of it). A record the ARC holds but
// the dbuf cache does not must be decompressed again before a read or a
// partial write uses it (dbuf_read -> arc_read -> arc_buf_fill ->
// arc_buf_decompress). A record read from disk or written by a txg is held
// uncompressed until the dbuf cache lets it go (least recently used
// first); a record the ARC drops leaves it too. Not thread-safe.
#ifndef STORLAB_SIM_LAYERS_ZFS_ZFS_ARC_H_
#define STORLAB_SIM_LAYERS_ZFS_ZFS_ARC_H_

#include <cstdint>

#include "sim/key_map.h"
#include "sim/lru_list.h"
#include "sim/status.h"

namespace storlab {

class StateReader;
class StateWriter;

class ZfsArc {
 public:
  // REQUIRES: record_bytes > 0.
  static constexpr int kDbufCacheShift = 5;  // dbuf_cache_shift
  ZfsArc(uint64_t capacity_bytes, uint64_t record_bytes)
      : capacity_bytes_(capacity_bytes), record_bytes_(record_bytes) {}
  ZfsArc(const ZfsArc&) = delete;
  ZfsArc& operator=(const ZfsArc&) = delete;

  bool Contains(uint64_t record) const { return records_.Find(record) != nullptr; }
  uint64_t used_bytes() const { return lru_.size() * record_bytes_; }

  // Holds `record` as the most recently used, uncompressed too, evicting
  // the least recently used while more than the capacity is held (the new
  // record too, when one record is more than the capacity).
  void Insert(uint64_t record);
  // Makes a record held the most recently used (in the dbuf cache too, if
  // it is there); others are ignored.
  void Touch(uint64_t record);
  // Whether a record held is in the dbuf cache (uncompressed).
  bool Uncompressed(uint64_t record) const;
  // A record held was decompressed: into the dbuf cache.
  void Decompressed(uint64_t record);
  uint64_t uncompressed_bytes() const { return dbufs_.size() * record_bytes_; }
  // Forgets every record (a power cut).
  void Clear();
  // storlab sim --state (zfs_state.cc): the records, least recently used
  // first. Restores into an empty ARC of the same capacity; the dbuf cache
  // is not saved: it holds the most recently used records again, as if
  // each had just been read.
  void SaveState(StateWriter& w) const;
  Status RestoreState(StateReader& r);

 private:
  struct Entry {
    uint64_t record = 0;
    LruHook<Entry> hook;
    LruHook<Entry> dbuf_hook;  // linked in dbufs_ when uncompressed
  };
  void HoldUncompressed(Entry& e);

  uint64_t capacity_bytes_;
  uint64_t record_bytes_;
  KeyMap<Entry> records_;  // stable addresses, linked in lru_
  LruList<Entry, &Entry::hook> lru_;
  LruList<Entry, &Entry::dbuf_hook> dbufs_;
};

}  // namespace storlab

#endif  // STORLAB_SIM_LAYERS_ZFS_ZFS_ARC_H_
