#include "sim/realtime_driver.h"

#include <sys/prctl.h>

#include <cassert>
#include <limits>

namespace storlab {

RealtimeDriver::RealtimeDriver(Engine& engine, Options options)
    : engine_(engine), options_(options) {}

RealtimeDriver::~RealtimeDriver() { Stop(); }

void RealtimeDriver::Start() {
  assert(!running());
  wall_start_ = options_.clock->NowNanos();
  sim_start_ = engine_.now();
  {
    std::lock_guard<std::mutex> l(mu_);
    stop_ = false;
  }
  thread_ = std::thread([this] { Loop(); });
}

void RealtimeDriver::Stop() {
  if (!running()) return;
  {
    std::lock_guard<std::mutex> l(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  thread_.join();
}

void RealtimeDriver::Post(Callback<void()> fn) {
  {
    std::lock_guard<std::mutex> l(mu_);
    inbox_.push_back(std::move(fn));
  }
  cv_.notify_all();
}

void RealtimeDriver::Call(const std::function<void()>& fn) {
  std::mutex m;
  std::condition_variable done_cv;
  bool done = false;
  Post([&] {
    fn();
    std::lock_guard<std::mutex> l(m);
    done = true;
    done_cv.notify_all();
  });
  std::unique_lock<std::mutex> l(m);
  done_cv.wait(l, [&] { return done; });
}

LatencyHistogram RealtimeDriver::Lateness() const {
  std::lock_guard<std::mutex> l(mu_);
  return lateness_;
}

void RealtimeDriver::ResetLateness() {
  std::lock_guard<std::mutex> l(mu_);
  lateness_.Reset();
}

Nanos RealtimeDriver::SimNow() const {
  return sim_start_ + Nanos(options_.clock->NowNanos() - wall_start_);
}

int64_t RealtimeDriver::WallOf(Nanos t) const { return wall_start_ + (t - sim_start_).count(); }

void RealtimeDriver::Loop() {
  // Ask for precise timed wake-ups (the default timer slack is 50 us).
  ::prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
  std::vector<Callback<void()>> work;
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    // Outside requests first: they arrive at the simulated time of now, but
    // never before an event that is already due (that runs first, late).
    if (!inbox_.empty()) {
      work.swap(inbox_);
      lock.unlock();
      for (auto& fn : work) {
        Nanos now = SimNow();
        while (!engine_.empty() && engine_.next_time() <= now) {
          int64_t late = (SimNow() - engine_.next_time()).count();
          {
            std::lock_guard<std::mutex> l(mu_);
            lateness_.Add(late > 0 ? static_cast<uint64_t>(late) : 0);
          }
          engine_.Step();
        }
        if (now > engine_.now()) engine_.AdvanceTo(now);
        fn();
      }
      work.clear();
      lock.lock();
      continue;
    }
    if (stop_) break;
    // Due events.
    if (!engine_.empty() && engine_.next_time() <= SimNow()) {
      // Lateness: how long after its due time the event starts.
      int64_t late = (SimNow() - engine_.next_time()).count();
      lateness_.Add(late > 0 ? static_cast<uint64_t>(late) : 0);
      lock.unlock();
      engine_.Step();
      lock.lock();
      continue;
    }
    // Sleep until the next event is due, or until something is posted.
    int64_t deadline =
        engine_.empty() ? std::numeric_limits<int64_t>::max() / 2 : WallOf(engine_.next_time());
    options_.clock->WaitUntil(lock, cv_, deadline);
  }
}

}  // namespace storlab
