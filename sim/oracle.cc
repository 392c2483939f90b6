#include "sim/oracle.h"

// xxHash's header-only mode: XXH3 inlined here, where every block of every
// request is hashed (512-byte blocks: 78 -> 38 ns each on this machine, the
// same hash values as the library's).
#define XXH_INLINE_ALL
#include <xxhash.h>

#include <algorithm>
#include <cstdio>

#include "sim/all_zero.h"
#include "sim/stat_table.h"

namespace storlab {
namespace {

std::string Hex(uint64_t h) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

constexpr size_t kMaxReadViolations = 1000;

}  // namespace

std::string OracleReport::Summary() const {
  std::string s;
  char line[256];
  std::snprintf(line, sizeof line,
                "oracle: %llu blocks checked: %llu hold the newest write, %llu an older "
                "acceptable one (acknowledged writes that were not durable were lost), "
                "%zu violations, %llu read errors\n",
                static_cast<unsigned long long>(blocks_checked),
                static_cast<unsigned long long>(blocks_newest),
                static_cast<unsigned long long>(blocks_older), violations.size(),
                static_cast<unsigned long long>(read_errors));
  s += line;
  for (size_t i = 0; i < violations.size() && i < 20; ++i) {
    const auto& v = violations[i];
    std::string acc;
    for (uint64_t h : v.acceptable) acc += (acc.empty() ? "" : ", ") + Hex(h);
    s += "  VIOLATION at byte " + std::to_string(v.offset) + ": " + v.what + "; found " +
         Hex(v.found) + ", acceptable {" + acc + "}\n";
  }
  if (violations.size() > 20)
    s += "  ... and " + std::to_string(violations.size() - 20) + " more\n";
  return s;
}

Oracle::Oracle(Engine& engine, Node& child, bool fresh, std::string name)
    : NodeWrapper(engine, std::move(name), child),
      fresh_(fresh),
      block_(child.geometry().logical_block) {
  std::vector<uint8_t> zeros(block_, 0);
  zero_hash_ = HashBlock(zeros.data());
}

uint64_t Oracle::HashBlock(const uint8_t* p) const {
  // The common block size as a constant, so the inlined hash specialises.
  const uint64_t h = block_ == 512 ? XXH3_64bits(p, 512) : XXH3_64bits(p, block_);
  return h == kUnknown ? 1 : h;  // keep 0 free to mean "unknown"
}

Oracle::Block* Oracle::InGroup(Group* g, uint64_t b) {
  const unsigned bit = b % kGroup;
  return g != nullptr && (g->present >> bit & 1) != 0 ? &g->blocks[bit] : nullptr;
}

Oracle::Block* Oracle::FindBlock(uint64_t b) const { return InGroup(blocks_.Find(b / kGroup), b); }

std::pair<Oracle::Block*, bool> Oracle::AddBlock(uint64_t b) {
  Group& g = *blocks_.TryEmplace(b / kGroup).first;
  const unsigned bit = b % kGroup;
  const bool added = (g.present >> bit & 1) == 0;
  if (added) {
    g.present = static_cast<uint8_t>(g.present | 1u << bit);
    ++tracked_;
  }
  return {&g.blocks[bit], added};
}

void Oracle::DoSubmit(Request req) {
  switch (req.op) {
    case Op::kRead: {
      uint64_t mark = acks_, off = req.offset, len = req.length;
      uint8_t* data = req.data;
      req.done = [this, mark, off, len, data, done = std::move(req.done)](Status st) mutable {
        if (st.ok() && data) CheckRead(off, len, data, mark);
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
      bool fua = req.fua() && req.op != Op::kTrim;
      req.done = [this, seq, fua, copy = std::move(copy),
                  done = std::move(req.done)](Status st) mutable {
        if (st.ok()) RecordAck(copy, seq, fua);
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
  for (uint64_t i = 0; i < n; ++i) {
    auto [blk, fresh_block] = AddBlock(first + i);
    auto& versions = blk->versions;
    if (fresh_block) {
      versions.push_back({0, fresh_ ? zero_hash_ : kUnknown, 0, 0, false, !fresh_});
    }
    Version v{seq, zero_hash_, acks_, kInFlight, req.op == Op::kTrim, false, req.file_id};
    if (req.op == Op::kWrite) {
      if (req.data) {
        v.hash = HashBlock(req.data + i * block_);
      } else {
        v.unknown = true;  // a timing-only write: content unknowable
      }
    }
    versions.push_back(v);
    if (!blk->unsettled) {
      blk->unsettled = true;
      ++unsettled_;
    }
    if (!blk->listed) {
      blk->listed = true;
      unsettled_list_.push_back(first + i);
    }
  }
}

void Oracle::Settle(Block& b) {
  if (!b.unsettled) return;
  b.unsettled = false;
  --unsettled_;
}

void Oracle::RecordAck(const Request& req, uint64_t seq, bool fua) {
  const uint64_t ack_no = ++acks_;
  const uint64_t first = req.offset / block_, n = req.length / block_;
  if (fua) ++durable_writes_;
  for (uint64_t i = 0; i < n; ++i) {
    Block& blk = *AddBlock(first + i).first;
    auto& versions = blk.versions;
    uint64_t submit_mark = 0;
    for (auto& v : versions) {
      if (v.seq == seq) {
        v.ack_no = ack_no;
        submit_mark = v.submit_mark;
      }
    }
    if (!fua) continue;
    // Durable by itself: it supersedes every version acknowledged before it
    // was submitted.
    versions.erase(std::remove_if(versions.begin(), versions.end(),
                                  [&](const Version& v) {
                                    return v.seq != seq && v.ack_no != kInFlight &&
                                           v.ack_no <= submit_mark;
                                  }),
                   versions.end());
    if (versions.size() == 1) Settle(blk);
  }
}

// Runs on every FLUSH over every block with versions not yet durable: plain
// loops, one lookup per block, blocks left with one version dropped from the
// list as met (and those that settled since the last FLUSH).
void Oracle::OnFlushDone(uint64_t mark, uint32_t file) {
  ++flushes_;
  size_t out = 0;
  for (size_t k = 0; k < unsettled_list_.size(); ++k) {
    const uint64_t b = unsettled_list_[k];
    Block& blk = *FindBlock(b);
    if (!blk.unsettled) {
      blk.listed = false;
      continue;
    }
    Versions& versions = blk.versions;
    // The flush made durable every version acknowledged by `mark`; among
    // them, one submitted after another was acknowledged supersedes it.
    int64_t max_submit = -1;
    for (const Version& v : versions) {
      if (v.seq != 0 && v.ack_no != kInFlight && v.ack_no <= mark && !v.trim && !v.unknown &&
          (file == 0 || v.file == file)) {
        max_submit = std::max(max_submit, static_cast<int64_t>(v.submit_mark));
      }
    }
    if (max_submit >= 0) {
      size_t kept = 0;
      for (size_t i = 0; i < versions.size(); ++i) {
        const Version& v = versions[i];
        if (v.ack_no != kInFlight && static_cast<int64_t>(v.ack_no) <= max_submit) continue;
        if (kept != i) versions[kept] = v;
        ++kept;
      }
      versions.resize(kept);
      if (kept == 1) {
        Settle(blk);
        blk.listed = false;
        continue;
      }
    }
    unsettled_list_[out++] = b;
  }
  unsettled_list_.resize(out);
}

bool Oracle::Acceptable(const Versions& versions, uint64_t found, uint64_t mark) const {
  // Versions superseded by a write acknowledged by `mark` (and submitted
  // after they were acknowledged) are no longer acceptable.
  int64_t max_submit = -1;
  for (const auto& v : versions) {
    if (v.seq != 0 && v.ack_no != kInFlight && v.ack_no <= mark && !v.trim && !v.unknown) {
      max_submit = std::max(max_submit, static_cast<int64_t>(v.submit_mark));
    }
  }
  for (size_t i = 0; i < versions.size(); ++i) {
    const Version& v = versions[i];
    bool superseded = v.ack_no != kInFlight && static_cast<int64_t>(v.ack_no) <= max_submit;
    if (superseded) {
      // A trim after it keeps it acceptable (trim may leave old data).
      bool kept_by_trim = i + 1 < versions.size() && versions[i + 1].trim;
      if (!kept_by_trim) continue;
    }
    if (v.unknown || v.hash == found) return true;
  }
  return false;
}

void Oracle::CheckRead(uint64_t offset, uint64_t length, const uint8_t* data, uint64_t mark) {
  const uint64_t first = offset / block_, n = length / block_;
  Group* grp = nullptr;  // the group of block first + i, looked up once per group
  for (uint64_t i = 0; i < n; ++i) {
    ++reads_checked_;
    const uint64_t b = first + i;
    if (i == 0 || b % kGroup == 0) grp = blocks_.Find(b / kGroup);
    const Block* blk = InGroup(grp, b);
    const uint8_t* p = data + i * block_;
    if (!blk) {
      // Never written through the oracle: a fresh device reads zeros
      // (checked without hashing); any other may hold anything.
      if (fresh_ && !AllZero(p, block_) && read_violations_.size() < kMaxReadViolations) {
        read_violations_.push_back({(first + i) * block_,
                                    HashBlock(p),
                                    {zero_hash_},
                                    "a block never written read as non-zero"});
      }
      continue;
    }
    const uint64_t found = HashBlock(p);
    if (!Acceptable(blk->versions, found, mark) && read_violations_.size() < kMaxReadViolations) {
      OracleViolation v{(first + i) * block_, found, {}, "a read returned stale or foreign data"};
      for (const auto& ver : blk->versions) v.acceptable.push_back(ver.hash);
      read_violations_.push_back(std::move(v));
    }
  }
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
      {"read_blocks_checked", kCount, [](const Oracle& x) { return StatNumber(x.reads_checked_); }},
      {"read_violations", kCount,
       [](const Oracle& x) { return StatNumber(x.read_violations_.size()); }},
  };
  AppendStatTable(*this, kStats, out);
}

}  // namespace storlab
