// ConcurrentJoin: answers once after `n` parts have arrived, with the first error
// among them (OK if none). Deletes itself after answering; n == 0 answers
// at once. Thread-safe: parts arrive from any threads. (sim/join.h's Join
// is the engine thread's: a layer's child requests, sealed through the
// engine.)
#ifndef STORLAB_SIM_SERVE_VFS_CONCURRENT_JOIN_H_
#define STORLAB_SIM_SERVE_VFS_CONCURRENT_JOIN_H_

#include <mutex>
#include <utility>

#include "sim/callback.h"
#include "sim/status.h"

namespace storlab {

class ConcurrentJoin {
 public:
  using Done = Callback<void(Status), 64>;
  // Construct with new; it deletes itself.
  ConcurrentJoin(int n, Done done) : left_(n), done_(std::move(done)) {
    if (n == 0) Finish();
  }
  ConcurrentJoin(const ConcurrentJoin&) = delete;
  ConcurrentJoin& operator=(const ConcurrentJoin&) = delete;

  void Arrive(Status st) {
    {
      std::lock_guard<std::mutex> l(mu_);
      if (!st.ok() && first_.ok()) first_ = std::move(st);
      if (--left_ > 0) return;
    }
    Finish();
  }

 private:
  ~ConcurrentJoin() = default;
  void Finish() {
    Done d = std::move(done_);
    Status st = std::move(first_);
    delete this;
    d(std::move(st));
  }
  std::mutex mu_;
  int left_;
  Status first_;
  Done done_;
};

}  // namespace storlab

#endif  // STORLAB_SIM_SERVE_VFS_CONCURRENT_JOIN_H_
