// Helpers for the cache layer's tests: stacks with exact latencies.
#ifndef STORLAB_TESTS_SIM_CACHE_TEST_UTIL_H_
#define STORLAB_TESTS_SIM_CACHE_TEST_UTIL_H_

#include <string>

#include "sim/layers/cache.h"
#include "tests/sim/test_util.h"

namespace storlab::testing {

inline CacheCore& CoreOf(LoadedStack& s) { return static_cast<Cache&>(s.stack->root()).core(); }

// A cache node with `cache_keys` on a cache device "ssd" (50 us, no
// bandwidth limit) over an origin "hdd" (4 ms): latencies are exact.
inline std::string CacheOnDevice(const std::string& cache_keys,
                                 const std::string& origin_capacity = "256MiB") {
  return R"(
[node.cache]
type = "cache"
children = ["ssd", "hdd"]
)" + cache_keys +
         R"(

[node.ssd]
type = "ram"
capacity = "16MiB"
latency = "50us"

[node.hdd]
type = "ram"
capacity = ")" +
         origin_capacity + R"("
latency = "4ms"
)";
}

}  // namespace storlab::testing

#endif  // STORLAB_TESTS_SIM_CACHE_TEST_UTIL_H_
