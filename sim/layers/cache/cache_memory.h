// CacheMemory: the RAM a cache keeps its blocks in when it has no cache
// device (a drive's buffer, a server's page cache).
//
// A device whose data lives in a volatile Overlay: a power cut loses all of
// it. Requests share one memory pipe: each costs `latency` plus its bytes at
// `bytes_per_s`, one after another (memory bandwidth is shared). Owned by
// the cache, not part of the stack file. Not thread-safe.
#ifndef STORLAB_SIM_LAYERS_CACHE_CACHE_MEMORY_H_
#define STORLAB_SIM_LAYERS_CACHE_CACHE_MEMORY_H_

#include "sim/node.h"
#include "sim/store/overlay.h"

namespace storlab {

class CacheMemory : public Node {
 public:
  CacheMemory(Engine& engine, std::string name, uint64_t capacity, uint32_t logical_block,
              Nanos latency, double bytes_per_s, bool keeps_data);
  static constexpr NodeKind kKind = NodeKind::kCacheMemory;
  NodeKind kind() const override { return kKind; }
  std::string_view type() const override { return "cache_memory"; }
  // Frees the host memory that held [off, off+len).
  void Discard(uint64_t off, uint64_t len) { data_.Erase(off, len); }
  uint64_t held_bytes() const { return data_.held_bytes(); }
  // storlab sim --state, for the cache that owns it (it is no node of the
  // stack): when its pipe is next free, and what it holds.
  void SaveMemory(StateWriter& w) const;
  Status RestoreMemory(StateReader& r);

 protected:
  void DoSubmit(Request req) override;
  void OnPowerCut() override;

 private:
  Nanos latency_;
  double bytes_per_s_;
  Nanos busy_until_;
  Overlay data_;
};

}  // namespace storlab

#endif  // STORLAB_SIM_LAYERS_CACHE_CACHE_MEMORY_H_
