// ThinMetadata: a thin volume's mapping and its pool's space map, with
// dm-thin's transaction semantics.
//
// The mapping takes virtual chunks to pool chunks. Changes (a chunk
// provisioned, a chunk discarded) go to the current transaction; a commit
// makes them durable; a power cut rolls back to the last commit. As in
// dm-persistent-data's disk space map, a pool chunk freed in the current
// transaction is not handed out again until that transaction commits (a
// rollback would otherwise map two volumes' data to one chunk), and the
// allocator scans upwards from a hint that restarts at 0 on each commit
// (sm_disk_new_block / sm_disk_commit). Chunks used by other volumes of the
// pool are a count that reduces the free space. Not thread-safe.
#ifndef STORLAB_SIM_LAYERS_THIN_THIN_METADATA_H_
#define STORLAB_SIM_LAYERS_THIN_THIN_METADATA_H_

#include <cstdint>
#include <optional>
#include <unordered_map>
#include <vector>

namespace storlab {

class StateReader;
class StateWriter;
class Status;

class ThinMetadata {
 public:
  // REQUIRES: pool_chunks > 0.
  explicit ThinMetadata(uint64_t pool_chunks);

  // The pool chunk virtual chunk v maps to now, if any.
  std::optional<uint64_t> Lookup(uint64_t v) const;
  // Reserves a free pool chunk, or nullopt when the pool is full.
  std::optional<uint64_t> Allocate();
  // Gives back a reserved chunk that was never mapped (its write failed).
  void Unreserve(uint64_t p);
  // Maps v to the reserved chunk p (once its data has landed).
  void Map(uint64_t v, uint64_t p);
  // Unmaps v (a discard); returns the pool chunk it held.
  std::optional<uint64_t> Unmap(uint64_t v);

  // Changes not yet committed.
  bool dirty() const { return !journal_.empty(); }
  // Changes not yet committed to virtual chunks in [first, end).
  bool ChangedIn(uint64_t first, uint64_t end) const;
  // Starts a commit of everything changed so far; returns its mark.
  size_t BeginCommit() const { return journal_.size(); }
  // The changes up to `mark` are durable.
  void EndCommit(size_t mark);
  // A power cut: back to the last commit.
  void Rollback();

  // Pool size in chunks: an lvextend grows it (LVM cannot shrink a thin
  // pool). REQUIRES: n >= pool_chunks().
  void set_pool_chunks(uint64_t n);
  // Chunks held by other volumes of the pool.
  void set_others(uint64_t n) { others_ = n; }
  uint64_t pool_chunks() const { return pool_chunks_; }
  uint64_t others() const { return others_; }
  uint64_t mapped() const { return map_.size(); }
  // Virtual chunks in [first, end) that are mapped now.
  uint64_t MappedIn(uint64_t first, uint64_t end) const;
  uint64_t committed_mapped() const { return committed_.size(); }
  // Pool chunks this volume holds: mapped, reserved, or freed but not yet
  // committed.
  uint64_t held() const { return held_; }
  uint64_t free_chunks() const;

  // The saved state (storlab sim --state, thin_state.cc): the pool's size
  // and others' chunks, the allocation hint, both mappings and the open
  // transaction's journal. The bitmaps follow from the mappings (no chunk
  // is reserved without being mapped once the pool is idle).
  void SaveState(StateWriter& w) const;
  // REQUIRES: a pool just built, the same size as the saved one or smaller
  // (an lvextend grows it); `max_chunks` bounds it (the data device).
  Status RestoreState(StateReader& r, uint64_t max_chunks);

 private:
  struct Change {
    uint64_t v;
    std::optional<uint64_t> before, after;
  };
  bool Bit(const std::vector<uint64_t>& b, uint64_t p) const { return (b[p / 64] >> (p % 64)) & 1; }
  void Set(std::vector<uint64_t>& b, uint64_t p, bool on);
  bool Held(uint64_t p) const { return Bit(now_, p) || Bit(committed_bits_, p); }

  uint64_t pool_chunks_;
  uint64_t others_ = 0;
  uint64_t held_ = 0;
  uint64_t hint_ = 0;
  std::unordered_map<uint64_t, uint64_t> map_;        // current
  std::unordered_map<uint64_t, uint64_t> committed_;  // durable
  std::vector<uint64_t> now_;                         // chunks in use now (bitmap)
  std::vector<uint64_t> committed_bits_;              // chunks in use at the last commit
  std::vector<Change> journal_;
};

}  // namespace storlab

#endif  // STORLAB_SIM_LAYERS_THIN_THIN_METADATA_H_
