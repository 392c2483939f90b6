// SequentialDetector: recognises large sequential streams, which a cache
// lets bypass it (bcache's sequential_cutoff, default 4 MiB: Linux
// Documentation/admin-guide/bcache.rst).
//
// Remembers the end of the 64 most recent I/O streams (bcache's RECENT_IO).
// An I/O that starts where a stream ended extends it; once a stream has
// carried `cutoff` bytes (the current I/O included), its I/O bypasses the
// cache. A cutoff of 0 disables detection. Not thread-safe.
#ifndef STORLAB_SIM_LAYERS_CACHE_CACHE_SEQ_H_
#define STORLAB_SIM_LAYERS_CACHE_CACHE_SEQ_H_

#include <cstdint>
#include <vector>

#include "sim/status.h"

namespace storlab {

class StateReader;
class StateWriter;

class SequentialDetector {
 public:
  static constexpr size_t kStreams = 64;

  explicit SequentialDetector(uint64_t cutoff) : cutoff_(cutoff) {}

  // Records an I/O of [off, off+len); true if it should bypass the cache.
  bool Observe(uint64_t off, uint64_t len) {
    if (cutoff_ == 0) return false;
    ++clock_;
    Stream* hit = nullptr;
    Stream* oldest = nullptr;
    for (auto& s : streams_) {
      if (s.end == off && !hit) hit = &s;
      if (!oldest || s.used < oldest->used) oldest = &s;
    }
    if (!hit) {
      if (streams_.size() < kStreams) {
        streams_.push_back({});
        hit = &streams_.back();
      } else {
        hit = oldest;
      }
      hit->run = 0;
    }
    hit->end = off + len;
    hit->run += len;
    hit->used = clock_;
    return hit->run >= cutoff_;
  }
  void Clear() { streams_.clear(); }
  // storlab sim --state (cache_state.cc): the clock and the streams.
  void SaveState(StateWriter& w) const;
  Status RestoreState(StateReader& r);

 private:
  struct Stream {
    uint64_t end = 0;
    uint64_t run = 0;
    uint64_t used = 0;
  };
  uint64_t cutoff_;
  uint64_t clock_ = 0;
  std::vector<Stream> streams_;
};

}  // namespace storlab

#endif  // STORLAB_SIM_LAYERS_CACHE_CACHE_SEQ_H_
