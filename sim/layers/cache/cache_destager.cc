// CacheDestager: destaging dirty data to the origin, and a RAM cache's FLUSH.
#include "sim/layers/cache/cache_destager.h"

#include <algorithm>

#include "sim/join.h"

namespace storlab {
namespace {
// Dirty blocks looked at per pick before the destager gives up for now.
constexpr size_t kMaxScan = 4096;
}  // namespace

struct CacheDestager::DestageOp {
  std::vector<uint64_t> blocks;  // consecutive origin blocks
  uint64_t start = 0;            // origin offset of buf[0]
  std::vector<uint8_t> buf;
  std::vector<CachePiece> writes;  // origin runs, buf_off into buf
  uint64_t bytes = 0;
};

CacheDestager::CacheDestager(Engine& engine, std::string name, const Config& cfg, CacheTable& table,
                             Node& cache_dev, Node& origin, Owner& owner)
    : engine_(engine),
      name_(std::move(name)),
      cfg_(cfg),
      table_(table),
      cache_dev_(cache_dev),
      origin_(origin),
      owner_(owner) {}

bool CacheDestager::Destageable(const CacheEntry& e) const {
  return !e.locked && e.io == 0 && !e.destage_failed && e.dirty.any();
}

void CacheDestager::Kick() {
  while (destaging_ < cfg_.depth) {
    auto pick = Pick();
    if (!pick) break;
    Start(pick->first, pick->second);
  }
  ArmExpiry();
}

std::optional<std::pair<uint64_t, uint64_t>> CacheDestager::Pick() {
  if (table_.dirty_blocks() == 0) return std::nullopt;
  const bool urgent = !flush_waiters_.empty() || owner_.WritersWaiting();
  // Dirty data not already on its way to the origin.
  const uint64_t waiting = table_.dirty_bytes() - destaging_bytes_;
  const bool over = waiting > cfg_.background;
  const uint64_t budget = urgent ? cfg_.max_io : over ? waiting - cfg_.background : 0;
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
  if (cfg_.expire > Nanos(0)) {
    size_t scanned = 0;
    for (const auto& [key, since] : table_.dirty_by_seq()) {
      const CacheEntry& e = *table_.Find(key.second);
      if (engine_.now() - e.dirty_since < cfg_.expire || ++scanned > kMaxScan) break;
      if (Destageable(e)) return std::make_pair(key.second, cfg_.max_io);
    }
  }
  return std::nullopt;
}

void CacheDestager::Start(uint64_t block, uint64_t budget) {
  auto op = std::make_shared<DestageOp>();
  const uint32_t spb = table_.sectors_per_block();
  const uint64_t bs = cfg_.block_size, sector = cfg_.sector;
  op->blocks.push_back(block);
  uint64_t bytes = uint64_t{table_.Find(block)->dirty.Count()} * sector;
  // Merge following blocks while the dirty data runs on without a gap.
  const uint64_t max_bytes = std::min(budget, cfg_.max_io);
  for (uint64_t last = block; bytes < max_bytes; ++last) {
    const CacheEntry* e = table_.Find(last);
    const CacheEntry* n = table_.Find(last + 1);
    if (!e->dirty.AllSet(spb - 1, 1) || !n || !Destageable(*n) || !n->dirty.AllSet(0, 1)) break;
    uint64_t more = uint64_t{n->dirty.Count()} * sector;
    if (bytes + more > cfg_.max_io) break;  // never beyond max_io
    bytes += more;
    op->blocks.push_back(last + 1);
  }
  cursor_ = op->blocks.back() + 1;
  ++destaging_;
  destaging_bytes_ += bytes;
  ++c_.destage_ops;
  op->start = block * bs;
  op->bytes = bytes;
  if (cfg_.keeps_data) op->buf.resize(op->blocks.size() * bs);
  std::vector<CachePiece> reads;
  for (uint64_t b : op->blocks) {
    CacheEntry& e = *table_.Find(b);
    e.locked = true;
    const uint64_t in_buf = (b - block) * bs;
    for (auto [f, n] : e.dirty.Runs()) {
      const uint64_t off = uint64_t{f} * sector, len = uint64_t{n} * sector;
      reads.push_back({SlotOffset(e.slot) + off, len, in_buf + off});
      CachePiece w{b * bs + off, len, in_buf + off};
      if (!op->writes.empty() && op->writes.back().dev_off + op->writes.back().len == w.dev_off) {
        op->writes.back().len += len;
      } else {
        op->writes.push_back(w);
      }
    }
  }
  auto join = Join::Make([this, op](Status st) {
    if (st.ok()) {
      WriteOrigin(op);
    } else {
      Done(op, std::move(st));
    }
  });
  IssuePieces(cache_dev_, Op::kRead, std::move(reads), op->buf.empty() ? nullptr : op->buf.data(),
              kBackground, join);
  join->Seal(engine_);
}

void CacheDestager::WriteOrigin(const std::shared_ptr<DestageOp>& op) {
  auto join = Join::Make([this, op](Status st) { Done(op, std::move(st)); });
  IssuePieces(origin_, Op::kWrite, op->writes, op->buf.empty() ? nullptr : op->buf.data(),
              kBackground, join);
  join->Seal(engine_);
}

void CacheDestager::Done(const std::shared_ptr<DestageOp>& op, Status st) {
  --destaging_;
  destaging_bytes_ -= op->bytes;
  for (uint64_t b : op->blocks) {
    CacheEntry* e = table_.Find(b);
    e->locked = false;
    if (st.ok()) {
      // Writes to the block waited for the lock, so all of it is clean now.
      table_.MarkClean(*e);
      owner_.Cleaned(*e);
    } else {
      table_.MarkFailed(*e);
    }
  }
  if (st.ok()) {
    owner_.Written(op->writes);
    c_.destaged_bytes += op->bytes;
  } else {
    ++c_.destage_errors;
  }
  owner_.Unlocked(op->blocks);
  CheckFlushes();
  owner_.RoomMade();
  Kick();
}

void CacheDestager::ArmExpiry() {
  if (cfg_.expire <= Nanos(0) || table_.dirty_blocks() == 0) return;
  const Nanos now = engine_.now();
  // The first dirty block that has not expired yet; those that have are
  // destaged as soon as they are idle (every unlock kicks the destager).
  // Not armed while more than kMaxScan have expired (they keep it busy).
  const DirtyAgeIndex::Expiry x = table_.ScanExpiry(now, cfg_.expire, kMaxScan);
  if (x.expired > kMaxScan || !x.next) return;
  const Nanos at = *x.next + cfg_.expire;
  if (at == Nanos::Max()) return;
  if (expiry_timer_) {
    if (expiry_at_ <= at) return;
    engine_.Cancel(expiry_timer_);
  }
  expiry_at_ = at;
  expiry_timer_ = engine_.At(at, [this] {
    expiry_timer_ = {};
    Kick();
  });
}

void CacheDestager::Flush(uint64_t seq, Completion done) {
  // In RAM, dirty data is durable only at the origin: destage everything
  // written before the FLUSH, then flush the origin.
  flush_waiters_.push_back({seq, std::move(done)});
  Kick();
  CheckFlushes();
}

void CacheDestager::CheckFlushes() {
  while (!flush_waiters_.empty()) {
    FlushWaiter& w = flush_waiters_.front();
    const DirtyAgeIndex::Entries by_seq = table_.dirty_by_seq();
    bool blocked = !by_seq.empty() && by_seq.begin()->first.first <= w.seq;
    bool failed = false;
    if (blocked && table_.failed_blocks() > 0) {
      // Blocked only by blocks whose destage failed: report the error.
      failed = true;
      for (const auto& [key, since] : by_seq) {
        if (key.first > w.seq) break;
        const CacheEntry& e = *table_.Find(key.second);
        if (!e.destage_failed || e.locked) {
          failed = false;
          break;
        }
      }
    }
    if (blocked && !failed) return;
    Completion done = std::move(w.done);
    flush_waiters_.pop_front();
    if (failed) {
      engine_.After(Nanos(0), [done = std::move(done), n = name_]() mutable {
        done(Status::IoError(n + ": flush: writing cached data back to the origin failed"));
      });
      continue;
    }
    Request f{.op = Op::kFlush, .done = std::move(done)};
    origin_.Submit(std::move(f));
  }
}

void CacheDestager::PowerCut() {
  flush_waiters_.clear();
  destaging_ = 0;
  destaging_bytes_ = 0;
  expiry_timer_ = {};
}

}  // namespace storlab
