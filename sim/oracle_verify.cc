// Oracle::Verify: after a power cut, every block the oracle knows read
// back through the stack (by default runs of up to 1 MiB, queue depth 16)
// and checked against its acceptable versions (sim/oracle.h); and the report
// it gives.
#include <algorithm>
#include <cstdio>
#include <functional>
#include <memory>

#include "sim/oracle.h"
#include "sim/virtual_driver.h"

namespace storlab {

std::string OracleHashHex(uint64_t hash) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(hash));
  return buf;
}

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
    for (uint64_t h : v.acceptable) acc += (acc.empty() ? "" : ", ") + OracleHashHex(h);
    s += "  VIOLATION at byte " + std::to_string(v.offset) + ": " + v.what + "; found " +
         OracleHashHex(v.found) + ", acceptable {" + acc + "}\n";
  }
  if (violations.size() > 20)
    s += "  ... and " + std::to_string(violations.size() - 20) + " more\n";
  return s;
}

void Oracle::Verify(Callback<void(OracleReport)> done, VerifyOptions opt) {
  struct State {
    std::vector<std::pair<uint64_t, uint64_t>> runs;  // first block, count
    size_t next = 0;
    int in_flight = 0;
    OracleReport report;
    Callback<void(OracleReport)> done;
    // One buffer per read in flight, each of the longest run, reused: not
    // zeroed (the read fills it; a failed one is not hashed), and a
    // power-cut check in a forked copy pays a page fault for each page it
    // writes the first time only.
    std::vector<std::unique_ptr<uint8_t[]>> spare;
  };
  auto st = std::make_shared<State>();
  st->done = std::move(done);
  const bool rebaseline = opt.rebaseline;
  const uint32_t read_flags = opt.read_flags;
  const int depth = std::max(1, opt.queue_depth);
  std::vector<uint64_t> sorted;
  sorted.reserve(tracked_);
  blocks_.ForEach([&](uint64_t gk, const Group& grp) {
    for (uint64_t i = 0; i < kGroup; ++i)
      if ((grp.present >> i & 1) != 0) sorted.push_back(gk * kGroup + i);
  });
  std::sort(sorted.begin(), sorted.end());
  const uint64_t max_run = std::max<uint64_t>(1, opt.max_read_bytes / block_);
  for (uint64_t b : sorted) {
    if (!st->runs.empty() && st->runs.back().first + st->runs.back().second == b &&
        st->runs.back().second < max_run) {
      ++st->runs.back().second;
    } else {
      st->runs.emplace_back(b, 1);
    }
  }
  if (st->runs.empty()) {
    engine_.After(Nanos(0), [st] { st->done(OracleReport()); });
    return;
  }
  // Issues reads while there is room. It holds itself only weakly; the
  // reads in flight hold it, until the last one completes, or until a power
  // cut drops them (a strong self-reference leaked then).
  auto issue = std::make_shared<std::function<void()>>();
  std::weak_ptr<std::function<void()>> self = issue;
  *issue = [this, st, self, rebaseline, read_flags, depth, max_run] {
    const auto issue = self.lock();
    if (!issue) return;
    while (st->in_flight < depth && st->next < st->runs.size()) {
      auto [first, count] = st->runs[st->next++];
      ++st->in_flight;
      std::unique_ptr<uint8_t[]> owned;
      if (st->spare.empty()) {
        owned.reset(new uint8_t[max_run * block_]);
      } else {
        owned = std::move(st->spare.back());
        st->spare.pop_back();
      }
      uint8_t* buf = owned.get();
      auto checked = [this, st, issue, owned = std::move(owned), rebaseline, first = first,
                      count = count](Status s) mutable {
        --st->in_flight;
        const uint8_t* bytes = owned.get();
        for (uint64_t i = 0; i < count; ++i) {
          const uint64_t b = first + i, gk = b / kGroup;
          const unsigned bit = b % kGroup;
          Group& g = *blocks_.Find(gk);
          Pending* p = PendingOf(&g, gk);
          const bool pending = (g.pending >> bit & 1) != 0;
          ++st->report.blocks_checked;
          if (!s.ok()) {
            ++st->report.read_errors;
            continue;
          }
          uint64_t found = HashBlock(bytes + i * block_);
          // Flushes and FUA already dropped what durable writes superseded;
          // every version left may be what the device holds. A settled
          // block has one: the newest acknowledged.
          if (!Accepts(g, p, bit, found, /*mark=*/0)) {
            st->report.violations.push_back({b * block_, found, AcceptableHashes(g, p, bit),
                                             "a durable write was lost or corrupted"});
          } else if (!pending) {
            ++st->report.blocks_newest;
          } else {
            // The newest acknowledged version, if any, is what a perfect
            // device would hold.
            const Version* newest = nullptr;
            for (const auto& ver : p->versions[bit])
              if (ver.ack_no != kInFlight && (!newest || ver.ack_no > newest->ack_no))
                newest = &ver;
            if (newest && (newest->unknown || newest->hash == found)) {
              ++st->report.blocks_newest;
            } else {
              ++st->report.blocks_older;
            }
          }
          // What is on the device now is the durable baseline.
          if (rebaseline) {
            if (pending) {
              p->versions[bit].assign(1, Version{0, found, 0, 0, false, false});
              Settle(g, gk, bit, *p);
            } else {
              g.settled[bit] = Settled{found, 0};
            }
          }
        }
        st->spare.push_back(std::move(owned));
        if (st->in_flight == 0 && st->next == st->runs.size()) {
          auto report = std::move(st->report);
          auto cb = std::move(st->done);
          *issue = nullptr;  // break the cycle
          cb(std::move(report));
          return;
        }
        (*issue)();
      };
      child_.Submit(Request{.op = Op::kRead,
                            .flags = read_flags,
                            .offset = first * block_,
                            .length = count * block_,
                            .data = buf,
                            .done = std::move(checked)});
    }
  };
  (*issue)();
}

OracleReport Oracle::VerifyNow(VerifyOptions options) {
  OracleReport out;
  bool finished = false;
  Verify(
      [&](OracleReport r) {
        out = std::move(r);
        finished = true;
      },
      options);
  VirtualDriver(engine_).RunWhile([&] { return !finished; });
  return out;
}

}  // namespace storlab
