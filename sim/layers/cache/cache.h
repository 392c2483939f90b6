// Cache: the "cache" node type — a block cache layer (see cache_core.h for
// the model) as a node of a stack.
//
//   [node.cache]
//   type = "cache"
//   children = ["ssd", "hdd"]   # [fast, slow]: a cache device and the origin
//   mode = "writethrough"       # or "writeback", "writearound"
//   policy = "smq"              # or "lru"
//
// or, with one child (the origin), a cache in RAM: a drive's buffer, a
// server's page cache (`size` is then required). Defaults follow the shape:
// with a cache device they are dm-cache/lvmcache's and bcache's, in RAM the
// Linux page cache's. Not thread-safe.
#ifndef STORLAB_SIM_LAYERS_CACHE_CACHE_H_
#define STORLAB_SIM_LAYERS_CACHE_CACHE_H_

#include <memory>

#include "sim/layers/cache/cache_core.h"
#include "sim/node.h"

namespace storlab {

class Cache : public Node {
 public:
  // `fast` may be nullptr (a RAM cache). REQUIRES: cfg resolved
  // (ResolveCacheConfig).
  Cache(Engine& engine, const std::string& name, const CacheConfig& cfg, Node* fast, Node& origin,
        bool keeps_data);
  static constexpr NodeKind kKind = NodeKind::kCache;
  NodeKind kind() const override { return kKind; }
  std::string_view type() const override { return "cache"; }
  std::vector<Node*> children() const override;
  void AppendStats(StatList& out) const override { core_.AppendStats(out, ""); }
  std::vector<const TimeSeries*> Series() const override { return {&core_.dirty_series()}; }
  CacheCore& core() { return core_; }
  // --state: the core's state (cache_state.cc), which includes the RAM of
  // a cache without a cache device; the devices save their own.
  bool CanSaveState() const override { return true; }
  Status SaveState(StateWriter& w) const override { return core_.SaveState(w); }
  Status RestoreState(StateReader& r) override { return core_.RestoreState(r); }

 protected:
  void DoSubmit(Request req) override { core_.Submit(std::move(req)); }
  void OnPowerCut() override { core_.PowerCut(); }

 private:
  Node* fast_;
  Node& origin_;
  CacheCore core_;
};

// Defaults for a cache with a cache device (ram == false) or in RAM.
CacheConfig DefaultCacheConfig(bool ram);

}  // namespace storlab

#endif  // STORLAB_SIM_LAYERS_CACHE_CACHE_H_
