// CachePolicy: decides which origin blocks a cache holds and which it evicts.
//
// The cache tells its policy about every access (a hit on a block it holds,
// or a miss), about blocks it inserts and removes, and about blocks that turn
// dirty or clean. The policy answers whether a missed block should be
// promoted, and which clean block to evict when the cache needs room. Two
// policies exist: "lru" (promote every missed block at once, evict the least
// recently used clean block) and "smq" (dm-cache's default, which first
// learns which regions are hot; see cache_smq.h). Blocks are origin block
// numbers (offset / block size). Not thread-safe.
#ifndef STORLAB_SIM_LAYERS_CACHE_CACHE_POLICY_H_
#define STORLAB_SIM_LAYERS_CACHE_CACHE_POLICY_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string_view>

#include "sim/node_stats.h"
#include "sim/status.h"
#include "sim/time.h"

namespace storlab {

class CacheTable;
class StateReader;
class StateWriter;
struct CacheEntry;

enum class Promote : uint8_t {
  kNo,
  kTemporary,  // promote, but first in line for eviction (smq's fast promotion)
  kPermanent,
};

struct Access {
  uint64_t block = 0;
  bool is_write = false;
  bool full_block = false;  // a write that covers the whole block
  Nanos now;
};

class CachePolicy {
 public:
  virtual ~CachePolicy() = default;
  virtual std::string_view name() const = 0;

  // An access to a block the cache holds (`e`: its entry).
  virtual void Hit(const Access& a, CacheEntry& e) = 0;
  // An access to a block the cache does not hold: whether to promote it.
  virtual Promote Miss(const Access& a) = 0;
  // The cache now holds `e.block` in its entry `e` (after a promotion it
  // asked for, or one the cache made on its own, or after a restart).
  // Entries stay where they are until the cache erases them, so a policy
  // may link them (LruPolicy keeps its lists in them).
  virtual void Insert(CacheEntry& e, bool dirty, Promote how) = 0;
  // The cache is about to erase `e`. REQUIRES: it was inserted.
  virtual void Remove(CacheEntry& e) = 0;
  // `e` turned dirty (written in the cache) or clean (destaged).
  virtual void SetDirty(CacheEntry& e, bool dirty) = 0;
  // The best clean block to evict for which `evictable` is true, looking at
  // no more than `max_scan` candidates; nullopt if none. Does not remove it.
  virtual std::optional<uint64_t> Victim(const std::function<bool(uint64_t)>& evictable,
                                         size_t max_scan) = 0;
  // The cache holds `e.block` in `e.slot` from before this run (a
  // restart's reload, a prefilled cache): no access history, so a policy
  // with levels picks one (smq_load_mapping).
  virtual void Load(CacheEntry& e, bool dirty) { Insert(e, dirty, Promote::kPermanent); }
  // One tick of the policy's clock (dm-cache's policy_tick: the completion
  // of a "tick bio", cache_end_io). Clock ticks that need no I/O (the
  // one-second waker) the policy counts itself from `now`.
  virtual void Tick(Nanos now) {}
  // Whether promotions and demotions are background jobs (dm-cache's
  // migrations, since Linux 4.12: a miss is served from the origin, and a
  // promotion copies the whole block afterwards) rather than part of the
  // miss that asked for them.
  virtual bool background_migrations() const { return false; }
  // A clean block to demote for room (smq's queue_demotion); nullopt if
  // none qualifies.
  virtual std::optional<uint64_t> DemotionVictim(const std::function<bool(uint64_t)>& evictable,
                                                 size_t max_scan) {
    return Victim(evictable, max_scan);
  }
  // Policy-specific figures ("smq_read_promote_level", ...).
  virtual void AppendStats(StatList& out) const {}
  // storlab sim --state (cache_policy_state.cc): everything later
  // decisions depend on, read back into a policy just made with the same
  // sizes.
  virtual void SaveState(StateWriter& w) const = 0;
  virtual Status RestoreState(StateReader& r) = 0;
};

enum class PolicyKind : uint8_t { kLru, kSmq };

// `cache_blocks`: blocks the cache can hold; `origin_blocks`: blocks of the
// origin (both in cache blocks); `table`: the cache's entries, which must
// outlive the policy (LruPolicy finds its restored lists' entries there).
std::unique_ptr<CachePolicy> MakeCachePolicy(PolicyKind kind, uint64_t cache_blocks,
                                             uint64_t origin_blocks, CacheTable& table);

}  // namespace storlab

#endif  // STORLAB_SIM_LAYERS_CACHE_CACHE_POLICY_H_
