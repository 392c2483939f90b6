// RealtimeDriver: runs an engine against the wall clock, for the exports.
//
// A thread of its own sleeps until the next event is due in wall time and
// runs it, and wakes early when an outside request is posted (an NBD or FUSE
// request), running it at the simulated time that corresponds to now — the
// real-time simulator of ns-3. Models do not know which driver runs them.
// Events that run late (the host was busy) are recorded in a lateness
// histogram (ns, fio geometry), the measure of how faithful the timing is.
//
// Threading: Post(), Call(), Lateness() and Stop() are thread-safe. The
// engine and every node on it belong to the driver's thread while it runs:
// touch them only from inside Post()/Call().
#ifndef STORLAB_SIM_REALTIME_DRIVER_H_
#define STORLAB_SIM_REALTIME_DRIVER_H_

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include "sim/callback.h"
#include "sim/clock.h"
#include "sim/engine.h"
#include "sim/histogram.h"
#include "sim/time.h"

namespace storlab {

class RealtimeDriver {
 public:
  struct Options {
    Clock* clock = Clock::Real();
    // The last stretch before an event is due is spent polling instead of
    // sleeping: waking from a timed sleep costs the OS's timer slack (tens
    // of microseconds or more). 0 sleeps all the way.
    Nanos spin = Nanos(100'000);
  };

  RealtimeDriver(Engine& engine, Options options);
  explicit RealtimeDriver(Engine& engine) : RealtimeDriver(engine, Options()) {}
  ~RealtimeDriver();  // Stop()s
  RealtimeDriver(const RealtimeDriver&) = delete;
  RealtimeDriver& operator=(const RealtimeDriver&) = delete;

  // Starts the driver thread; simulated time now() maps to wall time now.
  // REQUIRES: not running.
  void Start();
  // Runs what is already posted, then stops the thread. Events not yet due
  // stay in the engine. Idempotent.
  void Stop();
  bool running() const { return thread_.joinable(); }

  // Runs `fn` on the driver's thread as soon as possible, at the simulated
  // time that corresponds to the wall time it runs at.
  void Post(Callback<void()> fn);
  // Posts `fn` and waits until it has run. REQUIRES: not called from the
  // driver's thread.
  void Call(const std::function<void()>& fn);

  // How late events ran (wall time run minus due time), since the last reset.
  LatencyHistogram Lateness() const;
  void ResetLateness();

 private:
  void Loop();
  Nanos SimNow() const;           // simulated time of the wall clock now
  int64_t WallOf(Nanos t) const;  // wall time at which simulated time t is due

  Engine& engine_;
  Options options_;
  std::thread thread_;
  int64_t wall_start_ = 0;
  Nanos sim_start_;

  mutable std::mutex mu_;  // guards inbox_, stop_, lateness_
  std::condition_variable cv_;
  std::vector<Callback<void()>> inbox_;
  bool stop_ = false;
  LatencyHistogram lateness_;
};

}  // namespace storlab

#endif  // STORLAB_SIM_REALTIME_DRIVER_H_
