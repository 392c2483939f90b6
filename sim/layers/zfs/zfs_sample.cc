#include "sim/layers/zfs/zfs_sample.h"

#include <algorithm>
#include <cstring>

#include "sim/random.h"

namespace storlab {
namespace {

// splitmix64's finalizer: which records are sampled does not follow a
// stride of the workload.
uint64_t Mix(uint64_t x) {
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

}  // namespace

ZfsSample::ZfsSample(uint64_t record_size, uint64_t seed)
    : record_size_(record_size), seed_(seed) {}

uint8_t* ZfsSample::Enter(uint64_t rec, bool has_block) {
  const bool pick = considered_++ < kFirst || Mix(rec ^ seed_) % kStride == 0;
  if (!pick || (records_.size() + 1) * record_size_ > kMaxBytes) return nullptr;
  auto bytes = std::make_unique<uint8_t[]>(record_size_);  // zeroed: a hole reads as zeros
  if (has_block) {
    // Written before the run: unknown, taken as random (a laid-out file).
    Random rng(seed_ ^ Mix(rec), "zfs/sample");
    for (uint64_t at = 0; at < record_size_; at += 8) {
      const uint64_t r = rng.Next();
      std::memcpy(bytes.get() + at, &r, std::min<uint64_t>(8, record_size_ - at));
    }
  }
  uint8_t* p = bytes.get();
  records_.emplace(rec, std::move(bytes));
  return p;
}

void ZfsSample::Patch(uint64_t offset, uint64_t length, const uint8_t* data) {
  const uint64_t rs = record_size_;
  for (uint64_t rec = offset / rs; rec <= (offset + length - 1) / rs; ++rec) {
    auto it = records_.find(rec);
    if (it == records_.end()) continue;
    const uint64_t lo = std::max(offset, rec * rs), hi = std::min(offset + length, (rec + 1) * rs);
    if (data != nullptr) {
      std::memcpy(it->second.get() + (lo - rec * rs), data + (lo - offset), hi - lo);
    } else {
      std::memset(it->second.get() + (lo - rec * rs), 0, hi - lo);
    }
  }
}

void ZfsSample::Zero(uint64_t offset, uint64_t length) { Patch(offset, length, nullptr); }

const uint8_t* ZfsSample::Bytes(uint64_t rec) const {
  auto it = records_.find(rec);
  return it == records_.end() ? nullptr : it->second.get();
}

}  // namespace storlab
