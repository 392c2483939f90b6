// Real-time driver lateness: how late events fire against the wall clock
// at a given event rate (events evenly spaced), as p50 / p99 / max.
//
//   build/bench/storlab_bench_realtime [seconds_per_rate] [rate ...]
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <vector>

#include "sim/engine.h"
#include "sim/realtime_driver.h"

namespace storlab {
namespace {

void Measure(double rate, double seconds) {
  Engine e;
  RealtimeDriver d(e);
  const Nanos period = Nanos(static_cast<int64_t>(1e9 / rate));
  const uint64_t total = static_cast<uint64_t>(rate * seconds);
  uint64_t fired = 0;
  std::mutex m;
  std::condition_variable cv;
  bool done = false;
  d.Start();
  d.Call([&] {
    Nanos start = e.now() + Nanos(10'000'000);
    for (uint64_t i = 0; i < total; ++i) {
      e.At(start + period * static_cast<int64_t>(i), [&] {
        if (++fired == total) {
          std::lock_guard<std::mutex> l(m);
          done = true;
          cv.notify_all();
        }
      });
    }
  });
  d.ResetLateness();
  {
    std::unique_lock<std::mutex> l(m);
    cv.wait(l, [&] { return done; });
  }
  d.Stop();
  LatencyHistogram h = d.Lateness();
  std::printf("  %7.0f events/s: lateness p50 %7.1f us, p99 %8.1f us, max %8.1f us (%llu events)\n",
              rate, static_cast<double>(h.Percentile(50)) / 1e3,
              static_cast<double>(h.Percentile(99)) / 1e3, static_cast<double>(h.max()) / 1e3,
              static_cast<unsigned long long>(h.samples()));
}

}  // namespace
}  // namespace storlab

int main(int argc, char** argv) {
  double seconds = argc > 1 ? std::atof(argv[1]) : 3.0;
  std::vector<double> rates;
  for (int i = 2; i < argc; ++i) rates.push_back(std::atof(argv[i]));
  if (rates.empty()) rates = {1000, 20000};
  std::printf("real-time driver: lateness of events against the wall clock\n");
  for (double r : rates) storlab::Measure(r, seconds);
  return 0;
}
