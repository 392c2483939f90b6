// Clock: the wall clock behind the real-time driver, and the only place
// storlab reads it. Injectable (as LevelDB's Env is), so the driver's loop is
// tested with a fake clock that never sleeps.
//
// Thread-safe: every method may be called from any thread.
#ifndef STORLAB_SIM_CLOCK_H_
#define STORLAB_SIM_CLOCK_H_

#include <condition_variable>
#include <cstdint>
#include <mutex>

namespace storlab {

class Clock {
 public:
  virtual ~Clock() = default;
  // Monotonic nanoseconds from an arbitrary origin.
  virtual int64_t NowNanos() = 0;
  // Blocks on `cv` (with `lock` held, as condition_variable::wait_until) until
  // NowNanos() >= deadline_ns or the cv is notified. Spurious wake-ups are
  // allowed; callers re-check their condition.
  virtual void WaitUntil(std::unique_lock<std::mutex>& lock, std::condition_variable& cv,
                         int64_t deadline_ns) = 0;
  // Called between two polls of NowNanos() by a thread that spins until a
  // deadline: the real clock yields the CPU (other threads of the process,
  // the transport's, may need it); a fake clock may advance itself.
  virtual void Relax() = 0;

  // The process's steady clock. Never destroyed.
  static Clock* Real();
};

}  // namespace storlab

#endif  // STORLAB_SIM_CLOCK_H_
