// Helpers for the cache layer's tests: stacks with exact latencies.
#ifndef STORLAB_TESTS_SIM_CACHE_TEST_UTIL_H_
#define STORLAB_TESTS_SIM_CACHE_TEST_UTIL_H_

#include <string>

#include "sim/layers/cache/cache.h"
#include "tests/sim/test_util.h"
#include "workloads/node_probe.h"

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

struct ReadPassResult {
  double hit_rate = 0;  // block lookups that hit
  double mean_latency_us = 0;
};

// One pass of `ios` 4 KiB random reads at QD1 over [offset, offset+span) of
// the stack whose root is a cache.
inline ReadPassResult ReadPass(Engine& e, LoadedStack& s, uint64_t offset, uint64_t span,
                               uint64_t ios, uint64_t seed) {
  const CacheCounters before = CoreOf(s).counters();
  ProbeSpec p;
  p.op = Op::kRead;
  p.block_size = 4096;
  p.queue_depth = 1;
  p.random = true;
  p.offset = offset;
  p.span = span;
  p.max_ios = ios;
  p.duration = Nanos(3'600'000'000'000);
  p.seed = seed;
  const ProbeResult r = RunProbe(e, s.stack->root(), p);
  const CacheCounters& c = CoreOf(s).counters();
  const double hits = static_cast<double>(c.read_hits - before.read_hits);
  const double misses = static_cast<double>(c.read_misses - before.read_misses);
  return {hits / (hits + misses), r.mean_latency_us};
}

}  // namespace storlab::testing

#endif  // STORLAB_TESTS_SIM_CACHE_TEST_UTIL_H_
