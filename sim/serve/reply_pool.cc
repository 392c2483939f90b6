#include "sim/serve/reply_pool.h"

#include <utility>

namespace storlab {

void ReplyPool::Start() {
  std::lock_guard<std::mutex> l(mu_);
  if (running_) return;
  running_ = true;
  stop_ = false;
  for (int i = 0; i < threads_; ++i) workers_.emplace_back([this] { Loop(); });
}

void ReplyPool::Stop() {
  std::vector<std::thread> workers;
  {
    std::lock_guard<std::mutex> l(mu_);
    if (!running_) return;
    stop_ = true;
    workers.swap(workers_);
  }
  cv_.notify_all();
  for (auto& t : workers) t.join();
  std::lock_guard<std::mutex> l(mu_);
  running_ = false;
}

void ReplyPool::Push(Task task) {
  {
    std::lock_guard<std::mutex> l(mu_);
    if (running_ && !stop_) {
      queue_.push_back(std::move(task));
      cv_.notify_one();
      return;
    }
  }
  task();
}

void ReplyPool::Loop() {
  std::unique_lock<std::mutex> l(mu_);
  for (;;) {
    cv_.wait(l, [&] { return stop_ || !queue_.empty(); });
    if (queue_.empty()) return;  // stopping, and nothing left
    Task t = std::move(queue_.front());
    queue_.pop_front();
    l.unlock();
    t();
    l.lock();
  }
}

}  // namespace storlab
