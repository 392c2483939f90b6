#include "sim/layers/cache/cache_dirty_age.h"

#include <algorithm>
#include <cassert>

namespace storlab {

const DirtyAgeIndex::Entry& DirtyAgeIndex::Iterator::operator*() const { return (*log_)[i_].entry; }

DirtyAgeIndex::Iterator& DirtyAgeIndex::Iterator::operator++() {
  ++i_;
  while (i_ < log_->size() && !(*log_)[i_].live) ++i_;
  return *this;
}

DirtyAgeIndex::Iterator DirtyAgeIndex::Begin() const {
  if (!sorted_) Sort();
  return Iterator(&log_, Live(head_));
}

void DirtyAgeIndex::Insert(uint64_t seq, uint64_t block, Nanos since, size_t& home) {
  const Key k{seq, block};
  if (home != kNotIn) {
    assert(home < log_.size() && log_[home].home == &home);
    if (log_[home].entry.first == k) return;
    assert(false && "DirtyAgeIndex: a block inserted under two sequence numbers");
    Erase(log_[home].entry.first.first, block, home);
  }
  if (live_ > 0 && k < last_key_) {
    // Out of order (a restored state): sorted before it is read, and the
    // scan from the start answers until the index is empty again.
    sorted_ = false;
    rising_ = false;
    ForgetPrefix();
  } else {
    if (live_ > 0 && since < last_since_) rising_ = false;
    last_key_ = k;
  }
  last_since_ = std::max(last_since_, since);
  home = log_.size();
  log_.push_back(Slot{.entry = {k, since}, .home = &home, .live = true});
  ++live_;
}

void DirtyAgeIndex::Erase(uint64_t seq, uint64_t block, size_t& home) {
  if (home == kNotIn) return;
  assert(home < log_.size() && log_[home].live && log_[home].home == &home);
  if (log_[home].entry.first != Key{seq, block}) return;
  const size_t i = home;
  home = kNotIn;
  log_[i].live = false;
  --live_;
  if (i < prefix_end_) --prefix_len_;
  if (live_ == 0) return Reset();
  if (i == head_) head_ = Live(head_);
  if (log_.size() - live_ > std::max<size_t>(live_, 1024)) Compact();
}

void DirtyAgeIndex::Clear() { Reset(); }

void DirtyAgeIndex::Reset() {
  log_.clear();
  head_ = 0;
  sorted_ = true;
  live_ = 0;
  last_key_ = Key{0, 0};
  last_since_ = Nanos();
  rising_ = true;
  ForgetPrefix();
}

void DirtyAgeIndex::Compact() {
  if (!sorted_) return Sort();
  size_t out = 0, prefix_end = 0;
  for (size_t i = 0; i < log_.size(); ++i) {
    if (i == prefix_end_) prefix_end = out;
    if (log_[i].live) log_[out++] = log_[i];
  }
  if (prefix_end_ >= log_.size()) prefix_end = out;
  log_.resize(out);
  prefix_end_ = prefix_end;
  head_ = 0;
  Reposition();
}

void DirtyAgeIndex::Sort() const {
  std::erase_if(log_, [](const Slot& s) { return !s.live; });
  std::sort(log_.begin(), log_.end(),
            [](const Slot& a, const Slot& b) { return a.entry.first < b.entry.first; });
  head_ = 0;
  sorted_ = true;
  ForgetPrefix();
  Reposition();
}

void DirtyAgeIndex::Reposition() const {
  for (size_t i = 0; i < log_.size(); ++i) *log_[i].home = i;
}

DirtyAgeIndex::Expiry DirtyAgeIndex::ScanFromStart(Nanos now, Nanos expire, uint64_t limit) const {
  Expiry r;
  for (const auto& [k, since] : entries()) {
    if (!Expired(since, now, expire)) {
      r.next = since;
      return r;
    }
    if (++r.expired > limit) return r;
  }
  return r;
}

DirtyAgeIndex::Expiry DirtyAgeIndex::Scan(Nanos now, Nanos expire, uint64_t limit) {
  if (!rising_) return ScanFromStart(now, expire, limit);
  if (now < last_now_ || expire != last_expire_) ForgetPrefix();
  last_now_ = now;
  last_expire_ = expire;
  // Move the end of the expired prefix on: each slot crosses it once.
  size_t i = Live(std::max(prefix_end_, head_));
  for (; i < log_.size() && Expired(log_[i].entry.second, now, expire); i = Live(i + 1)) {
    ++prefix_len_;
  }
  prefix_end_ = i;  // past the end: a later write appends beyond it
  Expiry r;
  r.expired = prefix_len_;
  if (r.expired > limit) {
    r.expired = limit + 1;
    return r;
  }
  if (i < log_.size()) r.next = log_[i].entry.second;
  return r;
}

}  // namespace storlab
