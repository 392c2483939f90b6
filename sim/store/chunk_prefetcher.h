// ChunkPrefetcher: a thread that maps and faults in a PageArena's next
// chunks ahead of the thread that writes into them.
//
// A fresh chunk costs its first toucher what the host charges for memory
// it has not backed yet: 7-23 us a 4 KiB page on a PVM guest whose balloon
// hands free memory back (timed inline at stops 51-54, bench/first_touch.cc;
// on this thread at stop 61, where it also waits for a CPU), where copying
// a page's data costs a tenth of that. In the real-time service the
// toucher was the thread holding the engine, so every other request waited
// behind it: FUSE 4K random writes on `ram` over fresh space, no oracle,
// alternated on a fresh mount each: 45-57k IOPS touching inline, 55-61k
// with the chunks made here, ahead in 4 rounds of 4 (with the oracle
// 51-53k -> 55-57k, 3 of 3; stop 61), the engine's share of the cost now
// a memcpy. (A helper faulting chunks in ahead measured the same as inline
// at stop 48; this one also makes each page's first user write, which a
// hypervisor that shadows the page tables charges for, and times it.)
//
// The thread makes nothing before the first Take(kind), which hands over a
// ready chunk of that kind, if there is one; from then on the thread keeps
// `depth` of that kind ready, and chunks of the other kind made before stay
// ready for the next Take of it. A chunk the thread could not make (out of
// memory) ends the prefetching: Take then returns nothing and the arena
// maps its chunks itself, as without one. Chunks never taken are dropped
// (unmapped) by the destructor.
//
// Threading: Take() and the destructor from the arena's owner (one thread
// at a time); the chunk's bytes pass to it under the mutex.
#ifndef STORLAB_SIM_STORE_CHUNK_PREFETCHER_H_
#define STORLAB_SIM_STORE_CHUNK_PREFETCHER_H_

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>

namespace storlab {

class ChunkPrefetcher {
 public:
  struct Chunk {
    uint8_t* bytes = nullptr;
    bool huge = false;
    double ns_per_page = 0;  // what making it cost, per 4 KiB page
  };
  // Maps, faults in and first-writes a chunk of the kind, timing it; throws
  // std::bad_alloc when it cannot. Drop unmaps one.
  using Make = std::function<Chunk(bool huge)>;
  using Drop = std::function<void(const Chunk&)>;

  ChunkPrefetcher(Make make, Drop drop, size_t depth);
  ~ChunkPrefetcher();  // stops the thread; drops the chunks never taken
  ChunkPrefetcher(const ChunkPrefetcher&) = delete;
  ChunkPrefetcher& operator=(const ChunkPrefetcher&) = delete;

  // A ready chunk of the kind, or nothing (none ready yet, or the thread
  // stopped); either way the thread makes that kind from now on.
  std::optional<Chunk> Take(bool huge);
  // Chunks taken, asked for when none was ready, and made (for the stats
  // and the tests).
  uint64_t taken() const;
  uint64_t missed() const;
  uint64_t made() const;

 private:
  void Loop();
  size_t ReadyOf(bool huge) const;  // REQUIRES: mu_ held

  const Make make_;
  const Drop drop_;
  const size_t depth_;
  mutable std::mutex mu_;  // guards everything below
  std::condition_variable cv_;
  std::deque<Chunk> ready_;
  bool asked_ = false;  // nothing is made before the first Take()
  bool want_huge_ = false;
  bool stop_ = false;
  bool failed_ = false;
  uint64_t taken_ = 0, missed_ = 0, made_ = 0;
  std::thread thread_;  // last: started once the rest is set up
};

}  // namespace storlab

#endif  // STORLAB_SIM_STORE_CHUNK_PREFETCHER_H_
