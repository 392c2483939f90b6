#include "sim/devices/hdd_read_ahead.h"

#include <algorithm>

namespace storlab {

void HddReadAhead::Start(uint64_t next_lba, Nanos t) {
  if (window_ == 0 || next_lba >= layout_->sectors()) {
    streaming_ = valid_ = false;
    return;
  }
  streaming_ = true;
  valid_ = false;
  lba0_ = next_lba;
  t0_ = t;
  limit_ = std::min(layout_->sectors(), next_lba + window_);
}

uint64_t HddReadAhead::Pos(Nanos t) const {
  if (t <= t0_) return lba0_;
  return std::min(limit_, lba0_ + layout_->SectorsIn(lba0_, t - t0_));
}

uint64_t HddReadAhead::Stop(Nanos t) {
  stop_ = Pos(t);
  streaming_ = false;
  valid_ = stop_ > lba0_;
  return stop_;
}

Nanos HddReadAhead::window_full_at() const {
  return t0_ + layout_->TransferTime(lba0_, limit_ - lba0_);
}

bool HddReadAhead::Holds(uint64_t lba, uint64_t n, Nanos t) const {
  uint64_t hi;
  if (streaming_) {
    hi = Pos(t);
  } else if (valid_) {
    hi = stop_;
  } else {
    return false;
  }
  return lba >= Low(hi) && lba + n <= hi;
}

bool HddReadAhead::CanFollow(uint64_t lba, uint64_t n, Nanos t) const {
  return streaming(t) && lba >= Low(Pos(t)) && lba < limit_ && lba + n <= layout_->sectors();
}

Nanos HddReadAhead::Follow(uint64_t lba, uint64_t n, Nanos t) {
  const uint64_t end = lba + n;
  limit_ = std::max(limit_, std::min(layout_->sectors(), end + window_));
  return Max(t, t0_ + layout_->TransferTime(lba0_, end - lba0_));
}

}  // namespace storlab
