#include "sim/layers/vm/vmdk_blocks.h"

#include <algorithm>
#include <utility>

namespace storlab {

VmdkBlocks::VmdkBlocks(uint64_t capacity)
    : capacity_(capacity),
      blocks_((capacity + kBlockBytes - 1) / kBlockBytes),
      zeroed_((blocks_ + 63) / 64, 0) {}

bool VmdkBlocks::Zeroed(uint64_t offset, uint64_t length) const {
  if (length == 0) return true;
  for (uint64_t b = offset / kBlockBytes; b <= (offset + length - 1) / kBlockBytes; ++b) {
    if (!IsZeroed(b)) return false;
  }
  return true;
}

void VmdkBlocks::Wait(uint64_t offset, uint64_t length, StartZeroing& start, Go go) {
  auto waiter = std::make_shared<Waiter>();
  std::vector<uint64_t> to_start;
  if (length > 0) {
    for (uint64_t b = offset / kBlockBytes; b <= (offset + length - 1) / kBlockBytes; ++b) {
      if (IsZeroed(b)) continue;
      ++waiter->missing;
      auto [it, fresh] = in_flight_.try_emplace(b);
      it->second.push_back(waiter);
      if (fresh) to_start.push_back(b);
    }
  }
  if (waiter->missing == 0) return go(Status());
  ++waits_;
  waiter->go = std::move(go);
  // Started after the bookkeeping: a zeroing that ends at once finds it.
  for (uint64_t b : to_start) {
    const uint64_t off = b * kBlockBytes;
    start(off, std::min(kBlockBytes, capacity_ - off));
  }
}

void VmdkBlocks::Done(uint64_t offset, const Status& st) {
  const uint64_t b = offset / kBlockBytes;
  auto it = in_flight_.find(b);
  if (it == in_flight_.end()) return;  // dropped by a power cut
  std::vector<std::shared_ptr<Waiter>> waiters = std::move(it->second);
  in_flight_.erase(it);
  if (st.ok() && !IsZeroed(b)) {
    zeroed_[b / 64] |= uint64_t{1} << (b % 64);
    ++blocks_zeroed_;
  }
  for (auto& w : waiters) {
    if (!st.ok() && w->status.ok()) w->status = st;
    if (--w->missing == 0) w->go(std::move(w->status));
  }
}

void VmdkBlocks::DropInFlight() { in_flight_.clear(); }

void VmdkBlocks::Save(StateWriter& w) const {
  w.U64(zeroed_.size());
  for (uint64_t word : zeroed_) w.U64(word);
  w.U64(blocks_zeroed_);
}

void VmdkBlocks::Restore(StateReader& r) {
  const uint64_t words = r.Count(1);
  if (words != zeroed_.size()) {
    r.Fail("the VMDK's zeroed-block map does not match its size");
    return;
  }
  for (uint64_t& word : zeroed_) word = r.U64();
  blocks_zeroed_ = r.U64();
}

}  // namespace storlab
