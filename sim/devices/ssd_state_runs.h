// The run coding of the SSD's saved arrays (ssd_state.cc, ssd_ftl_state.cc).
//
// The FTL's and SLC cache's arrays are as long as the flash is large (a
// 1 TiB drive exported as 64 MiB still has 1 TiB of units), and mostly
// runs: unused entries alike, block numbers counting up. They are written
// as runs of equal steps — (zigzag step, count) pairs, the step taken from
// the value before (0 before the first) — so a state is as large as what
// the drive holds, not as its geometry. RunWriter writes values one at a
// time or a run at a time (the same bytes either way); RunList reads the
// runs without expanding them, so a restore expands only what the drive
// uses.
#ifndef STORLAB_SIM_DEVICES_SSD_STATE_RUNS_H_
#define STORLAB_SIM_DEVICES_SSD_STATE_RUNS_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <string>
#include <vector>

#include "sim/state_coding.h"

namespace storlab {
namespace ssd_state {

constexpr size_t kAnySize = ~size_t{0};
// The most entries an array of any size may claim (a bound on the memory a
// damaged file can make a restore allocate): 2^28, a 1 TiB drive's units.
constexpr uint64_t kMostEntries = uint64_t{1} << 28;

class RunWriter {
 public:
  // Writes the count; then exactly `n` values must be added.
  RunWriter(StateWriter& w, uint64_t n) : w_(w) { w_.U64(n); }
  RunWriter(const RunWriter&) = delete;
  RunWriter& operator=(const RunWriter&) = delete;
  ~RunWriter() { Flush(); }

  // `count` values: first, first + step, first + 2 step, ...
  void Add(int64_t first, uint64_t count = 1, int64_t step = 0) {
    if (count == 0) return;
    Extend(first - prev_, 1);
    if (count > 1) Extend(step, count - 1);
    prev_ = first + static_cast<int64_t>(count - 1) * step;
  }

 private:
  void Extend(int64_t step, uint64_t count) {
    if (run_ > 0 && step == step_) {
      run_ += count;
      return;
    }
    Flush();
    step_ = step;
    run_ = count;
  }
  void Flush() {
    if (run_ == 0) return;
    w_.U64((static_cast<uint64_t>(step_) << 1) ^ static_cast<uint64_t>(step_ >> 63));
    w_.U64(run_);
    run_ = 0;
  }

  StateWriter& w_;
  int64_t prev_ = 0, step_ = 0;
  uint64_t run_ = 0;
};

template <typename T>
void PutRuns(StateWriter& w, const T* v, size_t n) {
  RunWriter runs(w, n);
  for (size_t i = 0; i < n; ++i) runs.Add(static_cast<int64_t>(v[i]));
}

template <typename T>
void PutInts(StateWriter& w, const std::vector<T>& v) {
  PutRuns(w, v.data(), v.size());
}

// `v`, then `pad` up to `n` values in all. REQUIRES: v.size() <= n.
template <typename T>
void PutPadded(StateWriter& w, const std::vector<T>& v, uint64_t n, T pad) {
  RunWriter runs(w, n);
  for (const T& x : v) runs.Add(static_cast<int64_t>(x));
  runs.Add(static_cast<int64_t>(pad), n - v.size());
}

// The runs of `n` values (kAnySize: as many as were written, at most
// kMostEntries), each checked to fit T; not expanded: a run costs at least
// two bytes of the file, so a damaged one cannot make this large.
template <typename T>
class RunList {
 public:
  RunList(StateReader& r, size_t n, const char* what) : RunList(r, r.U64(), n, what) {}
  // The runs of `n` values whose count was read already (`got`).
  RunList(StateReader& r, uint64_t got, size_t n, const char* what) : size_(got) {
    if (n != kAnySize ? size_ != n : size_ > kMostEntries) {
      r.Fail(std::string(what) + ": another size (another drive geometry)");
    }
    if (!r.ok()) size_ = 0;
    int64_t prev = 0;
    for (uint64_t i = 0; i < size_ && r.ok();) {
      const int64_t step = r.I64();
      const uint64_t count = r.U64();
      if (count == 0 || count > size_ - i) {
        r.Fail(std::string(what) + ": a run past the end");
        break;
      }
      // A run's values are monotonic: its ends decide whether all fit.
      const int64_t first = prev + step, last = first + static_cast<int64_t>(count - 1) * step;
      if (!Fits(first) || !Fits(last)) {
        r.Fail(std::string(what) + ": a value out of range");
        break;
      }
      runs_.push_back(Run{i, first, step, count});
      prev = last;
      i += count;
    }
    if (!r.ok()) {
      runs_.clear();
      size_ = 0;
    }
  }

  uint64_t size() const { return size_; }
  // REQUIRES: i < size().
  int64_t at(uint64_t i) const {
    const Run& run = *Find(i);
    return run.first + static_cast<int64_t>(i - run.start) * run.step;
  }
  // Whether the values [from, to) count up from `first` by `step`.
  bool Follows(uint64_t from, uint64_t to, int64_t first, int64_t step) const {
    for (auto it = Find(from); from < to && it != runs_.end(); ++it) {
      const uint64_t end = std::min(to, it->start + it->count);
      const int64_t here = it->first + static_cast<int64_t>(from - it->start) * it->step;
      if (here != first || (end - from > 1 && it->step != step)) return false;
      first += static_cast<int64_t>(end - from) * step;
      from = end;
    }
    return from >= to;
  }
  // The values [from, to) into `out` (which holds to - from).
  // REQUIRES: from <= to <= size().
  void ExpandInto(uint64_t from, uint64_t to, T* out) const {
    for (auto it = Find(from); from < to && it != runs_.end(); ++it) {
      const uint64_t end = std::min(to, it->start + it->count);
      for (; from < end; ++from) {
        *out++ = static_cast<T>(it->first + static_cast<int64_t>(from - it->start) * it->step);
      }
    }
  }
  std::vector<T> Expand(uint64_t from, uint64_t to) const {
    std::vector<T> out(to > from ? to - from : 0);
    ExpandInto(from, to, out.data());
    return out;
  }

 private:
  struct Run {
    uint64_t start;  // index of its first value
    int64_t first, step;
    uint64_t count;
  };
  static bool Fits(int64_t v) {
    return v >= 0 && static_cast<uint64_t>(v) <= static_cast<uint64_t>(static_cast<T>(~T{0}));
  }
  // The run holding value i (runs_.end() past the last).
  typename std::vector<Run>::const_iterator Find(uint64_t i) const {
    auto it = std::upper_bound(runs_.begin(), runs_.end(), i,
                               [](uint64_t x, const Run& run) { return x < run.start; });
    return it == runs_.begin() ? runs_.end() : std::prev(it);
  }

  uint64_t size_ = 0;
  std::vector<Run> runs_;
};

// An array of exactly `n` integers of type T (kAnySize: as many as were
// written), each of which must fit.
template <typename T>
std::vector<T> GetInts(StateReader& r, size_t n, const char* what) {
  const RunList<T> runs(r, n, what);
  return runs.Expand(0, runs.size());
}

// Reads PutRuns's `n` values, their count read already, into `out` (which
// holds n).
template <typename T>
void GetRuns(StateReader& r, T* out, uint64_t n, const char* what) {
  const RunList<T> runs(r, n, n, what);
  runs.ExpandInto(0, runs.size(), out);
}

}  // namespace ssd_state
}  // namespace storlab

#endif  // STORLAB_SIM_DEVICES_SSD_STATE_RUNS_H_
