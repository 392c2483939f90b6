// CacheCore: the write path (by mode), write-zeroes and trim.
#include <algorithm>
#include <cassert>
#include <vector>

#include "sim/join.h"
#include "sim/layers/cache/cache_core.h"

namespace storlab {
struct CacheCore::WriteOp {
  enum class Dest : uint8_t { kCache, kBoth, kOrigin };
  struct Item {
    Span s;
    Dest dest;
    // The block's entry when the data goes to the cache: it stays put
    // while the write pins it (io > 0: never evicted, KeyMap entries
    // never move).
    CacheEntry* e;
  };
  Request req;
  std::vector<Item> items;
  uint64_t reserved = 0;             // dirty bytes reserved against the limit
  std::vector<uint64_t> to_promote;  // background migrations, once written
  bool tick = false;                 // the tick bio
};

void CacheCore::Write(Request req, bool bypass, bool waited) {
  using Dest = WriteOp::Dest;
  const bool fua = req.fua();
  // Sequential streams are written around the cache; FUA goes through.
  const CacheMode mode = bypass ? CacheMode::kWriteAround : cfg_.mode;
  const bool back = mode == CacheMode::kWriteBack && !fua;
  const std::vector<Span> spans = Spans(req.offset, req.length);
  auto retry = [&](bool wait_space = false) {
    return [this, r = std::move(req), bypass, w = waited || wait_space]() mutable {
      Write(std::move(r), bypass, w);
    };
  };

  // Phase 1: may the request start now? Nothing changes until it may.
  uint64_t new_dirty = 0;
  for (const Span& s : spans) {
    const CacheEntry* e = table_.Find(s.block);
    if (e && e->locked) return WaitBlock(s.block, retry());
    if (!e) {
      if (back && Cacheable(s.block) && s.count * sector_ == bs_) new_dirty += bs_;
      continue;
    }
    // A clean copy is dropped, which must wait until nobody reads it.
    if (mode == CacheMode::kWriteAround && !e->dirty.any() && e->io > 0) {
      return WaitBlock(s.block, retry());
    }
    if (back) new_dirty += uint64_t{s.count - e->dirty.Count(s.first, s.count)} * sector_;
  }
  bool through = false;  // over the dirty limit, written through instead
  const uint64_t dirty = table_.dirty_bytes() + dirty_reserved_;
  if (new_dirty > 0 && dirty > 0 &&
      static_cast<double>(dirty + new_dirty) > cfg_.dirty_limit * static_cast<double>(cfg_.size)) {
    if (!cfg_.over_limit_bypass) return WaitSpace(retry(true), !waited);
    through = true;
  }

  // Phase 2: decide each block's destination and start.
  auto op = std::make_shared<WriteOp>();
  const Nanos now = engine_.now();
  const bool background = policy_->background_migrations();
  bool tick_bio = !(mode == CacheMode::kWriteThrough && background);
  for (const Span& s : spans) {
    const bool full = s.count * sector_ == bs_;
    // With background migrations a whole-block write promotes at once
    // only in writeback mode (optimisable_bio).
    const Access a{s.block, true, full && (back || !background), now};
    CacheEntry* e = table_.Find(s.block);
    Dest dest = Dest::kOrigin;
    if (e) {
      ++c_.write_hits;
      policy_->Hit(a, *e);
      if (mode == CacheMode::kWriteAround && !e->dirty.any()) {
        ++c_.invalidations;
        Evict(*e, false);
        e = nullptr;
      } else {
        dest = back && !through ? Dest::kCache : Dest::kBoth;
      }
    } else {
      ++c_.write_misses;
      tick_bio = true;  // a write hit in writethrough mode is no tick bio
      if (mode != CacheMode::kWriteAround && Cacheable(s.block) && background) {
        // map_bio: a fast promotion (the write itself fills a free block),
        // or the write goes to the origin and a promotion may follow it.
        Promote p = policy_->Miss(a);
        if (p == Promote::kTemporary && !busy_writes_.count(s.block)) {
          if (auto slot = table_.TakeFreeSlot()) {
            e = &table_.Insert(s.block, *slot);
            policy_->Insert(*e, false, p);
            dest = back && !through ? Dest::kCache : Dest::kBoth;
          }
        }
        if (!e && p != Promote::kNo) op->to_promote.push_back(s.block);
      } else if (mode != CacheMode::kWriteAround && Cacheable(s.block)) {
        Promote p = policy_->Miss(a);
        std::optional<uint32_t> slot;
        // A whole block needs no copy from the origin; a part would, so
        // partial writes leave promotion to a later read.
        if (p != Promote::kNo && full && !busy_writes_.count(s.block)) {
          slot = table_.TakeFreeSlot();
          if (!slot && !fast_) {
            auto v = policy_->Victim([this](uint64_t b) { return Evictable(b); }, kMaxVictimScan);
            if (v) {
              ++c_.demotions;
              slot = Evict(*v, /*claim=*/true);
            }
          } else if (!slot) {
            // Demote now so that a slot is free after the next commit.
            auto v = policy_->Victim([this](uint64_t b) { return Evictable(b); }, kMaxVictimScan);
            if (v) {
              ++c_.demotions;
              Evict(*v, false);
              committer_->Commit(false, nullptr);
            }
          }
        }
        if (slot) {
          e = &table_.Insert(s.block, *slot);
          policy_->Insert(*e, false, p);
          dest = back && !through ? Dest::kCache : Dest::kBoth;
        }
      }
    }
    if (e) {
      ++e->io;
      if (dest == Dest::kCache) {
        op->reserved += uint64_t{s.count - e->dirty.Count(s.first, s.count)} * sector_;
      }
    } else {
      ++busy_writes_[s.block];
    }
    op->items.push_back({s, dest, dest == Dest::kOrigin ? nullptr : e});
  }
  dirty_reserved_ += op->reserved;
  if (tick_bio) op->tick = TakeTickBio();

  std::vector<Piece> to_cache, to_origin;
  for (const auto& it : op->items) {
    const Span& s = it.s;
    const uint64_t len = uint64_t{s.count} * sector_;
    if (it.dest != Dest::kOrigin) {
      to_cache.push_back({SlotOffset(it.e->slot) + uint64_t{s.first} * sector_, len, s.buf_off});
    }
    if (it.dest != Dest::kCache) {
      to_origin.push_back({BlockOffset(s.block) + uint64_t{s.first} * sector_, len, s.buf_off});
    }
  }
  if (!to_cache.empty()) CacheWritten();
  op->req = std::move(req);
  auto join = Join::Make([this, op](Status st) { WriteDone(op, std::move(st)); });
  IssuePieces(cache_dev(), Op::kWrite, std::move(to_cache), op->req.data, 0, join);
  IssuePieces(origin_, Op::kWrite, std::move(to_origin), op->req.data, fua ? kFua : 0, join);
  join->Seal(engine_);
}

void CacheCore::WriteDone(const std::shared_ptr<WriteOp>& op, Status st) {
  using Dest = WriteOp::Dest;
  const Nanos now = engine_.now();
  bool dirtied = false;
  for (const auto& it : op->items) {
    if (it.dest == Dest::kCache) dirtied = true;
  }
  const uint64_t seq = dirtied && st.ok() ? ++write_seq_ : 0;
  for (const auto& it : op->items) {
    const Span& s = it.s;
    if (it.dest == Dest::kOrigin) {
      Unbusy(s.block);
      continue;
    }
    CacheEntry* e = it.e;
    assert(e == table_.Find(s.block));
    if (!st.ok()) {
      // What the cache holds of the range is unknown now: forget it.
      bool was_dirty = e->dirty.any();
      table_.Invalidate(*e, s.first, s.count);
      if (was_dirty && !e->dirty.any()) policy_->SetDirty(*e, false);
      RecordChange(s.block);
    } else if (it.dest == Dest::kCache) {
      bool was_dirty = e->dirty.any();
      table_.MarkDirty(*e, s.first, s.count, seq, now);
      if (!was_dirty) policy_->SetDirty(*e, true);
      RecordChange(s.block);
    } else if (!e->valid.AllSet(s.first, s.count)) {
      e->valid.Set(s.first, s.count);
      RecordChange(s.block);
    }
    Unpin(*e);
  }
  dirty_reserved_ -= op->reserved;
  RecordDirty();
  for (uint64_t b : op->to_promote) QueuePromotion(b, Promote::kPermanent);
  destager_.Kick();
  WakeSpace();
  if (op->tick) TickBioDone();
  Request& req = op->req;
  if (fast_ && req.fua() && st.ok()) {
    // dm-cache commits its metadata for every FUA write, so that no older
    // mapping can bring back older data after a crash.
    committer_->Commit(false, [op](Status s) {
      Completion d = std::move(op->req.done);
      d(std::move(s));
    });
    return;
  }
  Completion done = std::move(req.done);
  done(std::move(st));
}

void CacheCore::Discard(Request req) {
  const std::vector<Span> spans = Spans(req.offset, req.length);
  for (const Span& s : spans) {
    const CacheEntry* e = table_.Find(s.block);
    if (e && (e->locked || e->io > 0)) {
      return WaitBlock(s.block, [this, r = std::move(req)]() mutable { Discard(std::move(r)); });
    }
  }
  // The origin zeroes or discards the range first; only then does the cache
  // drop what it holds of it (dirty data included). Dropping it earlier
  // could let a commit send reads to older data at the origin.
  // Which blocks were mapped when it started: a promotion may map one of
  // the others meanwhile, and waits for this to end (Unbusy).
  std::vector<bool> mapped;
  for (const Span& s : spans) {
    CacheEntry* e = table_.Find(s.block);
    mapped.push_back(e != nullptr);
    if (e) {
      ++e->io;
    } else {
      ++busy_writes_[s.block];
    }
  }
  Request r{.op = req.op,
            .flags = req.flags,
            .offset = req.offset,
            .length = req.length,
            .done = [this, spans, mapped, req = std::move(req)](Status st) mutable {
              for (size_t i = 0; i < spans.size(); ++i) {
                const Span& s = spans[i];
                if (!mapped[i]) {
                  Unbusy(s.block);
                  continue;
                }
                CacheEntry* e = table_.Find(s.block);
                if (st.ok()) {
                  bool was_dirty = e->dirty.any();
                  table_.Invalidate(*e, s.first, s.count);
                  if (was_dirty && !e->dirty.any()) policy_->SetDirty(*e, false);
                }
                if (--e->io == 0 && !e->valid.any()) {
                  ++c_.invalidations;
                  Evict(*e, false);
                } else {
                  RecordChange(s.block);
                }
                WakeBlock(s.block);
              }
              RecordDirty();
              destager_.CheckFlushes();
              WakeSpace();
              destager_.Kick();
              if (fast_ && req.fua() && st.ok()) {
                auto d = std::make_shared<Completion>(std::move(req.done));
                committer_->Commit(false, [d](Status s) { (*d)(std::move(s)); });
                return;
              }
              req.done(std::move(st));
            }};
  origin_.Submit(std::move(r));
}

}  // namespace storlab
