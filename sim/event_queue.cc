#include "sim/event_queue.h"

#include <algorithm>
#include <bit>
#include <cassert>

namespace storlab {

void EventQueue::PutNow(const Entry& e) {
  if (now_.size() == head_ || now_.back().seq < e.seq) {
    now_.push_back(e);
    return;
  }
  auto by_seq = [](const Entry& a, const Entry& b) { return a.seq < b.seq; };
  now_.insert(
      std::upper_bound(now_.begin() + static_cast<std::ptrdiff_t>(head_), now_.end(), e, by_seq),
      e);
}

void EventQueue::Refill() {
  assert(size_ > 0);
  now_.clear();
  head_ = 0;
  unsigned w = 0;
  while (nonempty_[w] == 0) ++w;  // size_ > 0: some bucket holds entries
  const unsigned b = w * 64 + static_cast<unsigned>(std::countr_zero(nonempty_[w]));
  std::vector<Entry>& from = buckets_[b];
  Unmark(b);
  int64_t least = from[0].t;
  for (size_t i = 1; i < from.size(); ++i) least = std::min(least, from[i].t);
  last_ = least;
  // Each goes to a lower bucket or to now_, never back into `from`.
  for (const Entry& e : from) {
    if (e.t == least) {
      now_.push_back(e);
    } else {
      Put(e);
    }
  }
  from.clear();
  if (now_.size() > 1) {
    std::sort(now_.begin(), now_.end(),
              [](const Entry& x, const Entry& y) { return x.seq < y.seq; });
  }
}

void EventQueue::Rebase(int64_t t) {
  const auto x = static_cast<uint64_t>(t ^ last_);  // != 0: t < last_
  const unsigned d = (63 - static_cast<unsigned>(std::countl_zero(x))) / kDigitBits;
  const unsigned to =
      d * kValues +
      static_cast<unsigned>((static_cast<uint64_t>(last_) >> (d * kDigitBits)) & (kValues - 1));
  std::vector<Entry>& into = buckets_[to];
  into.insert(into.end(), now_.begin() + static_cast<std::ptrdiff_t>(head_), now_.end());
  now_.clear();
  head_ = 0;
  const unsigned below = d * kValues;  // the buckets of the digits below d
  for (unsigned w = 0; w * 64 < below; ++w) {
    uint64_t m = nonempty_[w];
    if ((w + 1) * 64 > below) m &= (uint64_t{1} << (below % 64)) - 1;
    for (; m != 0; m &= m - 1) {
      const unsigned b = w * 64 + static_cast<unsigned>(std::countr_zero(m));
      into.insert(into.end(), buckets_[b].begin(), buckets_[b].end());
      buckets_[b].clear();
      Unmark(b);
    }
  }
  if (!into.empty()) nonempty_[to / 64] |= uint64_t{1} << (to % 64);
  last_ = t;
}

void EventQueue::Clear() {
  for (auto& b : buckets_) b.clear();
  now_.clear();
  head_ = 0;
  nonempty_.fill(0);
  last_ = 0;
  size_ = 0;
}

}  // namespace storlab
