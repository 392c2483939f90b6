// Engine speed: events per wall second of the virtual driver on a no-op
// workload — K independent chains, each event scheduling its successor a
// pseudo-random delay later, so the queue holds K events (K = 1, 32, 1024,
// 8192).
//
//   build/bench/storlab_bench_engine [events_per_run]
#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "sim/engine.h"
#include "sim/random.h"
#include "sim/virtual_driver.h"

namespace storlab {
namespace {

double Run(uint64_t chains, uint64_t total) {
  Engine e;
  Random rng(1);
  uint64_t left = total;
  struct Chain {
    Engine* e;
    Random* rng;
    uint64_t* left;
    void operator()() const {
      if (*left == 0) return;
      --*left;
      e->After(Nanos(1 + static_cast<int64_t>(rng->Uniform(100000))), Chain(*this));
    }
  };
  for (uint64_t i = 0; i < chains; ++i)
    e.After(Nanos(static_cast<int64_t>(i)), Chain{&e, &rng, &left});
  auto t0 = std::chrono::steady_clock::now();
  uint64_t n = VirtualDriver(e).RunUntilIdle();
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return static_cast<double>(n) / s;
}

}  // namespace
}  // namespace storlab

int main(int argc, char** argv) {
  uint64_t total = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 20'000'000;
  std::printf("engine: no-op events, virtual driver, one core\n");
  for (uint64_t chains : {1, 32, 1024, 8192}) {
    double best = 0;
    for (int rep = 0; rep < 3; ++rep) best = std::max(best, storlab::Run(chains, total));
    std::printf("  %5llu events pending: %6.1f M events/s\n",
                static_cast<unsigned long long>(chains), best / 1e6);
  }
  return 0;
}
