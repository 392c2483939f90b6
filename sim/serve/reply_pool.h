// ReplyPool: a few threads that run what the engine thread hands over — a
// transport's reply (a fuse_reply_* call, a socket write) — so that no
// reply ever runs on the engine thread and the simulated clock never waits
// for the kernel. FIFO; each task runs exactly once.
//
// Thread-safe: Push() from any thread (in practice the engine's); Start()
// and Stop() from the owner.
#ifndef STORLAB_SIM_SERVE_REPLY_POOL_H_
#define STORLAB_SIM_SERVE_REPLY_POOL_H_

#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

#include "sim/callback.h"

namespace storlab {

class ReplyPool {
 public:
  using Task = Callback<void(), 96>;

  explicit ReplyPool(int threads) : threads_(threads < 1 ? 1 : threads) {}
  ~ReplyPool() { Stop(); }
  ReplyPool(const ReplyPool&) = delete;
  ReplyPool& operator=(const ReplyPool&) = delete;

  void Start();
  // Runs every task pushed so far, then joins the threads. Idempotent.
  void Stop();
  // Queues `task`. After Stop(), runs it on the caller's thread instead, so
  // that it still runs exactly once.
  void Push(Task task);

 private:
  void Loop();

  const int threads_;
  std::vector<std::thread> workers_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<Task> queue_;
  bool running_ = false;
  bool stop_ = false;
};

}  // namespace storlab

#endif  // STORLAB_SIM_SERVE_REPLY_POOL_H_
