// CacheCore: destaging dirty data to the origin, and FLUSH.
#include <algorithm>

#include "sim/join.h"
#include "sim/layers/cache/cache_core.h"

namespace storlab {
namespace {
// Dirty blocks looked at per pick before the destager gives up for now.
constexpr size_t kMaxScan = 4096;
}  // namespace

struct CacheCore::DestageOp {
  std::vector<uint64_t> blocks;  // consecutive origin blocks
  uint64_t start = 0;            // origin offset of buf[0]
  std::vector<uint8_t> buf;
  std::vector<Piece> writes;  // origin runs, buf_off into buf
  uint64_t bytes = 0;
};

bool CacheCore::Destageable(const CacheEntry& e) const {
  return !e.locked && e.io == 0 && !e.destage_failed && e.dirty.any();
}

void CacheCore::KickDestager() {
  while (destaging_ < cfg_.destage_depth) {
    auto pick = PickDestage();
    if (!pick) break;
    StartDestage(pick->first, pick->second);
  }
  ArmExpiry();
}

std::optional<std::pair<uint64_t, uint64_t>> CacheCore::PickDestage() {
  if (table_.dirty_blocks() == 0) return std::nullopt;
  const bool urgent = !flush_waiters_.empty() || !space_waiters_.empty();
  const uint64_t background =
      static_cast<uint64_t>(cfg_.dirty_background * static_cast<double>(cfg_.size));
  // Dirty data not already on its way to the origin.
  const uint64_t waiting = table_.dirty_bytes() - destaging_bytes_;
  const bool over = waiting > background;
  const uint64_t budget = urgent ? cfg_.destage_max_io : over ? waiting - background : 0;
  if (urgent || over) {
    // Elevator order: ascending origin offsets from where the last one ended.
    const auto& set = table_.dirty_by_block();
    auto it = set.lower_bound(cursor_);
    for (size_t i = 0; i < std::min(set.size(), kMaxScan); ++i, ++it) {
      if (it == set.end()) it = set.begin();
      if (Destageable(*table_.Find(*it))) return std::make_pair(*it, budget);
    }
    return std::nullopt;
  }
  if (cfg_.dirty_expire > Nanos(0)) {
    size_t scanned = 0;
    for (const auto& [seq, b] : table_.dirty_by_seq()) {
      const CacheEntry& e = *table_.Find(b);
      if (engine_.now() - e.dirty_since < cfg_.dirty_expire || ++scanned > kMaxScan) break;
      if (Destageable(e)) return std::make_pair(b, cfg_.destage_max_io);
    }
  }
  return std::nullopt;
}

void CacheCore::StartDestage(uint64_t block, uint64_t budget) {
  auto op = std::make_shared<DestageOp>();
  const uint32_t spb = table_.sectors_per_block();
  op->blocks.push_back(block);
  uint64_t bytes = uint64_t{table_.Find(block)->dirty.Count()} * sector_;
  // Merge following blocks while the dirty data runs on without a gap.
  const uint64_t max_bytes = std::min(budget, cfg_.destage_max_io);
  for (uint64_t last = block; bytes < max_bytes; ++last) {
    const CacheEntry* e = table_.Find(last);
    const CacheEntry* n = table_.Find(last + 1);
    if (!e->dirty.AllSet(spb - 1, 1) || !n || !Destageable(*n) || !n->dirty.AllSet(0, 1)) break;
    uint64_t more = uint64_t{n->dirty.Count()} * sector_;
    if (bytes + more > cfg_.destage_max_io) break;  // never beyond max_io
    bytes += more;
    op->blocks.push_back(last + 1);
  }
  cursor_ = op->blocks.back() + 1;
  ++destaging_;
  destaging_bytes_ += bytes;
  ++c_.destage_ops;
  op->start = BlockOffset(block);
  op->bytes = bytes;
  if (keeps_data_) op->buf.resize(op->blocks.size() * bs_);
  std::vector<Piece> reads;
  for (uint64_t b : op->blocks) {
    CacheEntry& e = *table_.Find(b);
    e.locked = true;
    const uint64_t in_buf = (b - block) * bs_;
    for (auto [f, n] : e.dirty.Runs()) {
      const uint64_t off = uint64_t{f} * sector_, len = uint64_t{n} * sector_;
      reads.push_back({SlotOffset(e.slot) + off, len, in_buf + off});
      Piece w{BlockOffset(b) + off, len, in_buf + off};
      if (!op->writes.empty() && op->writes.back().dev_off + op->writes.back().len == w.dev_off) {
        op->writes.back().len += len;
      } else {
        op->writes.push_back(w);
      }
    }
  }
  auto join = Join::Make([this, op](Status st) {
    if (st.ok()) {
      DestageWrite(op);
    } else {
      DestageDone(op, std::move(st));
    }
  });
  IssuePieces(cache_dev(), Op::kRead, std::move(reads), op->buf.empty() ? nullptr : op->buf.data(),
              kBackground, join);
  join->Seal(engine_);
}

void CacheCore::DestageWrite(const std::shared_ptr<DestageOp>& op) {
  auto join = Join::Make([this, op](Status st) { DestageDone(op, std::move(st)); });
  IssuePieces(origin_, Op::kWrite, op->writes, op->buf.empty() ? nullptr : op->buf.data(),
              kBackground, join);
  join->Seal(engine_);
}

void CacheCore::DestageDone(const std::shared_ptr<DestageOp>& op, Status st) {
  --destaging_;
  destaging_bytes_ -= op->bytes;
  for (uint64_t b : op->blocks) {
    CacheEntry* e = table_.Find(b);
    e->locked = false;
    if (st.ok()) {
      // Writes to the block waited for the lock, so all of it is clean now.
      table_.MarkClean(*e);
      policy_->SetDirty(b, false);
    } else {
      table_.MarkFailed(*e);
    }
  }
  if (st.ok()) {
    if (on_destaged_) {
      for (const Piece& p : op->writes) on_destaged_(p.dev_off, p.len);
    }
    c_.destaged_bytes += op->bytes;
    origin_written_ = true;
  } else {
    ++c_.destage_errors;
  }
  RecordDirty();
  for (uint64_t b : op->blocks) WakeBlock(b);
  CheckFlushes();
  WakeSpace();
  KickDestager();
}

void CacheCore::ArmExpiry() {
  if (cfg_.dirty_expire <= Nanos(0) || table_.dirty_blocks() == 0) return;
  const Nanos now = engine_.now();
  // The first dirty block that has not expired yet; those that have are
  // destaged as soon as they are idle (every unlock kicks the destager).
  Nanos at = Nanos::Max();
  size_t scanned = 0;
  for (const auto& [seq, b] : table_.dirty_by_seq()) {
    Nanos t = table_.Find(b)->dirty_since + cfg_.dirty_expire;
    if (t > now) {
      at = t;
      break;
    }
    if (++scanned > kMaxScan) return;
  }
  if (at == Nanos::Max()) return;
  if (expiry_timer_) {
    if (expiry_at_ <= at) return;
    engine_.Cancel(expiry_timer_);
  }
  expiry_at_ = at;
  expiry_timer_ = engine_.At(at, [this] {
    expiry_timer_ = {};
    KickDestager();
  });
}

void CacheCore::Flush(Request req) {
  ++c_.flushes;
  const Nanos start = engine_.now();
  if (fast_) {
    // Dirty data on the cache device is durable once the device is flushed
    // and the mapping committed: a FLUSH commits (and flushes the origin).
    RequestCommit(true, [this, start, done = std::move(req.done)](Status st) mutable {
      c_.flush_time += engine_.now() - start;
      done(std::move(st));
    });
    return;
  }
  // In RAM, dirty data is durable only at the origin: destage everything
  // written before the FLUSH, then flush the origin.
  flush_waiters_.push_back({write_seq_, start, std::move(req)});
  KickDestager();
  CheckFlushes();
}

void CacheCore::CheckFlushes() {
  while (!flush_waiters_.empty()) {
    FlushWaiter& w = flush_waiters_.front();
    const auto& by_seq = table_.dirty_by_seq();
    bool blocked = !by_seq.empty() && by_seq.begin()->first <= w.seq;
    bool failed = false;
    if (blocked && table_.failed_blocks() > 0) {
      // Blocked only by blocks whose destage failed: report the error.
      failed = true;
      for (const auto& [seq, b] : by_seq) {
        if (seq > w.seq) break;
        const CacheEntry& e = *table_.Find(b);
        if (!e.destage_failed || e.locked) {
          failed = false;
          break;
        }
      }
    }
    if (blocked && !failed) return;
    FlushWaiter fw = std::move(w);
    flush_waiters_.pop_front();
    auto finish = [this, start = fw.start, done = std::move(fw.req.done)](Status st) mutable {
      c_.flush_time += engine_.now() - start;
      done(std::move(st));
    };
    if (failed) {
      engine_.After(Nanos(0), [finish = std::move(finish), n = name_]() mutable {
        finish(Status::IoError(n + ": flush: writing cached data back to the origin failed"));
      });
      continue;
    }
    Request f{.op = Op::kFlush, .done = std::move(finish)};
    origin_.Submit(std::move(f));
  }
}

}  // namespace storlab
