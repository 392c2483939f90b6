// RealtimeDriver: runs an engine against the wall clock, for the exports.
//
// A thread of its own sleeps until the next event is due in wall time and
// runs it, and wakes early when an outside request is posted (an NBD or FUSE
// request), running it at the simulated time that corresponds to the wall
// time at which it was posted — the real-time simulator of ns-3. Models do
// not know which driver runs them.
//
// Two measures of how faithful the timing is, both fio-geometry histograms
// in ns:
//   - lateness: how long after its due wall time an event ran (the host was
//     busy, or the timer woke late);
//   - inbox wait: how long a posted function waited between Post() and the
//     moment the driver thread ran it.
// A posted function may be backdated (Post(fn, backdate)): it runs at the
// simulated time of its posting minus `backdate`, but never before the
// engine's now() — transport compensation (sim/serve/compensation.h).
//
// Threading: Post(), RunHere(), Call(), Stop(), Lateness(), InboxWait() and
// ResetLateness() are thread-safe. The engine and every node on it belong to
// whichever thread holds the engine (the driver's thread, or a caller of
// RunHere() for as long as it runs): touch them only from inside a posted
// function or RunHere(). After Stop() the driver refuses new work (Post and
// Call return kAborted, RunHere false) until the next Start().
#ifndef STORLAB_SIM_REALTIME_DRIVER_H_
#define STORLAB_SIM_REALTIME_DRIVER_H_

#include <atomic>
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
#include "sim/status.h"
#include "sim/time.h"

namespace storlab {

class RealtimeDriver {
 public:
  struct Options {
    Clock* clock = Clock::Real();
    // The last stretch before an event is due is spent polling the clock
    // (Clock::Relax between polls) instead of sleeping: waking from a timed
    // sleep costs the OS's timer slack and a scheduler wake-up (tens of
    // microseconds on a busy VM). 0 sleeps all the way, which leaves the CPU
    // to the transport's threads; on a machine with few cores that is often
    // the better trade (bench/realtime_bench.cc measures both).
    Nanos spin = Nanos(0);
  };
  // A posted function. Its inline room holds a closure with a request's
  // worth of fields, so posting one does not allocate.
  using Work = Callback<void(), 128>;

  RealtimeDriver(Engine& engine, Options options);
  explicit RealtimeDriver(Engine& engine) : RealtimeDriver(engine, Options()) {}
  ~RealtimeDriver();  // Stop()s. REQUIRES: not called on the driver's thread.
  RealtimeDriver(const RealtimeDriver&) = delete;
  RealtimeDriver& operator=(const RealtimeDriver&) = delete;

  // Starts the driver thread; simulated time now() maps to wall time now.
  // REQUIRES: not running.
  void Start();
  // Runs what is already posted, then stops the thread. Events not yet due
  // stay in the engine. Idempotent, and safe from several threads at once.
  // Called from a posted function, it returns at once: the loop ends after
  // that function, and the thread is joined by the next Stop() from another
  // thread (or the destructor).
  void Stop();
  bool running() const;
  // True on the driver's own thread.
  bool OnDriverThread() const;

  // Runs `fn` on the driver's thread as soon as possible, at the simulated
  // time of the wall time at which it was posted (minus `backdate`, not
  // before the engine's now()). Returns kAborted, dropping `fn` unrun, when
  // the driver is stopped or stopping.
  Status Post(Work fn, Nanos backdate = Nanos(0));
  // Runs `fn` right here, on the calling thread — as the driver thread
  // would run a posted function (same arrival time, same backdate),
  // followed by every event due now (so a request the model answers at
  // once is answered before this returns, without a thread switch). If
  // another thread is running the engine: with `wait`, waits until it lets
  // go; else returns false. Returns false, leaving `fn` untouched, also
  // when the driver is stopped, or when called from inside a function or
  // event this thread runs on the engine (it would wait for itself): the
  // caller then Post()s it.
  bool RunHere(Work& fn, Nanos backdate = Nanos(0), bool wait = false);
  // Posts `fn` and waits until it has run. Returns kAborted when the driver
  // is stopped, and kInternal (asserting in debug builds) when called on the
  // driver's own thread, where waiting would deadlock.
  Status Call(const std::function<void()>& fn);

  // Simulated time of the wall clock now. Thread-safe.
  Nanos SimNow() const;

