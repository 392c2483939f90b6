#include "sim/layers/cache/cache_levels.h"

#include <algorithm>

namespace storlab {

LevelQueue::LevelQueue(uint32_t levels)
    : num_levels_(levels), levels_(std::make_unique<LevelList[]>(levels)), target_(levels, 0) {}

void LevelQueue::Push(uint64_t key, uint32_t level, bool oldest) {
  Pos& p = pos_.emplace(key, Pos{key, level, {}}).first->second;
  if (oldest) {
    levels_[level].PushCold(p);
  } else {
    levels_[level].PushHot(p);
  }
}

void LevelQueue::Remove(uint64_t key) {
  auto it = pos_.find(key);
  if (it == pos_.end()) return;
  levels_[it->second.level].Unlink(it->second);
  pos_.erase(it);
}

void LevelQueue::Move(Pos& p, uint32_t level, bool oldest) {
  levels_[p.level].Unlink(p);
  p.level = level;
  if (oldest) {
    levels_[level].PushCold(p);
  } else {
    levels_[level].PushHot(p);
  }
}

void LevelQueue::Requeue(uint64_t key, uint32_t extra_levels) {
  Pos& p = pos_.at(key);
  const uint32_t top = levels() - 1;
  if (extra_levels > 0 && p.level < top) {
    uint32_t new_level = std::min(top, p.level + extra_levels);
    auto& dest = levels_[new_level];
    if (!dest.empty()) {
      // The oldest entry of the destination level takes our old place.
      Move(*dest.Coldest(), p.level, false);
    }
    Move(p, new_level, false);
    return;
  }
  Move(p, p.level, false);
}

std::optional<uint64_t> LevelQueue::FindColdest(const std::function<bool(uint64_t)>& pred,
                                                size_t max_scan, uint32_t max_level) const {
  size_t n = 0;
  const uint32_t end = std::min(max_level, num_levels_);
  for (uint32_t level = 0; level < end; ++level) {
    for (const Pos& p : levels_[level]) {
      if (n++ >= max_scan) return std::nullopt;
      if (pred(p.key)) return p.key;
    }
  }
  return std::nullopt;
}

uint64_t LevelQueue::PopColdest(uint32_t* level) {
  for (uint32_t l = 0; l < num_levels_; ++l) {
    if (levels_[l].empty()) continue;
    const uint64_t k = levels_[l].Coldest()->key;
    Remove(k);
    if (level) *level = l;
    return k;
  }
  return 0;
}

size_t LevelQueue::CountFrom(uint32_t level) const {
  size_t n = 0;
  for (uint32_t l = level; l < num_levels_; ++l) n += levels_[l].size();
  return n;
}

void LevelQueue::SetTopLevels(uint32_t top_levels, uint32_t in_top) {
  top_levels_ = top_levels;
  in_top_ = in_top;
}

void LevelQueue::SetTargets() {
  // Spread `n` entries over levels [begin, end), the remainder going to the
  // lowest levels.
  auto spread = [&](size_t n, uint32_t begin, uint32_t end) {
    uint32_t count = end - begin;
    for (uint32_t l = begin; l < end; ++l) {
      target_[l] = count == 0 ? 0 : n / count + (l - begin < n % count ? 1 : 0);
    }
  };
  const size_t n = size();
  const uint32_t nl = levels();
  if (top_levels_ > nl) {
    spread(n, 0, nl);
    return;
  }
  size_t top = std::min<size_t>(in_top_, n);
  spread(top, nl - top_levels_, nl);
  spread(n - top, 0, nl - top_levels_);
}

void LevelQueue::Redistribute() {
  SetTargets();
  const uint32_t nl = levels();
  for (uint32_t level = 0; level + 1 < nl; ++level) {
    auto& l = levels_[level];
    // Pull the oldest entries of the levels above down into this one.
    while (l.size() < target_[level]) {
      uint32_t src = level + 1;
      while (src < nl && levels_[src].empty()) ++src;
      if (src == nl) break;
      Move(*levels_[src].Coldest(), level, false);
    }
    // Push the newest entries of this level up into the next, as its
    // newest (q_redistribute: l_pop_tail, then l_add_tail above).
    while (l.size() > target_[level]) {
      Move(*l.Hottest(), level + 1, false);
    }
  }
}

}  // namespace storlab
