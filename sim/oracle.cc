#include "sim/oracle.h"

// Every block of every request is hashed here. On x86, libxxhash's
// dispatcher (xxh_x86dispatch.h: XXH3_64bits becomes XXH3_64bits_dispatch)
// picks the widest vectors the CPU has at run time, where a build for the
// baseline x86-64 gets SSE2: on this machine (AVX-512) 35 -> 17-25 ns a
// 512-byte block and 1 us -> 96 ns a 4 KiB one, against the header-only
// mode inlined here before. The same hash values either way (XXH3 is
// defined by its output, xxhash_spec.md).
#if defined(__x86_64__) || defined(__i386__)
#include <xxh_x86dispatch.h>
#else
#define XXH_INLINE_ALL
#include <xxhash.h>
#endif

#include <algorithm>

#include "sim/stat_table.h"

namespace storlab {
Oracle::Oracle(Engine& engine, Node& child, bool fresh, std::string name)
    : NodeWrapper(engine, std::move(name), child),
      fresh_(fresh),
      block_(child.geometry().logical_block),
      durable_on_ack_(!child.caps().volatile_cache) {
  std::vector<uint8_t> zeros(block_, 0);
  zero_hash_ = HashBlock(zeros.data());
}

uint64_t Oracle::HashBlock(const uint8_t* p) const {
  const uint64_t h = XXH3_64bits(p, block_);
  return h == kUnknown ? 1 : h;  // keep 0 free to mean "unknown"
}

Oracle::Settled Oracle::Compact(const Version& v) {
  return {v.hash, v.ack_no << 3 | (v.seq != 0 ? kWrittenBit : 0) | (v.trim ? kTrimBit : 0) |
                      (v.unknown ? kUnknownBit : 0)};
}

// A settled version back in a list. Its submit mark and file no longer
// matter: every version written after it was acknowledged after it, so it
// can supersede nothing that is left.
Oracle::Version Oracle::Expand(const Settled& s) {
  return {(s.bits & kWrittenBit) != 0 ? kSettledSeq : 0,
          s.hash,
          0,
          s.bits >> 3,
          (s.bits & kTrimBit) != 0,
          (s.bits & kUnknownBit) != 0,
          0};
}

Oracle::Settled Oracle::Baseline() const {
  return fresh_ ? Settled{zero_hash_, 0} : Settled{kUnknown, kUnknownBit};
}

void Oracle::DoSubmit(Request req) {
  switch (req.op) {
    case Op::kRead: {
      if (defer_read_checks_ || req.data == nullptr) break;
      uint64_t mark = acks_, off = req.offset, len = req.length;
      uint8_t* data = req.data;
      req.done = [this, mark, off, len, data, done = std::move(req.done)](Status st) mutable {
        if (st.ok()) {
          CaptureRead(off, len, mark, scratch_);
          CheckCaptured(scratch_, data);
        }
        done(std::move(st));
      };
      break;
    }
    case Op::kWrite:
    case Op::kWriteZeroes:
    case Op::kTrim: {
      uint64_t seq = next_seq_++;
      RecordSubmit(req, seq);
      // What RecordAck needs, without the data or callback.
      Request copy{.op = req.op,
                   .offset = req.offset,
                   .length = req.length,
                   .file_id = req.file_id,
                   .done = {}};
      const bool fua = req.fua() && req.op != Op::kTrim;
      // Below a stack without a volatile cache, a write is durable when it
      // completes (Capabilities::volatile_cache): as if it were FUA.
      const bool durable = (fua || durable_on_ack_) && req.op != Op::kTrim;
      req.done = [this, seq, fua, durable, copy = std::move(copy),
                  done = std::move(req.done)](Status st) mutable {
        if (st.ok()) {
          if (fua) ++durable_writes_;
          RecordAck(copy, seq, durable);
        }
        done(std::move(st));
      };
      break;
    }
    case Op::kFlush: {
      uint64_t mark = acks_;
      uint32_t file = req.file_id;
      req.done = [this, mark, file, done = std::move(req.done)](Status st) mutable {
        if (st.ok()) OnFlushDone(mark, file);
        done(std::move(st));
      };
      break;
    }
  }
  child_.Submit(std::move(req));
}

void Oracle::RecordSubmit(const Request& req, uint64_t seq) {
  const uint64_t first = req.offset / block_, n = req.length / block_;
  Group* g = nullptr;
  Pending* p = nullptr;
  for (uint64_t i = 0; i < n; ++i) {
    const uint64_t b = first + i, gk = b / kGroup;
    const unsigned bit = b % kGroup;
    const auto mask = static_cast<uint8_t>(1u << bit);
    if (g == nullptr || bit == 0) {
      g = blocks_.TryEmplace(gk).first;
      p = PendingOf(g, gk);
    }
    if ((g->present & mask) == 0) {
      g->present = static_cast<uint8_t>(g->present | mask);
      g->settled[bit] = Baseline();
      ++tracked_;
    }
    Version v{seq, zero_hash_, acks_, kInFlight, req.op == Op::kTrim, false, req.file_id};
    if (req.op == Op::kWrite) {
      if (req.data) {
        v.hash = HashBlock(req.data + i * block_);
      } else {
        v.unknown = true;  // a timing-only write: content unknowable
      }
    }
    if ((g->pending & mask) == 0) {
      if (p == nullptr) {
        p = pending_.TryEmplace(gk).first;
        unsettled_list_.push_back(gk);
      }
      p->versions[bit].clear();
      p->versions[bit].push_back(Expand(g->settled[bit]));
      g->pending = static_cast<uint8_t>(g->pending | mask);
      ++unsettled_;
    }
    p->versions[bit].push_back(v);
  }
  // Groups that settle without a FLUSH (FUA, or a stack without a volatile
  // cache) stay listed until the next one: bound the list for a client
  // that never flushes.
  if (unsettled_list_.size() > 2 * pending_.size() + kListSlack) DropSettledFromList();
}

void Oracle::DropSettledFromList() {
  ++visit_;
  size_t out = 0;
  for (const uint64_t gk : unsettled_list_) {
    Pending* p = PendingOf(blocks_.Find(gk), gk);
    if (p == nullptr || p->visit == visit_) continue;
    p->visit = visit_;
    unsettled_list_[out++] = gk;
  }
  unsettled_list_.resize(out);
}

void Oracle::Settle(Group& g, uint64_t gk, unsigned bit, Pending& p) {
  g.settled[bit] = Compact(p.versions[bit][0]);
  p.versions[bit].clear();
  g.pending = static_cast<uint8_t>(g.pending & ~(1u << bit));
  --unsettled_;
  if (g.pending == 0) pending_.Erase(gk);  // `p` goes back to the pool
}

void Oracle::RecordAck(const Request& req, uint64_t seq, bool durable) {
  const uint64_t ack_no = ++acks_;
  const uint64_t first = req.offset / block_, n = req.length / block_;
  Group* g = nullptr;
  Pending* p = nullptr;
  for (uint64_t i = 0; i < n; ++i) {
    const uint64_t b = first + i, gk = b / kGroup;
    const unsigned bit = b % kGroup;
    if (i == 0 || bit == 0) {
      g = blocks_.Find(gk);
      p = PendingOf(g, gk);
    }
    // Settled meanwhile: a check after a power cut made what it found the
    // baseline.
    if (p == nullptr || (g->pending >> bit & 1) == 0) continue;
    auto& versions = p->versions[bit];
    uint64_t submit_mark = 0;
    for (auto& v : versions) {
      if (v.seq == seq) {
        v.ack_no = ack_no;
        submit_mark = v.submit_mark;
      }
    }
    if (!durable) continue;
    // Durable by itself: it supersedes every version acknowledged before it
    // was submitted.
    const auto kept = std::remove_if(versions.begin(), versions.end(), [&](const Version& v) {
      return v.seq != seq && v.ack_no != kInFlight && v.ack_no <= submit_mark;
    });
    if (kept != versions.end()) last_prune_ack_ = ack_no;
    versions.erase(kept, versions.end());
    if (versions.size() == 1) {
      Settle(*g, gk, bit, *p);
      if (g->pending == 0) p = nullptr;
    }
  }
}

// Runs on every FLUSH over every group with versions not yet durable: plain
// loops, one lookup per group, groups left with none dropped from the list
// as met (and those that settled since the last FLUSH).
void Oracle::OnFlushDone(uint64_t mark, uint32_t file) {
  ++flushes_;
  ++visit_;
  size_t out = 0;
  for (size_t k = 0; k < unsettled_list_.size(); ++k) {
    const uint64_t gk = unsettled_list_[k];
    Group& g = *blocks_.Find(gk);
    Pending* p = PendingOf(&g, gk);
    if (p == nullptr || p->visit == visit_) continue;
    const uint8_t blocks = g.pending;
    for (unsigned bit = 0; bit < kGroup; ++bit) {
      if ((blocks >> bit & 1) == 0) continue;
      Versions& versions = p->versions[bit];
      // The flush made durable every version acknowledged by `mark`; among
      // them, one submitted after another was acknowledged supersedes it.
      int64_t max_submit = -1;
      for (const Version& v : versions) {
        if (v.seq != 0 && v.ack_no != kInFlight && v.ack_no <= mark && !v.trim && !v.unknown &&
            (file == 0 || v.file == file)) {
          max_submit = std::max(max_submit, static_cast<int64_t>(v.submit_mark));
        }
      }
      if (max_submit < 0) continue;
      size_t kept = 0;
      for (size_t i = 0; i < versions.size(); ++i) {
        const Version& v = versions[i];
        if (v.ack_no != kInFlight && static_cast<int64_t>(v.ack_no) <= max_submit) continue;
        if (kept != i) versions[kept] = v;
        ++kept;
      }
      if (kept < versions.size()) last_prune_ack_ = acks_;
      versions.resize(kept);
      if (kept == 1) Settle(g, gk, bit, *p);  // may return `p` to the pool
    }
    if (g.pending == 0) continue;
    p->visit = visit_;
    unsettled_list_[out++] = gk;
  }
  unsettled_list_.resize(out);
}

uint64_t Oracle::VersionsHeld() const {
  uint64_t n = 0;
  blocks_.ForEach([&](uint64_t gk, const Group& g) {
    const Pending* p = PendingOf(&g, gk);
    for (unsigned i = 0; i < kGroup; ++i) {
      if ((g.pending >> i & 1) != 0) {
        n += p->versions[i].size();
      } else if ((g.present >> i & 1) != 0) {
        ++n;
      }
    }
  });
  return n;
}

void Oracle::OnPowerCut() {
  // Writes in flight keep their versions: they may or may not have landed.
}

void Oracle::AppendStats(StatList& out) const {
  static constexpr StatField<Oracle> kStats[] = {
      {"blocks_tracked", kCount, [](const Oracle& x) { return StatNumber(x.tracked_); }},
      {"blocks_not_yet_durable", kCount, [](const Oracle& x) { return StatNumber(x.unsettled_); }},
      {"flushes_completed", kCount, [](const Oracle& x) { return StatNumber(x.flushes_); }},
      {"fua_writes_completed", kCount,
       [](const Oracle& x) { return StatNumber(x.durable_writes_); }},
      {"durable_on_completion", kFlag,
       [](const Oracle& x) { return StatNumber(x.durable_on_ack_ ? 1 : 0); }},
      {"read_blocks_checked", kCount, [](const Oracle& x) { return StatNumber(x.reads_checked_); }},
      {"read_blocks_overlapped", kCount,
       [](const Oracle& x) { return StatNumber(x.reads_overlapped_.load()); }},
      {"read_violations", kCount,
       [](const Oracle& x) { return StatNumber(x.read_violation_count()); }},
  };
  AppendStatTable(*this, kStats, out);
}

}  // namespace storlab
