// CacheDestager: writes a block cache's dirty data back to its origin
// ("destaging": dm-cache's writeback migrations, drivers/md/dm-cache-target.c;
// bcache's background writeback, drivers/md/bcache/writeback.c), and, for a
// cache in RAM, holds each FLUSH until what it covers is at the origin —
// the way nbdkit's cache filter keeps reclaim in reclaim.c, apart from the
// data path.
//
// What it owns: the elevator cursor, the operations in flight (how many, and
// the dirty bytes they carry), the expiry timer, the FLUSHes waiting for it,
// and its counters. What it works on: the cache's CacheTable (it walks the
// dirty indexes, locks a block while destaging it, then marks it clean or
// failed), the cache device or RAM it reads the dirty sectors from, and the
// origin it writes them to.
//
// When. Kick() starts operations, up to `depth` in flight, and arms the
// expiry timer:
//   urgent   a FLUSH or a writer waits for room: any destageable block, in
//            elevator order (ascending origin offsets from where the last
//            operation ended, bcache's refill_dirty() from last_scanned);
//   over     dirty bytes not yet in flight exceed `background`: in elevator
//            order, until the threshold would be reached;
//   expired  a block dirty for longer than `expire` (0: never): oldest first.
// An operation reads a block's dirty runs from the cache and writes them to
// the origin (bcache's read_dirty() then write_dirty()), merging following
// blocks while the dirty data runs on without a gap, up to `max_io` bytes.
// A block is destageable when it is dirty, unlocked, has no client I/O in
// flight and its last destage did not fail. The owner calls Kick() whenever
// that may have changed (a write ended, a block was unlocked, a waiter came).
//
// What it asks of its owner (Owner): whether writers wait for room, and to be
// told when a block turned clean, which origin ranges an operation wrote,
// which blocks it unlocked and when room was made.
//
// Not thread-safe: the engine's thread runs everything.
#ifndef STORLAB_SIM_LAYERS_CACHE_CACHE_DESTAGER_H_
#define STORLAB_SIM_LAYERS_CACHE_CACHE_DESTAGER_H_

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sim/engine.h"
#include "sim/layers/cache/cache_pieces.h"
#include "sim/layers/cache/cache_table.h"
#include "sim/node.h"

namespace storlab {

class StateReader;
class StateWriter;

class CacheDestager {
 public:
  struct Config {
    uint32_t depth = 8;              // operations in flight
    uint64_t max_io = 1 << 20;       // bytes one operation may merge
    uint64_t background = 0;         // destage while dirty bytes exceed this
    Nanos expire;                    // 0: dirty data never expires
    uint64_t block_size = 64 << 10;  // the cache's block, bytes
    uint32_t sector = 512;           // the cache's sector, bytes
    uint64_t data_base = 0;          // offset of slot 0 on the cache device
    bool keeps_data = true;          // carry the bytes (not timing only)
  };
  struct Counters {
    uint64_t destage_ops = 0, destaged_bytes = 0, destage_errors = 0;
  };
  // What the destager asks of the cache that owns it. All but
  // WritersWaiting() run when an operation ends (from an engine event),
  // never inside Kick() or Flush().
  class Owner {
   public:
    // Writers wait for room: destage regardless of the thresholds.
    virtual bool WritersWaiting() const = 0;
    // The block of `e` was written back and is clean now.
    virtual void Cleaned(CacheEntry& e) = 0;
    // An operation wrote these origin ranges (buf_off unused).
    virtual void Written(const std::vector<CachePiece>& writes) = 0;
    // An operation ended, its blocks are unlocked (clean, or failed).
    virtual void Unlocked(const std::vector<uint64_t>& blocks) = 0;
    // An operation ended: writers waiting for room may retry.
    virtual void RoomMade() = 0;

   protected:
    ~Owner() = default;
  };

  // `cache_dev`: where slots are (the cache device, or the cache's RAM).
  CacheDestager(Engine& engine, std::string name, const Config& cfg, CacheTable& table,
                Node& cache_dev, Node& origin, Owner& owner);
  CacheDestager(const CacheDestager&) = delete;
  CacheDestager& operator=(const CacheDestager&) = delete;

  // Starts what the thresholds ask for; arms the expiry timer.
  void Kick();
  // A FLUSH of a cache in RAM: `done` runs once every block dirtied by a
  // write with sequence number <= `seq` is clean and the origin was flushed
  // (with an error if what blocks it is only blocks whose destage failed).
  void Flush(uint64_t seq, Completion done);
  // Completes the FLUSHes that nothing blocks any more (after the owner
  // dropped dirty blocks).
  void CheckFlushes();
  // Forgets operations in flight, waiting FLUSHes and the timer (the engine
  // has been cleared). The cursor stays where it was.
  void PowerCut();

  uint32_t in_flight() const { return destaging_; }
  // storlab sim --state (cache_state.cc): the elevator's cursor. REQUIRES:
  // nothing in flight, no FLUSH waiting (the expiry timer follows from the
  // table: Kick() arms it again).
  Status SaveState(StateWriter& w) const;
  Status RestoreState(StateReader& r);
  const Counters& counters() const { return c_; }
  void ResetCounters() { c_ = Counters(); }

 private:
  struct DestageOp;
  struct FlushWaiter {
    uint64_t seq;
    Completion done;
  };

  bool Destageable(const CacheEntry& e) const;
  // The next block to destage, and how many dirty bytes the operation may
  // merge (background destaging stops near the threshold).
  std::optional<std::pair<uint64_t, uint64_t>> Pick();
  void Start(uint64_t block, uint64_t budget);
  void WriteOrigin(const std::shared_ptr<DestageOp>& op);
  void Done(const std::shared_ptr<DestageOp>& op, Status st);
  void ArmExpiry();
  uint64_t SlotOffset(uint32_t slot) const {
    return cfg_.data_base + uint64_t{slot} * cfg_.block_size;
  }

  Engine& engine_;
  std::string name_;
  Config cfg_;
  CacheTable& table_;
  Node& cache_dev_;
  Node& origin_;
  Owner& owner_;
  uint32_t destaging_ = 0;        // operations in flight
  uint64_t destaging_bytes_ = 0;  // the dirty bytes they carry
  uint64_t cursor_ = 0;           // the elevator: where the last operation ended
  Engine::EventId expiry_timer_;
  Nanos expiry_at_;
  std::deque<FlushWaiter> flush_waiters_;
  Counters c_;
};

}  // namespace storlab

#endif  // STORLAB_SIM_LAYERS_CACHE_CACHE_DESTAGER_H_
