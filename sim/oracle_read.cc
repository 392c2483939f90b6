// The oracle's check of reads as they happen (sim/oracle.h): which versions
// a block may return given the writes acknowledged before the read was
// submitted (captured on the engine thread at the read's completion), and
// the check of the data against them (on any thread).
#include <algorithm>

#include "sim/all_zero.h"
#include "sim/oracle.h"

namespace storlab {
namespace {

constexpr size_t kMaxReadViolations = 1000;

}  // namespace

// Versions superseded by a write acknowledged by `mark` (and submitted
// after they were acknowledged) are no longer acceptable.
int64_t Oracle::SupersedingMark(const Versions& versions, uint64_t mark) {
  int64_t max_submit = -1;
  for (const auto& v : versions) {
    if (v.seq != 0 && v.ack_no != kInFlight && v.ack_no <= mark && !v.trim && !v.unknown) {
      max_submit = std::max(max_submit, static_cast<int64_t>(v.submit_mark));
    }
  }
  return max_submit;
}

bool Oracle::Survives(const Versions& versions, size_t i, int64_t superseding) {
  const Version& v = versions[i];
  if (v.ack_no == kInFlight || static_cast<int64_t>(v.ack_no) > superseding) return true;
  // A trim after it keeps it acceptable (trim may leave old data).
  return i + 1 < versions.size() && versions[i + 1].trim;
}

bool Oracle::Acceptable(const Versions& versions, uint64_t found, uint64_t mark) const {
  const int64_t superseding = SupersedingMark(versions, mark);
  for (size_t i = 0; i < versions.size(); ++i) {
    const Version& v = versions[i];
    if (Survives(versions, i, superseding) && (v.unknown || v.hash == found)) return true;
  }
  return false;
}

// A large read's groups are cold: over 8 GiB written at random, 77 % of
// a 1 MiB read's capture (256 groups) waited for the index slot and then the
// group of each, one miss after another. Fetched ahead, the slots first and
// then the groups, the misses overlap.
void Oracle::PrefetchGroups(uint64_t first, uint64_t n) const {
  if (n <= kGroup) return;
  const uint64_t begin = first / kGroup, end = (first + n - 1) / kGroup + 1;
  for (uint64_t gk = begin; gk < end; ++gk) blocks_.Prefetch(gk);
  for (uint64_t gk = begin; gk < end; ++gk) {
    const auto* g = reinterpret_cast<const char*>(blocks_.Find(gk));
    if (g == nullptr) continue;
    for (size_t at = 0; at < sizeof(Group); at += 64) __builtin_prefetch(g + at);
    __builtin_prefetch(g + sizeof(Group) - 1);
  }
}

void Oracle::CaptureRead(uint64_t offset, uint64_t length, uint64_t mark, OracleReadCheck& out) {
  using Kind = OracleReadCheck::Kind;
  out.offset_ = offset;
  out.blocks_.clear();
  out.entries_.clear();
  const uint64_t first = offset / block_, n = length / block_;
  out.blocks_.reserve(n);
  reads_checked_ += n;
  const bool overlap_possible = last_prune_ack_ > mark;
  PrefetchGroups(first, n);
  const Group* g = nullptr;  // the group of block first + i, looked up once per group
  const Pending* p = nullptr;
  for (uint64_t i = 0; i < n; ++i) {
    const uint64_t b = first + i;
    const unsigned bit = b % kGroup;
    if (i == 0 || bit == 0) {
      g = blocks_.Find(b / kGroup);
      p = PendingOf(g, b / kGroup);
    }
    OracleReadCheck::Block k{0, 0, 1, Kind::kAny, false};
    if (g == nullptr || (g->present >> bit & 1) == 0) {
      // Never written through the oracle: a fresh device reads zeros
      // (checked without hashing); any other may hold anything.
      if (fresh_) k.kind = Kind::kZeros;
    } else if ((g->pending >> bit & 1) == 0) {
      const Settled& s = g->settled[bit];
      if ((s.bits & kUnknownBit) == 0) k = {s.hash, 0, 0, Kind::kOne, false};
    } else {
      const Versions& versions = p->versions[bit];
      const int64_t superseding = SupersedingMark(versions, mark);
      k = {0, static_cast<uint32_t>(out.entries_.size()), 0, Kind::kList, false};
      for (size_t j = 0; j < versions.size(); ++j) {
        const bool accept = Survives(versions, j, superseding);
        if (accept && versions[j].unknown) k.kind = Kind::kAny;
        out.entries_.push_back({versions[j].hash, accept});
      }
      k.count = static_cast<uint32_t>(versions.size());
      if (k.kind == Kind::kAny) {
        out.entries_.resize(k.first);
        k = {0, 0, 1, Kind::kAny, false};
      }
    }
    // A write acknowledged after this read was submitted overlapped it;
    // made durable (versions were pruned since), it may have pruned the
    // version the read could still return: not checkable.
    if (k.kind == Kind::kOne || k.kind == Kind::kList) {
      k.overlapped = overlap_possible && WrittenSince(*g, p, bit, mark);
    }
    // Blocks of any content and blocks that must be zeros join the run
    // before them: a never-written stretch is one entry, checked at once.
    const bool runs = k.kind == Kind::kAny || k.kind == Kind::kZeros;
    if (runs && !out.blocks_.empty() && out.blocks_.back().kind == k.kind) {
      ++out.blocks_.back().count;
    } else {
      out.blocks_.push_back(k);
    }
  }
}

void Oracle::CheckCaptured(const OracleReadCheck& check, const uint8_t* data) {
  using Kind = OracleReadCheck::Kind;
  uint64_t b = check.offset_ / block_;  // the block that `k` starts at
  for (const OracleReadCheck::Block& k : check.blocks_) {
    const uint8_t* d = data + (b - check.offset_ / block_) * block_;
    switch (k.kind) {
      case Kind::kAny:
        b += k.count;
        continue;
      case Kind::kZeros:
        // The whole run at once; block by block only to name a culprit.
        if (!AllZero(d, uint64_t{k.count} * block_)) {
          for (uint32_t j = 0; j < k.count; ++j) {
            const uint8_t* x = d + uint64_t{j} * block_;
            if (AllZero(x, block_)) continue;
            AddReadViolation({(b + j) * block_,
                              HashBlock(x),
                              {zero_hash_},
                              "a block never written read as non-zero"});
          }
        }
        b += k.count;
        continue;
      case Kind::kOne:
      case Kind::kList:
        break;
    }
    const uint64_t found = HashBlock(d);
    const auto* e = check.entries_.data() + k.first;
    const bool ok = k.kind == Kind::kOne
                        ? found == k.hash
                        : std::any_of(e, e + k.count, [&](const OracleReadCheck::Entry& x) {
                            return x.accept && x.hash == found;
                          });
    if (!ok && k.overlapped) {
      reads_overlapped_.fetch_add(1, std::memory_order_relaxed);
    } else if (!ok) {
      std::vector<uint64_t> acceptable;
      if (k.kind == Kind::kOne) {
        acceptable.push_back(k.hash);
      } else {
        for (uint32_t j = 0; j < k.count; ++j) acceptable.push_back(e[j].hash);
      }
      AddReadViolation(
          {b * block_, found, std::move(acceptable), "a read returned stale or foreign data"});
    }
    ++b;
  }
}

void Oracle::AddReadViolation(OracleViolation v) {
  std::lock_guard<std::mutex> l(violations_mu_);
  if (read_violations_.size() < kMaxReadViolations) read_violations_.push_back(std::move(v));
}

std::vector<OracleViolation> Oracle::read_violations() const {
  std::lock_guard<std::mutex> l(violations_mu_);
  return read_violations_;
}

size_t Oracle::read_violation_count() const {
  std::lock_guard<std::mutex> l(violations_mu_);
  return read_violations_.size();
}

bool Oracle::Accepts(const Group& g, const Pending* p, unsigned bit, uint64_t found,
                     uint64_t mark) const {
  if ((g.pending >> bit & 1) != 0) return Acceptable(p->versions[bit], found, mark);
  const Settled& s = g.settled[bit];
  return (s.bits & kUnknownBit) != 0 || s.hash == found;
}

std::vector<uint64_t> Oracle::AcceptableHashes(const Group& g, const Pending* p, unsigned bit) {
  if ((g.pending >> bit & 1) == 0) return {g.settled[bit].hash};
  std::vector<uint64_t> out;
  for (const Version& v : p->versions[bit]) out.push_back(v.hash);
  return out;
}

bool Oracle::WrittenSince(const Group& g, const Pending* p, unsigned bit, uint64_t mark) {
  if ((g.pending >> bit & 1) == 0) return (g.settled[bit].bits >> 3) > mark;
  return std::any_of(p->versions[bit].begin(), p->versions[bit].end(),
                     [&](const Version& v) { return v.ack_no != kInFlight && v.ack_no > mark; });
}

}  // namespace storlab
