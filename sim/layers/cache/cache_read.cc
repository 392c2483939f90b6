// CacheCore: the read path and promotions.
#include <algorithm>
#include <cstring>
#include <memory>

#include "sim/join.h"
#include "sim/layers/cache/cache_core.h"

namespace storlab {
struct CacheCore::ReadOp {
  struct OriginRead {
    uint64_t off, len;
    // Where the origin's bytes land: into the request's buffer when the
    // range lies in it (no copy; a power-cut check in a forked copy pays a
    // page fault for each page it writes), else into `own`. nullptr: timing
    // only.
    uint8_t* data = nullptr;
    std::unique_ptr<uint8_t[]> own;
  };
  Request req;
  std::vector<uint64_t> pinned;
  std::vector<std::shared_ptr<Promotion>> promos;
  std::vector<uint64_t> to_promote;  // background migrations, once served
  std::vector<OriginRead> origin;
  bool tick = false;  // the tick bio
};

void CacheCore::Read(Request req) {
  auto op = std::make_shared<ReadOp>();
  op->tick = TakeTickBio();
  const bool background = policy_->background_migrations();
  const bool bypass = seq_.Observe(req.offset, req.length);
  if (bypass) ++c_.bypassed_ios;
  const Nanos now = engine_.now();
  std::vector<Piece> cache_pieces;
  std::vector<std::pair<uint64_t, uint64_t>> ranges;  // origin reads, ascending
  auto add_range = [&](uint64_t off, uint64_t len) {
    if (!ranges.empty() && ranges.back().first + ranges.back().second == off) {
      ranges.back().second += len;
    } else {
      ranges.emplace_back(off, len);
    }
  };
  for (const Span& s : Spans(req.offset, req.length)) {
    const uint64_t base = BlockOffset(s.block);
    const Access a{s.block, false, false, now};
    if (CacheEntry* e = table_.Find(s.block)) {
      policy_->Hit(a, *e);
      ++(e->valid.AllSet(s.first, s.count) ? c_.read_hits : c_.read_misses);
      ++e->io;
      op->pinned.push_back(s.block);
      for (auto [f, n] : e->valid.Runs(s.first, s.count, true)) {
        cache_pieces.push_back({SlotOffset(e->slot) + uint64_t{f} * sector_, uint64_t{n} * sector_,
                                s.buf_off + uint64_t{f - s.first} * sector_});
      }
      for (auto [f, n] : e->valid.Runs(s.first, s.count, false)) {
        add_range(base + uint64_t{f} * sector_, uint64_t{n} * sector_);
      }
      continue;
    }
    ++c_.read_misses;
    if (Cacheable(s.block) && !bypass && background) {
      // map_bio: the miss goes to the origin; a promotion is a job of its
      // own, which takes the block's lock after this read released it.
      if (policy_->Miss(a) != Promote::kNo) op->to_promote.push_back(s.block);
    } else if (Cacheable(s.block) && !bypass) {
      Promote p = policy_->Miss(a);
      bool after_commit = false;
      std::optional<uint32_t> slot;
      if (p != Promote::kNo && !busy_writes_.count(s.block)) slot = SlotForPromotion(&after_commit);
      if (slot) {
        CacheEntry& fresh = table_.Insert(s.block, *slot);
        fresh.locked = true;
        policy_->Insert(fresh, false, p);
        auto pr = std::make_shared<Promotion>();
        pr->block = s.block;
        pr->slot = *slot;
        pr->after_commit = after_commit;
        op->promos.push_back(std::move(pr));
        add_range(base, bs_);  // the whole block, for the cache
        continue;
      }
    }
    add_range(base + uint64_t{s.first} * sector_, uint64_t{s.count} * sector_);
  }
  op->req = std::move(req);
  const bool buffers = keeps_data_ && (op->req.data || !op->promos.empty());
  const Request& asked = op->req;
  for (auto [off, len] : ranges) {
    ReadOp::OriginRead& o = op->origin.emplace_back(ReadOp::OriginRead{off, len, nullptr, nullptr});
    if (!buffers) continue;
    if (asked.data && off >= asked.offset && off + len <= asked.offset + asked.length) {
      o.data = asked.data + (off - asked.offset);
    } else {
      o.own.reset(new uint8_t[len]);  // the read fills it
      o.data = o.own.get();
    }
  }
  auto join = Join::Make([this, op](Status st) { ReadDone(op, std::move(st)); });
  IssuePieces(cache_dev(), Op::kRead, std::move(cache_pieces), op->req.data, 0, join);
  for (auto& o : op->origin) {
    Request r{
        .op = Op::kRead, .offset = o.off, .length = o.len, .data = o.data, .done = join->Arm()};
    origin_.Submit(std::move(r));
  }
  join->Seal(engine_);
}

void CacheCore::ReadDone(const std::shared_ptr<ReadOp>& op, Status st) {
  Request& req = op->req;
  for (const auto& o : op->origin) {
    if (o.data == nullptr) continue;
    if (req.data && o.own) {
      uint64_t lo = std::max(o.off, req.offset);
      uint64_t hi = std::min(o.off + o.len, req.offset + req.length);
      if (lo < hi) std::memcpy(req.data + (lo - req.offset), o.data + (lo - o.off), hi - lo);
    }
    for (auto& p : op->promos) {
      uint64_t b = BlockOffset(p->block);
      if (b >= o.off && b + bs_ <= o.off + o.len) {
        p->data.assign(o.data + (b - o.off), o.data + (b - o.off + bs_));
      }
    }
  }
  for (uint64_t b : op->pinned) Unpin(b);
  for (auto& p : op->promos) {
    if (!st.ok()) {
      EndPromotion(*p, st);
    } else if (p->after_commit) {
      committer_->Commit(false, [this, p](Status s) {
        if (s.ok()) {
          WritePromotion(p);
        } else {
          EndPromotion(*p, std::move(s));
        }
      });
    } else {
      WritePromotion(p);
    }
  }
  for (uint64_t b : op->to_promote) QueuePromotion(b, Promote::kPermanent);
  destager_.Kick();
  if (op->tick) TickBioDone();
  Completion done = std::move(req.done);
  done(std::move(st));
}

std::optional<uint32_t> CacheCore::SlotForPromotion(bool* after_commit) {
  *after_commit = false;
  if (auto s = table_.TakeFreeSlot()) return s;
  auto victim = policy_->Victim([this](uint64_t b) { return Evictable(b); }, kMaxVictimScan);
  if (!victim) return std::nullopt;
  ++c_.demotions;
  uint32_t slot = Evict(*victim, /*claim=*/true);
  // dm-cache commits a demotion before the block is overwritten, so that a
  // crash never leaves the old mapping pointing at new data.
  *after_commit = fast_ != nullptr;
  return slot;
}

void CacheCore::WritePromotion(const std::shared_ptr<Promotion>& p) {
  Request r{.op = Op::kWrite,
            .flags = kBackground,
            .offset = SlotOffset(p->slot),
            .length = bs_,
            .data = p->data.empty() ? nullptr : p->data.data(),
            .done = [this, p](Status s) { EndPromotion(*p, std::move(s)); }};
  cache_dev().Submit(std::move(r));
}

void CacheCore::EndPromotion(const Promotion& p, Status st) {
  if (p.background) --migrations_;
  CacheEntry* e = table_.Find(p.block);
  if (!e) return;
  e->locked = false;
  if (st.ok()) {
    e->valid.SetAll();
    ++c_.promotions;
    CacheWritten();
    RecordChange(p.block);
  } else {
    policy_->Remove(*e);
    table_.Erase(*e);
  }
  WakeBlock(p.block);
  WakeSpace();
}

}  // namespace storlab
