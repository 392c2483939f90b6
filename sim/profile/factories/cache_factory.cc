// MakeCache: the "cache" node type's profile keys, read into CacheConfig
// (sim/layers/cache/cache_core.h); also the nfs node's server cache.
#include "sim/profile/factories/cache_factory.h"

#include <algorithm>
#include <memory>
#include <string>

#include "sim/layers/cache/cache.h"
#include "sim/profile/factories/factories.h"

namespace storlab {

void ReadCacheParams(Params& params, const std::string& prefix, CacheConfig* cfg) {
  auto key = [&](const char* k) { return prefix + k; };
  std::string mode = CacheModeName(cfg->mode);
  params.Enum({key("mode"), "write policy: writeback, writethrough or writearound"}, &mode,
              {"writeback", "writethrough", "writearound"});
  cfg->mode = mode == "writeback"     ? CacheMode::kWriteBack
              : mode == "writearound" ? CacheMode::kWriteAround
                                      : CacheMode::kWriteThrough;
  std::string policy = cfg->policy == PolicyKind::kSmq ? "smq" : "lru";
  params.Enum({key("policy"), "which blocks to keep: smq (dm-cache's) or lru"}, &policy,
              {"smq", "lru"});
  cfg->policy = policy == "smq" ? PolicyKind::kSmq : PolicyKind::kLru;
  params.Size(
      {key("size"), prefix.empty()
                        ? "cached data; with a cache device 0 means all of it after the metadata"
                        : "the server's page cache (not set: none)"},
      &cfg->size, 1);
  params.Size({key("block_size"), "cache block size (a multiple of the devices' logical block)"},
              &cfg->block_size, 512, uint64_t{1} << 30);
  params.Fraction({key("dirty_background"), "destage while dirty data exceeds this share of size"},
                  &cfg->dirty_background);
  params.Fraction({key("dirty_limit"), "writes wait (or bypass) above this share of size"},
                  &cfg->dirty_limit);
  std::string over = cfg->over_limit_bypass ? "writethrough" : "wait";
  params.Enum({key("over_limit"), "above dirty_limit: wait, or write through"}, &over,
              {"wait", "writethrough"});
  cfg->over_limit_bypass = over == "writethrough";
  params.Duration(
      {key("dirty_expire"), "dirty data older than this is destaged (0: never expires)"},
      &cfg->dirty_expire);
  params.Size(
      {key("sequential_cutoff"), "sequential streams longer than this bypass the cache (0: never)"},
      &cfg->sequential_cutoff);
  params.Int({key("destage_depth"), "destage operations in flight"}, &cfg->destage_depth, 1, 4096);
  params.Size(
      {key("destage_max_io"), "contiguous dirty blocks merge into destage writes up to this"},
      &cfg->destage_max_io, 4096, uint64_t{64} << 20);
}

Status ResolveCacheConfig(Params& params, const std::string& prefix, const Node* fast,
                          const Node& origin, CacheConfig* cfg) {
  auto key = [&](const char* k) { return prefix + k; };
  const uint32_t sector = std::max(origin.geometry().logical_block,
                                   fast ? fast->geometry().logical_block : uint32_t{512});
  if (cfg->block_size % sector != 0) {
    params.Fail(key("block_size"), "must be a multiple of the " + std::to_string(sector) +
                                       "-byte logical block of the devices");
    return params.Finish();
  }
  if (cfg->dirty_background > cfg->dirty_limit) {
    params.Fail(key("dirty_background"), "must not exceed dirty_limit");
    return params.Finish();
  }
  if (fast) {
    // lvm2 (lib/metadata/cache_manip.c, after thin-provisioning-tools'
    // cache_metadata_size): 4 MiB of transaction overhead plus 16 bytes of
    // mapping and 8 of hint per cache block.
    const uint64_t cap = fast->geometry().capacity;
    auto meta_for = [](uint64_t blocks) {
      return ((uint64_t{4} << 20) + 24 * blocks + 4095) / 4096 * 4096;
    };
    if (cfg->size == 0) {
      uint64_t blocks =
          cap > (uint64_t{4} << 20) ? (cap - (uint64_t{4} << 20)) / (cfg->block_size + 24) : 0;
      if (!params.Has(key("metadata_size"))) cfg->metadata_size = meta_for(blocks);
      params.Size(
          {key("metadata_size"), "metadata at the start of the cache device (cache device only)"},
          &cfg->metadata_size, 4096);
      cfg->size = cap > cfg->metadata_size
                      ? (cap - cfg->metadata_size) / cfg->block_size * cfg->block_size
                      : 0;
    } else {
      cfg->metadata_size = meta_for(cfg->size / cfg->block_size);
      params.Size(
          {key("metadata_size"), "metadata at the start of the cache device (cache device only)"},
          &cfg->metadata_size, 4096);
    }
    params.Duration({key("commit_period"), "metadata commit interval (cache device only)"},
                    &cfg->commit_period);
    if (cfg->metadata_size % 4096 != 0) {
      params.Fail(key("metadata_size"), "must be a multiple of 4 KiB");
      return params.Finish();
    }
    if (cfg->commit_period <= Nanos(0)) {
      params.Fail(key("commit_period"), "must be positive");
      return params.Finish();
    }
    if (cfg->metadata_size + cfg->size > cap) {
      params.Fail(key("size"), "the cache (" + std::to_string(cfg->size) +
                                   " bytes) and its metadata (" +
                                   std::to_string(cfg->metadata_size) +
                                   " bytes) do not fit on the cache device ('" + fast->name() +
                                   "', " + std::to_string(cap) + " bytes)");
      return params.Finish();
    }
  } else {
    // The nfs node has a server cache only where its size is given.
    if (prefix.empty()) params.Require(key("size"));
    params.Duration({key("ram_latency"), "time per RAM cache access (RAM cache only)"},
                    &cfg->ram_latency);
    params.Rate({key("ram_bandwidth"), "RAM cache copy rate (RAM cache only)"},
                &cfg->ram_bytes_per_s);
  }
  RETURN_IF_ERROR(params.Finish());
  cfg->size = cfg->size / cfg->block_size * cfg->block_size;
  if (cfg->size < cfg->block_size) {
    params.Fail(key("size"),
                "must hold at least one block of " + std::to_string(cfg->block_size) + " bytes");
    return params.Finish();
  }
  if (cfg->size / cfg->block_size > 0xffffffffu) {
    params.Fail(key("size"), "holds more than 2^32 blocks: use a larger block_size");
    return params.Finish();
  }
  return Status();
}

Result<std::unique_ptr<Node>> MakeCache(Params& params, BuildContext& ctx) {
  Node* fast = ctx.children.size() == 2 ? ctx.children[0] : nullptr;
  Node& origin = *ctx.children.back();
  CacheConfig cfg = DefaultCacheConfig(fast == nullptr);
  ReadCacheParams(params, "", &cfg);
  params.Fraction({"prefill",
                   "share of the cache holding other data at the start (clean, cold to this run, "
                   "origin blocks drawn from the seed: a cache shared with other VMs; storlab's, "
                   "default 0 = empty, as lvcreate leaves a new cache pool)"},
                  &cfg.prefill);
  cfg.seed = ctx.seed;
  RETURN_IF_ERROR(ResolveCacheConfig(params, "", fast, origin, &cfg));
  return std::unique_ptr<Node>(
      new Cache(ctx.engine, ctx.node_name, cfg, fast, origin, ctx.keeps_data()));
}

}  // namespace storlab
