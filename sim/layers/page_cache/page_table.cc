#include "sim/layers/page_cache/page_table.h"

#include <algorithm>
#include <bit>
#include <cstddef>

#include "sim/bit_count.h"

namespace storlab {
namespace {

int Pop(PageTable::Mask m) { return static_cast<int>(BitCount(m)); }

// Calls fn(group, mask) for each group that pages [first, last] touch.
template <typename Fn>
void ForEachGroup(uint64_t first, uint64_t last, Fn&& fn) {
  for (uint64_t g = PageTable::GroupOf(first); g <= PageTable::GroupOf(last); ++g)
    fn(g, PageTable::SpanMask(g, first, last));
}

}  // namespace

PageTable::Mask PageTable::SpanMask(uint64_t g, uint64_t first, uint64_t last) {
  const uint64_t base = g * kGroupPages;
  const uint64_t lo = std::max(first, base), hi = std::min(last, base + kGroupPages - 1);
  if (lo > hi) return 0;
  const uint64_t n = hi - lo + 1;
  return n == kGroupPages ? ~Mask{0} : ((Mask{1} << n) - 1) << (lo - base);
}

const PageTable::Group* PageTable::Find(uint64_t g) const { return groups_.Find(g); }

PageTable::Group& PageTable::Get(uint64_t g) {
  auto [grp, inserted] = groups_.TryEmplace(g);
  if (inserted) {
    grp->index = g;
    PushHot(*grp);
  }
  return *grp;
}

PageTable::File* PageTable::FindFile(uint32_t file) {
  auto it = files_.find(file);
  return it == files_.end() ? nullptr : &it->second;
}

uint32_t PageTable::OwnerOf(const Group& grp, unsigned bit) {
  return grp.owners ? grp.owners[bit] : grp.owner;
}

uint32_t PageTable::OwnerOfPage(uint64_t page) const {
  const Group* grp = Find(GroupOf(page));
  const unsigned bit = page % kGroupPages;
  if (!grp || !((grp->dirty | grp->writeback) & (Mask{1} << bit))) return 0;
  return OwnerOf(*grp, bit);
}

PageTable::Mask PageTable::OwnedBy(const Group& grp, uint32_t file) {
  if (!grp.owners) return grp.owner == file ? ~Mask{0} : 0;
  Mask m = 0;
  for (unsigned i = 0; i < kGroupPages; ++i)
    if (grp.owners[i] == file) m |= Mask{1} << i;
  return m;
}

std::set<uint32_t> PageTable::OwnersIn(const Group& grp, Mask m) {
  std::set<uint32_t> out;
  m &= grp.dirty | grp.writeback;
  if (!m) return out;
  if (!grp.owners) return {grp.owner};
  for (unsigned i = 0; i < kGroupPages; ++i)
    if (m & (Mask{1} << i)) out.insert(grp.owners[i]);
  return out;
}

void PageTable::SetOwner(Group& grp, Mask m, uint32_t file) {
  const Mask others = (grp.dirty | grp.writeback) & ~m;  // pages that keep their owner
  if (!grp.owners) {
    if (others == 0 || grp.owner == file) {
      grp.owner = file;
      return;
    }
    grp.owners.reset(new uint32_t[kGroupPages]);
    std::fill(grp.owners.get(), grp.owners.get() + kGroupPages, grp.owner);
  }
  for (unsigned i = 0; i < kGroupPages; ++i)
    if (m & (Mask{1} << i)) grp.owners[i] = file;
}

void PageTable::Reindex(const Group& grp, uint32_t file) {
  const bool owns = (OwnedBy(grp, file) & (grp.dirty | grp.writeback)) != 0;
  if (owns) {
    files_[file].groups.insert(grp.index);
  } else if (File* f = FindFile(file)) {
    f->groups.erase(grp.index);
  }
}

void PageTable::AdjustCounts(Mask cached0, Mask dirty0, Mask wb0, const Group& grp) {
  cached_ += Pop(grp.cached) - Pop(cached0);
  dirty_ += Pop(grp.dirty) - Pop(dirty0);
  writeback_ += Pop(grp.writeback) - Pop(wb0);
  dirty_or_wb_ += Pop(grp.dirty | grp.writeback) - Pop(dirty0 | wb0);
}

void PageTable::Normalize(Group& grp) {
  if ((grp.dirty | grp.writeback) == 0) {
    grp.owners.reset();
    grp.owner = 0;
  }
  if ((grp.cached | grp.dirty | grp.writeback | grp.reading) == 0) {
    grp.lru = 0;  // its mark goes stale
    groups_.Erase(grp.index);
  }
}

PageTable::DirtyResult PageTable::MarkDirty(uint64_t first, uint64_t last, uint32_t file,
                                            Nanos now) {
  DirtyResult r;
  File& f = files_[file];
  const bool was_clean = f.groups.empty();
  ForEachGroup(first, last, [&](uint64_t g, Mask m) {
    Group& grp = Get(g);
    const Mask c0 = grp.cached, d0 = grp.dirty, w0 = grp.writeback;
    // The counts move by the pages that were not cached, not dirty, not
    // dirty or under writeback (cheaper than AdjustCounts' before/after).
    const int fresh = Pop(m & ~c0), newly = Pop(m & ~d0);
    r.new_pages += fresh;
    r.rewritten += Pop(m & d0);
    r.newly_dirty += newly;
    cached_ += fresh;
    dirty_ += newly;
    dirty_or_wb_ += Pop(m & ~(d0 | w0));
    if (!grp.owners && (grp.owner == file || (d0 | w0) == 0)) {
      // The common case: the group is `file`'s alone (or nobody's): no
      // other owner loses pages, and `file` is indexed here already if it
      // owned dirty or writeback pages before.
      const bool indexed = grp.owner == file && (d0 | w0) != 0;
      grp.owner = file;
      grp.cached |= m;
      grp.dirty |= m;
      if (!indexed) f.groups.insert(g);
      PushHot(grp);
      return;
    }
    std::set<uint32_t> old = OwnersIn(grp, m);
    SetOwner(grp, m, file);
    grp.cached |= m;
    grp.dirty |= m;
    old.insert(file);
    for (uint32_t o : old) Reindex(grp, o);
    PushHot(grp);
  });
  if (was_clean) f.dirtied_when = now;
  MaybeCompactLru();
  return r;
}

uint64_t PageTable::MarkCached(uint64_t first, uint64_t last) {
  uint64_t n = 0;
  ForEachGroup(first, last, [&](uint64_t g, Mask m) {
    Group& grp = Get(g);
    const Mask c0 = grp.cached, d0 = grp.dirty, w0 = grp.writeback;
    n += Pop(m & ~c0);
    grp.cached |= m;
    AdjustCounts(c0, d0, w0, grp);
    PushHot(grp);
  });
  MaybeCompactLru();
  return n;
}

void PageTable::SetReading(uint64_t first, uint64_t last, bool on) {
  ForEachGroup(first, last, [&](uint64_t g, Mask m) {
    if (on) {
      Get(g).reading |= m;
    } else if (Group* grp = groups_.Find(g)) {
      grp->reading &= ~m;
      Normalize(*grp);
    }
  });
  MaybeCompactLru();
}

void PageTable::StartWriteback(uint64_t first, uint64_t last) {
  ForEachGroup(first, last, [&](uint64_t g, Mask m) {
    Group& grp = *groups_.Find(g);
    const Mask d0 = grp.dirty, w0 = grp.writeback;
    grp.dirty &= ~m;
    grp.writeback |= m;
    dirty_ -= Pop(m & d0);
    writeback_ += Pop(m & ~w0);
    dirty_or_wb_ += Pop(m & ~(d0 | w0));
  });
}

void PageTable::EndWriteback(uint64_t first, uint64_t last) {
  ForEachGroup(first, last, [&](uint64_t g, Mask m) {
    Group* found = groups_.Find(g);
    if (!found) return;
    Group& grp = *found;
    const Mask d0 = grp.dirty, w0 = grp.writeback;
    // Pages leaving writeback; those not redirtied meanwhile leave
    // dirty-or-writeback too.
    writeback_ -= Pop(m & w0);
    dirty_or_wb_ -= Pop(m & w0 & ~d0);
    if (!grp.owners) {
      // One owner: it leaves the group's index only when nothing of the
      // group is dirty or under writeback any more.
      grp.writeback &= ~m;
      if ((m & (d0 | w0)) && (grp.dirty | grp.writeback) == 0) {
        if (File* f = FindFile(grp.owner)) f->groups.erase(g);
      }
      Normalize(grp);
      return;
    }
    const std::set<uint32_t> owners = OwnersIn(grp, m);
    grp.writeback &= ~m;
    for (uint32_t o : owners) Reindex(grp, o);
    Normalize(grp);
  });
}

uint64_t PageTable::Drop(uint64_t first, uint64_t last) {
  uint64_t n = 0;
  ForEachGroup(first, last, [&](uint64_t g, Mask m) {
    Group* found = groups_.Find(g);
    if (!found) return;
    Group& grp = *found;
    const Mask c0 = grp.cached, d0 = grp.dirty, w0 = grp.writeback;
    const std::set<uint32_t> owners = OwnersIn(grp, m);
    n += Pop(grp.cached & m);
    grp.cached &= ~m;
    grp.dirty &= ~m;
    AdjustCounts(c0, d0, w0, grp);
    for (uint32_t o : owners) Reindex(grp, o);
    Normalize(grp);
  });
  return n;
}

uint64_t PageTable::EvictClean(uint64_t pages,
                               const std::function<void(uint64_t, uint64_t)>& on_evict) {
  uint64_t evicted = 0;
  size_t visits = groups_.size();
  lru_head_ = NextLive(lru_head_);
  size_t pos = lru_head_;  // the coldest group's mark
  while (pos < lru_log_.size() && evicted < pages && visits-- > 0) {
    const size_t warmer = NextLive(pos + 1);
    Group& grp = *groups_.Find(lru_log_[pos].group);
    const Mask clean = grp.cached & ~grp.dirty & ~grp.writeback;
    if (clean == 0) {
      // Dirty or busy: a second chance, like reclaim's rotation; the walk
      // goes on with the next warmer group, or from the cold end when this
      // was the hottest.
      const bool hottest = warmer == lru_log_.size();
      PushHot(grp);  // (appends: the log's size changes)
      pos = hottest ? NextLive(lru_head_) : warmer;
      continue;
    }
    const Mask c0 = grp.cached, d0 = grp.dirty, w0 = grp.writeback;
    grp.cached &= ~clean;
    AdjustCounts(c0, d0, w0, grp);
    evicted += Pop(clean);
    const uint64_t base = grp.index * kGroupPages;
    Mask m = clean;
    while (m) {
      const unsigned lo = std::countr_zero(m);
      const unsigned len = std::countr_one(m >> lo);
      on_evict(base + lo, len);
      m = len + lo >= kGroupPages ? 0 : m & ~(((Mask{1} << len) - 1) << lo);
    }
    Normalize(grp);  // may forget it (and move others in the table)
    pos = warmer;
  }
  MaybeCompactLru();
  return evicted;
}

void PageTable::Touch(uint64_t first, uint64_t last) {
  ForEachGroup(first, last, [&](uint64_t g, Mask) {
    if (Group* grp = groups_.Find(g)) PushHot(*grp);
  });
  MaybeCompactLru();
}

bool PageTable::AllCached(uint64_t first, uint64_t last) const {
  bool all = true;
  ForEachGroup(first, last, [&](uint64_t g, Mask m) {
    const Group* grp = Find(g);
    if (!grp || (grp->cached & m) != m) all = false;
  });
  return all;
}

bool PageTable::AnyBit(uint64_t first, uint64_t last, Mask Group::*bits) const {
  bool any = false;
  ForEachGroup(first, last, [&](uint64_t g, Mask m) {
    const Group* grp = Find(g);
    if (grp && (grp->*bits & m)) any = true;
  });
  return any;
}

std::vector<std::pair<uint64_t, uint64_t>> PageTable::MissingRuns(uint64_t first,
                                                                  uint64_t last) const {
  std::vector<std::pair<uint64_t, uint64_t>> runs;
  ForEachGroup(first, last, [&](uint64_t g, Mask m) {
    const Group* grp = Find(g);
    const Mask miss = grp ? m & ~grp->cached & ~grp->reading : m;
    for (unsigned i = 0; i < kGroupPages; ++i) {
      if (!(miss & (Mask{1} << i))) continue;
      const uint64_t page = g * kGroupPages + i;
      if (!runs.empty() && runs.back().first + runs.back().second == page) {
        ++runs.back().second;
      } else {
        runs.emplace_back(page, 1);
      }
    }
  });
  return runs;
}

std::pair<uint64_t, uint64_t> PageTable::NextDirtyRun(uint32_t file, uint64_t from,
                                                      uint64_t max_pages) const {
  auto fit = files_.find(file);
  if (fit == files_.end() || max_pages == 0) return {0, 0};
  const GroupSet& gs = fit->second.groups;
  auto candidates = [&](uint64_t g) -> Mask {
    const Group* grp = Find(g);
    return grp ? grp->dirty & ~grp->writeback & OwnedBy(*grp, file) : 0;
  };
  for (auto it = gs.lower_bound(GroupOf(from)); it != gs.end(); ++it) {
    Mask cand = candidates(*it);
    if (*it == GroupOf(from)) cand &= ~Mask{0} << (from % kGroupPages);
    if (!cand) continue;
    const uint64_t start = *it * kGroupPages + std::countr_zero(cand);
    uint64_t page = start;
    // Extend the run page by page, across groups while it stays contiguous.
    while (page - start < max_pages) {
      const uint64_t g = GroupOf(page);
      if (g != *it && !gs.count(g)) break;
      if (!(candidates(g) & (Mask{1} << (page % kGroupPages)))) break;
      ++page;
    }
    return {start, page - start};
  }
  return {0, 0};
}

std::vector<uint32_t> PageTable::DirtyFilesByAge() const {
  std::vector<std::pair<Nanos, uint32_t>> v;
  for (const auto& [id, f] : files_)
    if (!f.groups.empty()) v.emplace_back(f.dirtied_when, id);
  std::sort(v.begin(), v.end());
  std::vector<uint32_t> out;
  out.reserve(v.size());
  for (const auto& p : v) out.push_back(p.second);
  return out;
}

void PageTable::Clear() {
  groups_.Clear();
  files_.clear();
  lru_log_.clear();
  lru_head_ = 0;
  lru_scratch_.clear();
  cached_ = dirty_ = writeback_ = dirty_or_wb_ = 0;
}

}  // namespace storlab
