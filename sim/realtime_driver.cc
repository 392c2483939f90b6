#include "sim/realtime_driver.h"

#include <sys/prctl.h>

#include <cassert>
#include <limits>

namespace storlab {
namespace {

// A deadline that means "no event pending": wait for a notification.
constexpr int64_t kNoDeadline = std::numeric_limits<int64_t>::max() / 2;

// Marks the calling thread as the one holding the engine while in scope.
// (An atomic thread id, not a thread_local: in the nbdkit plugin, a
// dlopen()ed library, a thread_local is dynamic TLS, which glibc frees when
// nbdkit's threads exit in a way ThreadSanitizer reports as a race.)
class Holding {
 public:
  explicit Holding(std::atomic<std::thread::id>& holder) : holder_(holder) {
    holder_.store(std::this_thread::get_id(), std::memory_order_relaxed);
  }
  ~Holding() { holder_.store(std::thread::id(), std::memory_order_relaxed); }
  Holding(const Holding&) = delete;
  Holding& operator=(const Holding&) = delete;

 private:
  std::atomic<std::thread::id>& holder_;
};

}  // namespace

RealtimeDriver::RealtimeDriver(Engine& engine, Options options)
    : engine_(engine), options_(options) {}

RealtimeDriver::~RealtimeDriver() {
  assert(!OnDriverThread());
  Stop();
}

void RealtimeDriver::Start() {
  {
    // A Stop() from a posted function leaves the thread to be joined here.
    std::lock_guard<std::mutex> jl(join_mu_);
    assert(!running_.load());
    if (thread_.joinable()) thread_.join();
  }
  wall_start_.store(options_.clock->NowNanos());
  sim_start_.store(engine_.now().count());
  {
    std::lock_guard<std::mutex> l(mu_);
    stop_ = false;
    accepting_ = true;
    wake_.store(false);
  }
  running_.store(true);
  std::lock_guard<std::mutex> jl(join_mu_);
  thread_ = std::thread([this] { Loop(); });
}

void RealtimeDriver::Stop() {
  {
    std::lock_guard<std::mutex> l(mu_);
    accepting_ = false;
    stop_ = true;
    wake_.store(true, std::memory_order_release);
  }
  cv_.notify_all();
  if (OnDriverThread()) return;  // the loop ends after the running function
  std::lock_guard<std::mutex> jl(join_mu_);
  if (thread_.joinable()) thread_.join();
}

bool RealtimeDriver::running() const { return running_.load(); }

bool RealtimeDriver::OnDriverThread() const {
  return driver_id_.load() == std::this_thread::get_id();
}

Status RealtimeDriver::Post(Work fn, Nanos backdate) {
  const int64_t now = options_.clock->NowNanos();
  {
    std::lock_guard<std::mutex> l(mu_);
    if (!accepting_) return Status::Aborted("the real-time driver is stopped");
    inbox_.push_back({std::move(fn), now, backdate});
    wake_.store(true, std::memory_order_release);
  }
  cv_.notify_one();  // only the driver thread waits on cv_
  return Status();
}

Status RealtimeDriver::Call(const std::function<void()>& fn) {
  if (OnDriverThread()) {
    assert(false && "RealtimeDriver::Call on the driver's thread would deadlock");
    return Status::Internal("RealtimeDriver::Call on the driver's thread would deadlock");
  }
  std::mutex m;
  std::condition_variable done_cv;
  bool done = false;
  Status st = Post([&] {
    fn();
    std::lock_guard<std::mutex> l(m);
    done = true;
    done_cv.notify_all();
  });
  if (!st.ok()) return st;
  std::unique_lock<std::mutex> l(m);
  done_cv.wait(l, [&] { return done; });
  return Status();
}

LatencyHistogram RealtimeDriver::Lateness() const {
  std::lock_guard<std::mutex> l(stats_mu_);
  return lateness_;
}

LatencyHistogram RealtimeDriver::InboxWait() const {
  std::lock_guard<std::mutex> l(stats_mu_);
  return inbox_wait_;
}

RealtimeDriver::Counters RealtimeDriver::counters() const {
  constexpr auto r = std::memory_order_relaxed;
  return {.events = events_.load(r),
          .posted = posted_.load(r),
          .run_here = run_here_.load(r),
          .sleeps = sleeps_.load(r),
          .woken_early = woken_early_.load(r),
          .run_here_wakes = run_here_wakes_.load(r)};
}

void RealtimeDriver::ResetLateness() {
  std::lock_guard<std::mutex> l(stats_mu_);
  lateness_.Reset();
  inbox_wait_.Reset();
  for (auto* c : {&events_, &posted_, &run_here_, &sleeps_, &woken_early_, &run_here_wakes_})
    c->store(0, std::memory_order_relaxed);
}

Nanos RealtimeDriver::SimNow() const { return SimOf(options_.clock->NowNanos()); }

Nanos RealtimeDriver::SimOf(int64_t wall) const {
  return Nanos(sim_start_.load()) + (Nanos(wall) - Nanos(wall_start_.load()));
}

int64_t RealtimeDriver::WallOf(Nanos t) const {
  // Saturating: an event at Nanos::Max() is due "never", not in the past.
  return (Nanos(wall_start_.load()) + (t - Nanos(sim_start_.load()))).count();
}

void RealtimeDriver::RecordLateness(Nanos due) {
  // An event due before the latest outside arrival was scheduled by a
  // backdated request (compensation): it cannot have run before the request
  // physically arrived, so its lateness counts from that arrival.
  if (due < floor_) due = floor_;
  const int64_t late = options_.clock->NowNanos() - WallOf(due);
  events_.fetch_add(1, std::memory_order_relaxed);
  std::lock_guard<std::mutex> l(stats_mu_);
  lateness_.Add(late > 0 ? static_cast<uint64_t>(late) : 0);
}

void RealtimeDriver::RunDueBy(Nanos t) {
  while (!engine_.empty() && engine_.next_time() <= t) {
    RecordLateness(engine_.next_time());
    engine_.Step();
  }
}

void RealtimeDriver::RunPosted(Posted& p) {
  const Nanos physical = SimOf(p.posted_wall);
  const Nanos arrive = physical - p.backdate;
  // Events due before the request arrived run first (late, if the host
  // was busy); then the clock moves to its arrival.
  RunDueBy(arrive);
  if (arrive > engine_.now()) engine_.AdvanceTo(arrive);
  if (physical > floor_) floor_ = physical;
  arrival_sim_ = physical;
  const int64_t waited = options_.clock->NowNanos() - p.posted_wall;
  {
    std::lock_guard<std::mutex> l(stats_mu_);
    inbox_wait_.Add(waited > 0 ? static_cast<uint64_t>(waited) : 0);
  }
  p.fn();
}

Nanos RealtimeDriver::NextDue() const {
  return engine_.empty() ? Nanos::Max() : engine_.next_time();
}

void RealtimeDriver::AfterRelease(Work fn) {
  if (!in_batch_) {
    fn();
    return;
  }
  after_release_.push_back(std::move(fn));
}

void RealtimeDriver::EndBatch(std::vector<Work>& out) {
  in_batch_ = false;
  out.swap(after_release_);
}

void RealtimeDriver::RunAll(std::vector<Work>& fns) {
  for (auto& f : fns) f();
  fns.clear();
}

bool RealtimeDriver::RunHere(Work& fn, Nanos backdate, bool wait) {
  if (!accepting_.load(std::memory_order_acquire)) return false;
  // Not from inside this thread's own batch (a request made by an event):
  // it would wait for itself. (Only this thread stores its own id there.)
  if (engine_holder_.load(std::memory_order_relaxed) == std::this_thread::get_id()) return false;
  Nanos before, after;
  std::vector<Work> handoffs;
  {
    std::unique_lock<std::mutex> e(engine_mu_, std::defer_lock);
    if (wait) {
      e.lock();
    } else if (!e.try_lock()) {
      return false;  // the driver or another thread runs it: post
    }
    if (!accepting_.load(std::memory_order_acquire)) return false;  // stopped meanwhile
    Holding holding(engine_holder_);
    before = NextDue();
    in_batch_ = true;
    Posted p{std::move(fn), options_.clock->NowNanos(), backdate};
    RunPosted(p);
    run_here_.fetch_add(1, std::memory_order_relaxed);
    RunDueBy(SimNow());  // what it completed at once, and anything else due
    after = NextDue();
    EndBatch(handoffs);
  }
  RunAll(handoffs);
  // The driver may be asleep until a later event than the one just made.
  if (after < before) {
    std::lock_guard<std::mutex> l(mu_);
    wake_.store(true, std::memory_order_release);
    if (waiting_ && after < sleeping_until_) {
      run_here_wakes_.fetch_add(1, std::memory_order_relaxed);
      cv_.notify_one();
    }
  }
  return true;
}

void RealtimeDriver::RunVirtualWhile(const std::function<bool()>& more) {
  while (!engine_.empty() && more()) engine_.Step();
  // Re-anchor: the wall clock now is the engine's now.
  wall_start_.store(options_.clock->NowNanos());
  sim_start_.store(engine_.now().count());
  floor_ = engine_.now();
}

void RealtimeDriver::Loop() {
  // Ask for precise timed wake-ups (the default timer slack is 50 us).
  ::prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
  driver_id_.store(std::this_thread::get_id());
  std::vector<Posted> work;
  std::vector<Work> handoffs;
  for (;;) {
    {
      std::lock_guard<std::mutex> l(mu_);
      if (inbox_.empty() && stop_) break;
      work.swap(inbox_);
      wake_.store(false, std::memory_order_relaxed);
    }
    Nanos next;
    {
      std::lock_guard<std::mutex> e(engine_mu_);
      Holding holding(engine_holder_);
      in_batch_ = true;
      // Outside requests first: they arrive at the simulated time of their
      // posting, after every event due before it. Then what is due now.
      for (auto& p : work) RunPosted(p);
      posted_.fetch_add(work.size(), std::memory_order_relaxed);
      RunDueBy(SimNow());
      next = NextDue();
      EndBatch(handoffs);
    }
    work.clear();
    RunAll(handoffs);
    std::unique_lock<std::mutex> lock(mu_);
    // Something was posted, or another thread ran the engine and made an
    // earlier event, while the engine was being run: look again.
    if (!inbox_.empty() || stop_ || wake_.load(std::memory_order_relaxed)) continue;
    const int64_t deadline = next == Nanos::Max() ? kNoDeadline : WallOf(next);
    const int64_t spin = options_.spin.count();
    if (deadline != kNoDeadline && spin > 0 && deadline - options_.clock->NowNanos() <= spin) {
      // Poll the clock for the last stretch; a Post(), Stop() or RunHere()
      // that makes an earlier event ends it.
      lock.unlock();
      while (options_.clock->NowNanos() < deadline && !wake_.load(std::memory_order_acquire))
        options_.clock->Relax();
      continue;
    }
    waiting_ = true;
    sleeping_until_ = next;
    const int64_t until = deadline == kNoDeadline ? kNoDeadline : deadline - spin;
    options_.clock->WaitUntil(lock, cv_, until);
    waiting_ = false;
    sleeps_.fetch_add(1, std::memory_order_relaxed);
    if (!inbox_.empty() || stop_ || wake_.load(std::memory_order_relaxed))
      woken_early_.fetch_add(1, std::memory_order_relaxed);
  }
  driver_id_.store(std::thread::id());
  running_.store(false);
}

}  // namespace storlab
