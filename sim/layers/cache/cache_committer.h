// CacheCommitter: the metadata commits of a cache with a cache device
// (dm-cache's model: drivers/md/dm-cache-metadata.c, commit() in
// dm-cache-target.c).
//
// The mapping (which origin block is in which slot, which sectors are valid)
// is kept on the cache device and changes in memory between commits. A
// commit flushes the cache device (and the origin, if the destager wrote to
// it since the last commit), then writes the changed mappings (16 bytes
// each, lvm2's DM_BYTES_PER_BLOCK) plus a superblock with FUA to the
// metadata area. Commits run every `period` while anything changed
// (dm-cache's COMMIT_PERIOD, 1 s), and whenever the cache asks: for every
// FLUSH and FUA write, and before a demoted slot is reused. One commit runs
// at a time; requests made meanwhile share the next one.
//
// What it owns: the committed mapping (what a restart after a power cut
// finds), the changes since the last commit, the commit in flight and the
// waiters of the next one, the period timer, whether either device was
// written since the last commit, its counters. What it works on: the
// cache's CacheTable (it reads an entry's slot and valid sectors when told
// the entry changed, and takes the slots freed since the last commit,
// making them reusable once the commit is durable), the cache device and
// the origin (flushes, the metadata write). What it asks of the cache: to
// be told of every change (RecordChange, CacheWritten, OriginWritten), and
// a callback after each commit ended (slots may have become free).
//
// This is what keeps the model safe: a slot named by the committed mapping
// is never reused before the next commit, and data the mapping points at
// was flushed before the mapping was written. The metadata's bytes are not
// stored on the cache device (the write carries no data); their cost is.
//
// Not thread-safe: the engine's thread runs everything.
#ifndef STORLAB_SIM_LAYERS_CACHE_CACHE_COMMITTER_H_
#define STORLAB_SIM_LAYERS_CACHE_CACHE_COMMITTER_H_

#include <cstdint>
#include <optional>
#include <unordered_map>
#include <vector>

#include "sim/engine.h"
#include "sim/layers/cache/cache_table.h"
#include "sim/node.h"

namespace storlab {

class StateReader;
class StateWriter;

class CacheCommitter {
 public:
  struct Config {
    uint64_t metadata_size = 0;  // bytes at the start of the cache device
    Nanos period = Nanos(1'000'000'000);
  };
  struct Counters {
    uint64_t commits = 0;
    Nanos commit_time;  // summed over commits, from start to end
  };
  struct Mapping {  // one block's committed entry
    uint32_t slot;
    BlockMask valid;
  };

  // `after_commit` runs at the end of every commit, successful or not.
  CacheCommitter(Engine& engine, const Config& cfg, CacheTable& table, Node& cache_dev,
                 Node& origin, Callback<void()> after_commit);
  CacheCommitter(const CacheCommitter&) = delete;
  CacheCommitter& operator=(const CacheCommitter&) = delete;

  // The table's entry for `block` changed (mapped, unmapped, sectors made
  // valid or invalid): the next commit writes it. Arms the period timer.
  void RecordChange(uint64_t block);
  // Data was written to the cache device, or to the origin by the
  // destager: the next commit flushes it first.
  void CacheWritten() { fast_written_ = true; }
  void OriginWritten() { origin_written_ = true; }
  // Asks for a commit (now, or after the one in flight); `done` (may be
  // null) runs when it ended. `force_flush`: flush both devices even if
  // nothing was written (a FLUSH from above).
  void Commit(bool force_flush, Callback<void(Status)> done);
  // Forgets the changes, the commit in flight, its waiters and the timer
  // (the engine has been cleared); the committed mapping stays, for the
  // restart.
  void PowerCut();

  // `block` was in the committed mapping before the run (a prefilled cache).
  void Preload(uint64_t block, uint32_t slot, const BlockMask& valid) {
    committed_.insert_or_assign(block, Mapping{slot, valid});
  }
  const std::unordered_map<uint64_t, Mapping>& committed() const { return committed_; }
  bool has_changes() const { return !changes_.empty(); }
  bool running() const { return running_; }
  const Counters& counters() const { return c_; }
  void ResetCounters() { c_ = Counters(); }

  // storlab sim --state (cache_state.cc): the committed mapping (what a
  // restart finds), changes not committed yet, whether either device was
  // written since. REQUIRES: no commit running or waited for.
  Status SaveState(StateWriter& w) const;
  Status RestoreState(StateReader& r, uint32_t slots, uint32_t sectors);

 private:
  void Start();
  void ArmTimer();

  Engine& engine_;
  Config cfg_;
  CacheTable& table_;
  Node& cache_dev_;
  Node& origin_;
  Callback<void()> after_commit_;
  std::unordered_map<uint64_t, Mapping> committed_;
  std::unordered_map<uint64_t, std::optional<Mapping>> changes_;  // nullopt: unmapped
  bool running_ = false;
  bool next_force_ = false;
  std::vector<Callback<void(Status)>> next_waiters_;
  bool fast_written_ = false;
  bool origin_written_ = false;
  Engine::EventId timer_;
  Counters c_;
};

}  // namespace storlab

#endif  // STORLAB_SIM_LAYERS_CACHE_CACHE_COMMITTER_H_
