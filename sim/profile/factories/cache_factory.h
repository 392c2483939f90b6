// The cache keys, shared by the "cache" node type and the nfs node's server
// cache (keys prefixed "server_cache_"). Implemented in cache_factory.cc.
// Thread-compatible.
#ifndef STORLAB_SIM_PROFILE_FACTORIES_CACHE_FACTORY_H_
#define STORLAB_SIM_PROFILE_FACTORIES_CACHE_FACTORY_H_

#include <string>

#include "sim/layers/cache/cache_core.h"
#include "sim/node.h"
#include "sim/profile/params.h"
#include "sim/status.h"

namespace storlab {

// Reads the cache keys of `params` into `cfg` (each key optional; `prefix`
// is prepended to every key name, e.g. "server_cache_" inside the nfs node).
void ReadCacheParams(Params& params, const std::string& prefix, CacheConfig* cfg);
// Fills in derived sizes and checks `cfg` against the devices; errors name
// the key (through `params`). `fast` may be nullptr.
Status ResolveCacheConfig(Params& params, const std::string& prefix, const Node* fast,
                          const Node& origin, CacheConfig* cfg);

}  // namespace storlab

#endif  // STORLAB_SIM_PROFILE_FACTORIES_CACHE_FACTORY_H_
