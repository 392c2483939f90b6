#include "sim/layers/zfs/zfs_vdevs.h"

#include <algorithm>

#include "sim/join.h"

namespace storlab {

// ---- ExtentAllocator ----

ExtentAllocator::ExtentAllocator(uint64_t start, uint64_t end)
    : start_(start), end_(std::max(start, end)), cursor_(start) {
  Reset();
}

void ExtentAllocator::Reset() {
  free_.clear();
  if (end_ > start_) free_[start_] = end_ - start_;
  free_bytes_ = end_ - start_;
  cursor_ = start_;
}

bool ExtentAllocator::Allocate(uint64_t size, uint64_t* offset) {
  // Next fit: the first free extent at or after the cursor, then from the
  // start (metaslab allocation is first-fit from a cursor, too).
  for (int pass = 0; pass < 2; ++pass) {
    auto it = pass == 0 ? free_.upper_bound(cursor_) : free_.begin();
    if (pass == 0 && it != free_.begin()) {
      auto prev = std::prev(it);
      if (prev->first + prev->second > cursor_) it = prev;
    }
    for (; it != free_.end(); ++it) {
      uint64_t off = std::max(it->first, pass == 0 ? cursor_ : it->first);
      const uint64_t ext_end = it->first + it->second;
      if (ext_end - off < size || off >= ext_end) continue;
      // Carve [off, off+size) out of the extent, reusing its map node for
      // what is left (no allocation for the usual cut from the front).
      const uint64_t ext_start = it->first;
      if (off > ext_start) {
        it->second = off - ext_start;
        if (off + size < ext_end) free_[off + size] = ext_end - off - size;
      } else if (off + size < ext_end) {
        auto node = free_.extract(it);
        node.key() = off + size;
        node.mapped() = ext_end - off - size;
        auto placed = free_.insert(std::move(node));
        if (!placed.inserted) placed.position->second = ext_end - off - size;
      } else {
        free_.erase(it);
      }
      free_bytes_ -= size;
      cursor_ = off + size;
      *offset = off;
      return true;
    }
  }
  return false;
}

void ExtentAllocator::Free(uint64_t offset, uint64_t size) {
  if (size == 0) return;
  uint64_t end = offset + size;
  auto after = free_.lower_bound(offset);
  // The free extent ending at `offset` grows in place.
  auto prev = after == free_.begin() ? free_.end() : std::prev(after);
  const bool joins_prev = prev != free_.end() && prev->first + prev->second == offset;
  // The extent starting at `end`: the one after `offset` already, unless
  // something free lies inside the range (freed twice).
  auto next = after != free_.end() && after->first < end ? free_.lower_bound(end) : after;
  const bool joins_next = next != free_.end() && next->first == end;
  if (joins_prev) {
    if (joins_next) {
      end += next->second;
      free_.erase(next);
    }
    prev->second = end - prev->first;
  } else if (joins_next) {
    // The next extent's node, moved down to `offset` (no key lies between).
    auto node = free_.extract(next);
    node.key() = offset;
    node.mapped() += size;
    const uint64_t length = node.mapped();
    auto placed = free_.insert(std::move(node));
    if (!placed.inserted) placed.position->second = length;  // (freed twice)
  } else {
    free_.emplace_hint(after, offset, size)->second = size;
  }
  free_bytes_ += size;
}

// ---- ZfsVdevs ----

ZfsVdevs::ZfsVdevs(const std::vector<MemberSpec>& members, Node* slog, const Config& config)
    : config_(config), slog_(slog), async_write_limit_(config.async_write_min_active) {
  member_capacity_ = UINT64_MAX;
  for (const MemberSpec& m : members) {
    members_.push_back(Member{m.node, m.base, {}, {}});
    const uint64_t size = m.size ? m.size : m.node->geometry().capacity - m.base;
    member_capacity_ = std::min(member_capacity_, size / kSector * kSector);
  }
  const uint64_t end = member_capacity_ > kEndLabels ? member_capacity_ - kEndLabels : 0;
  const size_t spaces = config.layout == ZfsLayout::kStripe ? members_.size() : 1;
  for (size_t i = 0; i < spaces; ++i) allocs_.emplace_back(kFrontLabels, end);
}

uint64_t ZfsVdevs::usable_bytes() const {
  const uint64_t per = member_capacity_ > kFrontLabels + kEndLabels
                           ? member_capacity_ - kFrontLabels - kEndLabels
                           : 0;
  switch (config_.layout) {
    case ZfsLayout::kMirror:
      return per;
    case ZfsLayout::kRaidz1:
      return per * (members_.size() - 1);
    case ZfsLayout::kStripe:
      return per * members_.size();
  }
  return 0;
}

uint64_t ZfsVdevs::RawBytes(uint64_t psize) const {
  const uint64_t n = members_.size();
  switch (config_.layout) {
    case ZfsLayout::kMirror:
      return psize * n;
    case ZfsLayout::kStripe:
      return psize;
    case ZfsLayout::kRaidz1: {
      const uint64_t sectors = (psize + kSector - 1) / kSector;
      const uint64_t rows = (sectors + n - 2) / (n - 1);
      return rows * kSector * n;
    }
  }
  return psize;
}

bool ZfsVdevs::Allocate(uint64_t psize, ZfsBp* bp) {
  const uint64_t n = members_.size();
  bp->asize = config_.layout == ZfsLayout::kRaidz1 ? RawBytes(psize) / n : psize;
  if (config_.layout != ZfsLayout::kStripe) return allocs_[0].Allocate(bp->asize, &bp->offset);
  constexpr uint64_t kAliquot = 512 << 10;  // metaslab_aliquot
  for (uint64_t tries = 0; tries < n; ++tries) {
    if (rotor_bytes_ >= kAliquot) {
      rotor_ = static_cast<uint32_t>((rotor_ + 1) % n);
      rotor_bytes_ = 0;
    }
    if (allocs_[rotor_].Allocate(bp->asize, &bp->offset)) {
      bp->member = rotor_;
      rotor_bytes_ += bp->asize;
      return true;
    }
    rotor_bytes_ = kAliquot;  // full: try the next member
  }
  return false;
}

void ZfsVdevs::Free(const ZfsBp& bp) { AllocatorFor(bp.member).Free(bp.offset, bp.asize); }

uint32_t ZfsVdevs::Limit(ZfsIoClass cls) const {
  if (cls == ZfsIoClass::kAsyncWrite) return async_write_limit_;
  return config_.max_active[static_cast<int>(cls)];
}

void ZfsVdevs::Enqueue(uint32_t member, ZfsIoClass cls, Op op, uint64_t offset, uint64_t length,
                       Completion done) {
  Request r{.op = op,
            .flags = cls == ZfsIoClass::kAsyncWrite ? kBackground : 0,
            .offset = members_[member].base + offset,
            .length = length,
            .done = std::move(done)};
  if (op == Op::kWrite) ++member_writes_;
  members_[member].queued[static_cast<int>(cls)].push_back(std::move(r));
  Dispatch(member);
}

void ZfsVdevs::Dispatch(uint32_t member) {
  Member& m = members_[member];
  for (bool issued = true; issued;) {
    issued = false;
    for (int c = 0; c < 4; ++c) {  // sync read, sync write, async read, async write
      if (m.queued[c].empty() || m.active[c] >= Limit(static_cast<ZfsIoClass>(c))) continue;
      Request r = std::move(m.queued[c].front());
      m.queued[c].pop_front();
      ++m.active[c];
      // The caller's completion waits in a slot, so the one wrapping it
      // fits Completion's inline storage (no allocation per member I/O).
      const uint32_t slot = waiting_.Acquire();
      waiting_[slot] = std::move(r.done);
      r.done = [this, member, c, slot](Status st) {
        Completion done = std::move(waiting_[slot]);
        waiting_.Release(slot);
        --members_[member].active[c];
        Dispatch(member);
        done(std::move(st));
      };
      m.node->Submit(std::move(r));
      issued = true;
      break;
    }
  }
}

void ZfsVdevs::Write(const ZfsBp& bp, ZfsIoClass cls, Callback<void(Status)> done) {
  if (config_.layout == ZfsLayout::kStripe) {
    Enqueue(bp.member, cls, Op::kWrite, bp.offset, bp.asize, std::move(done));
    return;
  }
  auto join = Join::Make(std::move(done));
  for (uint32_t i = 0; i < members_.size(); ++i)
    Enqueue(i, cls, Op::kWrite, bp.offset, bp.asize, join->Arm());
  join->Seal(engine());
}

void ZfsVdevs::Read(const ZfsBp& bp, ZfsIoClass cls, Callback<void(Status)> done) {
  const uint32_t n = static_cast<uint32_t>(members_.size());
  switch (config_.layout) {
    case ZfsLayout::kStripe:
      Enqueue(bp.member, cls, Op::kRead, bp.offset, bp.asize, std::move(done));
      return;
    case ZfsLayout::kMirror: {
      // vdev_mirror_child_select(): the member with the least work queued.
      uint32_t best = 0;
      uint64_t best_load = UINT64_MAX;
      for (uint32_t i = 0; i < n; ++i) {
        uint64_t load = 0;
        for (int c = 0; c < 4; ++c) load += members_[i].queued[c].size() + members_[i].active[c];
        if (load < best_load) {
          best = i;
          best_load = load;
        }
      }
      Enqueue(best, cls, Op::kRead, bp.offset, bp.asize, std::move(done));
      return;
    }
    case ZfsLayout::kRaidz1: {
      // The data columns: every member but the one holding this row's parity.
      const uint32_t parity = static_cast<uint32_t>((bp.offset / kSector) % n);
      auto join = Join::Make(std::move(done));
      for (uint32_t i = 0; i < n; ++i)
        if (i != parity) Enqueue(i, cls, Op::kRead, bp.offset, bp.asize, join->Arm());
      join->Seal(engine());
      return;
    }
  }
}

void ZfsVdevs::set_async_write_limit(uint32_t n) {
  const bool raised = n > async_write_limit_;
  async_write_limit_ = n;
  if (raised)
    for (uint32_t i = 0; i < members_.size(); ++i) Dispatch(i);
}

void ZfsVdevs::FlushMembers(Callback<void(Status)> done) {
  std::vector<Node*> nodes;  // each device once, though regions share it
  for (const Member& m : members_)
    if (std::find(nodes.begin(), nodes.end(), m.node) == nodes.end()) nodes.push_back(m.node);
  auto join = Join::Make(std::move(done));
  for (Node* node : nodes) {
    Request r{.op = Op::kFlush, .done = join->Arm()};
    node->Submit(std::move(r));
  }
  join->Seal(engine());
}

void ZfsVdevs::WriteUberblock(uint64_t txg, Callback<void(Status)> done) {
  // vdev_uberblock_sync(): the uberblock ring sits 128 KiB into each
  // 256 KiB label; two labels at the front, two at the end.
  const uint64_t slot = 128 * 1024 + (txg % 32) * kSector;
  const uint64_t end = member_capacity_ - kEndLabels;
  const uint64_t labels[4] = {slot, 256 * 1024 + slot, end + slot, end + 256 * 1024 + slot};
  auto join = Join::Make(std::move(done));
  for (uint32_t i = 0; i < members_.size(); ++i)
    for (uint64_t off : labels)
      Enqueue(i, ZfsIoClass::kSyncWrite, Op::kWrite, off, kSector, join->Arm());
  join->Seal(engine());
}

void ZfsVdevs::SlogWrite(uint64_t bytes, Callback<void(Status)> done) {
  const uint64_t cap = slog_->geometry().capacity / kSector * kSector;
  bytes = (bytes + kSector - 1) / kSector * kSector;
  if (slog_cursor_ + bytes > cap) slog_cursor_ = 0;
  Request r{.op = Op::kWrite, .offset = slog_cursor_, .length = bytes, .done = std::move(done)};
  slog_cursor_ += bytes;
  slog_->Submit(std::move(r));
}

void ZfsVdevs::FlushSlog(Callback<void(Status)> done) {
  Request r{.op = Op::kFlush, .done = std::move(done)};
  slog_->Submit(std::move(r));
}

void ZfsVdevs::Reset(
    const std::function<void(const std::function<void(const ZfsBp&)>&)>& for_each_used) {
  for (Member& m : members_) {
    for (auto& q : m.queued) q.clear();
    m.active.fill(0);
  }
  waiting_.Clear();  // their requests are gone with the power
  // Take the referenced blocks out of the free space again.
  std::vector<ZfsBp> used;
  for_each_used([&](const ZfsBp& bp) { used.push_back(bp); });
  std::sort(used.begin(), used.end(), [](const ZfsBp& a, const ZfsBp& b) {
    return a.member != b.member ? a.member < b.member : a.offset < b.offset;
  });
  std::vector<ExtentAllocator> rebuilt;
  const uint64_t end = member_capacity_ > kEndLabels ? member_capacity_ - kEndLabels : 0;
  for (size_t s = 0; s < allocs_.size(); ++s) {
    ExtentAllocator a(kFrontLabels, end);
    // Start empty and free the gaps between used blocks.
    uint64_t dummy;
    a.Allocate(end > kFrontLabels ? end - kFrontLabels : 0, &dummy);
    uint64_t pos = kFrontLabels;
    for (const ZfsBp& bp : used) {
      if (allocs_.size() > 1 && bp.member != s) continue;
      if (bp.offset > pos) a.Free(pos, bp.offset - pos);
      pos = std::max(pos, bp.offset + bp.asize);
    }
    if (end > pos) a.Free(pos, end - pos);
    rebuilt.push_back(std::move(a));
  }
  allocs_ = std::move(rebuilt);
  rotor_ = 0;
  rotor_bytes_ = 0;
  slog_cursor_ = 0;
  async_write_limit_ = config_.async_write_min_active;
}

}  // namespace storlab
