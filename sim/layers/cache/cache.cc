#include "sim/layers/cache/cache.h"

namespace storlab {

Cache::Cache(Engine& engine, const std::string& name, const CacheConfig& cfg, Node* fast,
             Node& origin, bool keeps_data)
    : Node(engine, name),
      fast_(fast),
      origin_(origin),
      core_(engine, name, cfg, fast, origin, keeps_data) {
  geometry_ = core_.geometry();
  caps_ = core_.caps();
  core_.set_on_destaged([this](uint64_t off, uint64_t len) { TraceDestaged(off, len); });
  traces_volatile_ = true;
}

std::vector<Node*> Cache::children() const {
  if (fast_) return {fast_, &origin_};
  return {&origin_};
}

CacheConfig DefaultCacheConfig(bool ram) {
  CacheConfig c;
  if (ram) {
    // A page cache: Linux mm/page-writeback.c defaults.
    c.mode = CacheMode::kWriteBack;
    c.policy = PolicyKind::kLru;
    c.block_size = 4096;                     // a page
    c.dirty_background = 0.10;               // vm.dirty_background_ratio = 10
    c.dirty_limit = 0.20;                    // vm.dirty_ratio = 20
    c.dirty_expire = Nanos(30'000'000'000);  // vm.dirty_expire_centisecs = 3000
    c.sequential_cutoff = 0;                 // the page cache caches streams too
    c.destage_depth = 32;                    // writeback keeps the device queue busy
  } else {
    // dm-cache / lvmcache (lvm2 lib/config/defaults.h) and bcache.
    c.mode = CacheMode::kWriteThrough;       // DEFAULT_CACHE_MODE "writethrough"
    c.policy = PolicyKind::kSmq;             // dm-cache's default policy
    c.block_size = 64 << 10;                 // DEFAULT_CACHE_POOL_CHUNK_SIZE 64 KiB
    c.dirty_background = 0.10;               // bcache writeback_percent = 10
    c.dirty_limit = 0.70;                    // bcache CUTOFF_WRITEBACK_SYNC = 70
    c.dirty_expire = Nanos(30'000'000'000);  // bcache writeback_delay = 30 s
    c.sequential_cutoff = 0;                 // dm-cache has none; bcache: 4 MiB
    c.destage_depth = 8;
  }
  return c;
}

}  // namespace storlab
