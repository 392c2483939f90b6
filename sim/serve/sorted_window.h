// SortedWindow<N>: the last N samples of a stream, kept both in arrival
// order (to know which one leaves) and sorted (so a quantile is one index,
// not a copy and an nth_element of the window each time). Adding a sample
// costs two binary searches and a shift of at most N values. The
// compensator's windows use it (compensation.h): its round-trip gaps and
// its own overhead, sampled on nearly every request of a busy export.
// Not thread-safe.
#ifndef STORLAB_SIM_SERVE_SORTED_WINDOW_H_
#define STORLAB_SIM_SERVE_SORTED_WINDOW_H_

#include <algorithm>
#include <array>
#include <cstdint>

namespace storlab {

template <int N>
class SortedWindow {
 public:
  // Adds a sample, dropping the oldest from a full window.
  void Add(int64_t sample) {
    auto end = sorted_.begin() + count_;
    if (count_ == N) {
      // The oldest leaves the sorted copy (some element equal to it).
      auto old = std::lower_bound(sorted_.begin(), end, ring_[next_]);
      std::move(old + 1, end, old);
      --end;
      --count_;
    }
    auto at = std::upper_bound(sorted_.begin(), end, sample);
    std::move_backward(at, end, end + 1);
    *at = sample;
    ++count_;
    ring_[next_] = sample;
    next_ = (next_ + 1) % N;
  }
  // The sample at `percent` of the window: the ((count - 1) * percent /
  // 100)-th smallest. REQUIRES: count() > 0.
  int64_t Quantile(int percent) const { return sorted_[(count_ - 1) * percent / 100]; }
  int count() const { return count_; }
  // Where the next sample goes in arrival order (0 after every N samples).
  int next() const { return next_; }

 private:
  std::array<int64_t, N> ring_{};    // arrival order, oldest at next_ once full
  std::array<int64_t, N> sorted_{};  // the same samples, ascending
  int count_ = 0;
  int next_ = 0;
};

}  // namespace storlab

#endif  // STORLAB_SIM_SERVE_SORTED_WINDOW_H_