  // Inside a posted function or RunHere(), on the thread running it:
  // The simulated time at which the running function was posted, before
  // any backdate (so arrival_sim() - engine.now() is the backdate that took
  // effect after the clamp).
  Nanos arrival_sim() const { return arrival_sim_; }
  // Inside a posted function, RunHere() or an event, on the thread running
  // them: runs `fn` on that thread once it has let go of the engine, after
  // the batch it is running (every function and event due). For handing
  // answers back: a transport thread woken by `fn` that preempts this one
  // then finds the engine free for its next request, instead of waiting in
  // the inbox until this thread runs again. Outside a batch (no driver
  // running the engine: the owner after Stop()), runs `fn` at once.
  void AfterRelease(Work fn);
  // Runs events as fast as the CPU allows while `more()` is true and events
  // are pending — virtual time — then re-anchors the wall clock so that
  // simulated time goes on from the engine's now(). For work that should
  // not take its simulated time in wall time (the oracle reading a device
  // back after a power cut). Lateness is not recorded meanwhile.
  void RunVirtualWhile(const std::function<bool()>& more);

  // How late events ran (wall time run minus due time), and how long posted
  // functions waited in the inbox, since the last reset.
  LatencyHistogram Lateness() const;
  LatencyHistogram InboxWait() const;
  // How often the driver's thread went to sleep and why it woke, and how
  // the requests reached the engine, since the last reset: the real-time
  // path's cost in thread wake-ups (each a context switch).
  struct Counters {
    uint64_t events = 0;          // events run against the wall clock
    uint64_t posted = 0;          // functions run from the inbox
    uint64_t run_here = 0;        // functions run on their caller's thread
    uint64_t sleeps = 0;          // timed or untimed waits of the driver thread
    uint64_t woken_early = 0;     // ... ended by a Post(), RunHere() or Stop()
    uint64_t run_here_wakes = 0;  // RunHere() made an earlier event: woke the driver
  };
  Counters counters() const;
  void ResetLateness();  // and the counters

 private:
  struct Posted {
    Work fn;
    int64_t posted_wall;  // Clock::NowNanos() at Post()
    Nanos backdate;
  };
  void Loop();
  void RunPosted(Posted& p);
  // Runs every event due at or before `t`, recording lateness.
  void RunDueBy(Nanos t);
  void RecordLateness(Nanos due);
  Nanos NextDue() const;            // the next event's time, Max() if none
  Nanos SimOf(int64_t wall) const;  // simulated time of a wall time
  int64_t WallOf(Nanos t) const;    // wall time at which simulated time t is due

  Engine& engine_;
  Options options_;
  std::thread thread_;
  std::atomic<bool> running_{false};
  std::atomic<std::thread::id> driver_id_{};
  std::mutex join_mu_;  // serialises joining thread_ (Stop from two threads)
  std::atomic<int64_t> wall_start_{0};
  std::atomic<int64_t> sim_start_{0};

  // Lock order: engine_mu_, then mu_ or stats_mu_.
  std::mutex engine_mu_;                          // held by the thread running the engine
  std::atomic<std::thread::id> engine_holder_{};  // ... which, while it does
  mutable std::mutex mu_;                         // guards inbox_, stop_, waiting_, sleeping_until_
  std::condition_variable cv_;
  std::vector<Posted> inbox_;
  bool waiting_ = false;  // the driver is asleep in WaitUntil
  Nanos sleeping_until_;  // ... until the event at this simulated time
  // Set by Post() and Stop(), so the spin loop ends without taking mu_.
  std::atomic<bool> wake_{false};
  bool stop_ = false;
  std::atomic<bool> accepting_{false};
  mutable std::mutex stats_mu_;  // guards lateness_, inbox_wait_
  LatencyHistogram lateness_;
  LatencyHistogram inbox_wait_;
  // counters(), each its own relaxed atomic.
  std::atomic<uint64_t> events_{0}, posted_{0}, run_here_{0}, sleeps_{0}, woken_early_{0},
      run_here_wakes_{0};
  // Under engine_mu_: the simulated time of the latest outside arrival, and
  // of the one being run.
  Nanos floor_;
  Nanos arrival_sim_;
  // Under engine_mu_: AfterRelease()'s functions of the running batch, and
  // whether a batch is running.
  std::vector<Work> after_release_;
  bool in_batch_ = false;
  // Ends a batch: takes its AfterRelease() functions (to run once the
  // engine is released).
  void EndBatch(std::vector<Work>& out);
  static void RunAll(std::vector<Work>& fns);
};

}  // namespace storlab

#endif  // STORLAB_SIM_REALTIME_DRIVER_H_
