// JobRunner's lockmem (job_runner.h): fio 3.33 memory.c fio_pin_memory()
// maps and mlock()s that much anonymous memory when the job's thread
// starts (thread_main()) and fio_unpin_memory() gives it back when the
// thread ends. Locked memory is neither free nor page cache, so the
// simulated host's page cache may hold less and its dirty limits shrink
// (PageCache::LockMemory()). Faulting the locked pages in (zeroing them)
// is not timed: it happens before the job's epoch.
#include <string>

#include "sim/layers/page_cache/page_cache.h"
#include "workloads/fio/job_runner.h"

namespace storlab::fio {

void JobRunner::PinMemory() {
  if (pinned_ || spec_.opts.lockmem == 0) return;
  uint64_t bytes = spec_.opts.lockmem;
  // fio_pin_memory(): no more than the machine's memory less 128 MiB.
  const uint64_t phys = host_.host().mem_bytes;
  constexpr uint64_t kKeep = 128ULL << 20;
  if (phys && bytes + kKeep > phys) {
    bytes = phys > kKeep ? phys - kKeep : 0;
    messages_.push_back("fio: limiting mlocked memory to " + std::to_string(bytes >> 20) + "MiB");
  }
  pinned_ = bytes;
  if (PageCache* cache = host_.page_cache()) cache->LockMemory(pinned_);
}

void JobRunner::UnpinMemory() {
  if (!pinned_) return;
  if (PageCache* cache = host_.page_cache()) cache->UnlockMemory(pinned_);
  pinned_ = 0;
}

}  // namespace storlab::fio
