// CrashOracle: a random workload with a power cut in the middle, and the
// check that nothing durable was lost.
//
// Every write fills each 512-byte sector with a pattern naming the write
// and the sector, so that after the cut each sector tells which write it
// came from. Per sector the oracle keeps the writes in order and which of
// them is durable (acknowledged before a completed FLUSH was submitted, or
// an acknowledged FUA write). After the cut every sector must hold its
// durable version or a later one (acknowledged or still in flight at the
// cut); an older one is a loss. Overlapping writes are never in flight at
// once, so "later" is well defined. Used by the cache and nfs tests.
#ifndef STORLAB_TESTS_SIM_CRASH_ORACLE_H_
#define STORLAB_TESTS_SIM_CRASH_ORACLE_H_

#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "sim/random.h"
#include "tests/sim/test_util.h"

namespace storlab::testing {

class CrashOracle {
 public:
  static constexpr uint64_t kSector = 512;

  struct Options {
    uint64_t span = 8 << 20;  // bytes of the device used, from offset 0
    uint32_t queue_depth = 8;
    uint64_t ops_before_cut = 600;  // completed operations before the cut
    uint64_t max_sectors = 64;      // largest write
    bool honors_flush = true;       // false: the stack may lose flushed data
  };

  CrashOracle(Engine& e, Stack& stack, uint64_t seed, Options o)
      : e_(e),
        stack_(stack),
        n_(stack.root()),
        rng_(seed, "oracle"),
        o_(o),
        history_(o.span / kSector, std::vector<uint64_t>{0}),
        durable_(o.span / kSector, 0),
        busy_(o.span / kSector, false) {}

  // Runs the workload, cuts the power, checks every sector; then lets the
  // stack recover in the background and checks again.
  void Run() {
    for (uint32_t q = 0; q < o_.queue_depth; ++q) Issue();
    VirtualDriver(e_).RunWhile([&] { return completed_ < o_.ops_before_cut; });
    stack_.PowerCut();
    Verify("right after the power cut");
    VirtualDriver(e_).RunUntilIdle();
    Verify("after recovery");
  }

  uint64_t flushes() const { return flushes_; }
  uint64_t writes() const { return writes_; }

 private:
  struct Ack {
    std::vector<uint64_t> sectors;
    std::vector<size_t> positions;  // index of the write in each sector's history
  };

  void Fill(uint8_t* p, uint64_t id, uint64_t sector) {
    Random r(id * 1000003 + sector);
    for (uint64_t i = 0; i < kSector; i += 8) {
      uint64_t v = i == 0 ? id : i == 8 ? sector : r.Next();
      std::memcpy(p + i, &v, 8);
    }
  }

  void Issue() {
    if (stopped()) return;
    uint64_t k = rng_.Uniform(100);
    if (k < 8) return Flush();
    uint64_t len = 1 + rng_.Uniform(o_.max_sectors);
    uint64_t first = rng_.Uniform(o_.span / kSector - len);
    // 4 KiB-aligned most of the time, like a file system.
    if (k < 80) {
      first = first / 8 * 8;
      len = (len + 7) / 8 * 8;
      if (first + len > o_.span / kSector) first = o_.span / kSector - len;
    }
    for (uint64_t s = first; s < first + len; ++s) {
      if (busy_[s]) return Read(first, len);
    }
    if (k < 30) return Read(first, len);
    Write(first, len, k < 36 ? Op::kWriteZeroes : Op::kWrite, k >= 36 && k < 42);
  }

  bool stopped() const { return completed_ >= o_.ops_before_cut; }

  void Read(uint64_t first, uint64_t len) {
    auto buf = std::make_shared<std::vector<uint8_t>>(len * kSector);
    Request r{.op = Op::kRead,
              .offset = first * kSector,
              .length = len * kSector,
              .data = buf->data(),
              .done = [this, buf](Status st) {
                EXPECT_TRUE(st.ok()) << st.ToString();
                ++completed_;
                Issue();
              }};
    n_.Submit(std::move(r));
  }

  void Write(uint64_t first, uint64_t len, Op op, bool fua) {
    const uint64_t id = op == Op::kWriteZeroes ? 0 : ++next_id_;
    auto buf = std::make_shared<std::vector<uint8_t>>(op == Op::kWrite ? len * kSector : 0);
    auto ack = std::make_shared<Ack>();
    for (uint64_t s = first; s < first + len; ++s) {
      if (op == Op::kWrite) Fill(buf->data() + (s - first) * kSector, id, s);
      busy_[s] = true;
      ack->sectors.push_back(s);
      history_[s].push_back(id);  // may land at the cut even if never acknowledged
      ack->positions.push_back(history_[s].size() - 1);
    }
    ++writes_;
    Request r{.op = op,
              .flags = fua ? kFua : 0,
              .offset = first * kSector,
              .length = len * kSector,
              .data = buf->empty() ? nullptr : buf->data(),
              .done = [this, buf, ack, fua](Status st) {
                EXPECT_TRUE(st.ok()) << st.ToString();
                ++completed_;
                ++acks_;
                for (size_t i = 0; i < ack->sectors.size(); ++i) {
                  uint64_t s = ack->sectors[i];
                  busy_[s] = false;
                  acked_.push_back({s, ack->positions[i], acks_});
                  if (fua && o_.honors_flush)
                    durable_[s] = std::max(durable_[s], ack->positions[i]);
                }
                Issue();
              }};
    n_.Submit(std::move(r));
  }

  void Flush() {
    const uint64_t mark = acks_;
    ++flushes_;
    Request r{.op = Op::kFlush, .done = [this, mark](Status st) {
                EXPECT_TRUE(st.ok()) << st.ToString();
                ++completed_;
                if (o_.honors_flush) {
                  for (const auto& a : acked_) {
                    if (a.ack <= mark)
                      durable_[a.sector] = std::max(durable_[a.sector], a.position);
                  }
                }
                Issue();
              }};
    n_.Submit(std::move(r));
  }

  void Verify(const char* when) {
    const uint64_t chunk = 64 * 1024;
    std::vector<uint8_t> buf(chunk);
    uint64_t bad = 0;
    for (uint64_t off = 0; off < o_.span; off += chunk) {
      auto r = testing::Read(e_, n_, off, buf);
      ASSERT_TRUE(r.status.ok()) << r.status.ToString();
      for (uint64_t i = 0; i < chunk; i += kSector) {
        uint64_t s = (off + i) / kSector;
        uint64_t id = 0, sec = 0;
        std::memcpy(&id, buf.data() + i, 8);
        std::memcpy(&sec, buf.data() + i + 8, 8);
        bool zeros = std::all_of(buf.begin() + static_cast<std::ptrdiff_t>(i),
                                 buf.begin() + static_cast<std::ptrdiff_t>(i + kSector),
                                 [](uint8_t b) { return b == 0; });
        if (zeros) id = 0;
        std::vector<uint8_t> want(kSector, 0);
        if (id != 0) Fill(want.data(), id, s);
        bool intact =
            zeros || (sec == s && std::equal(want.begin(), want.end(),
                                             buf.begin() + static_cast<std::ptrdiff_t>(i)));
        const auto& h = history_[s];
        bool allowed = false;
        for (size_t p = durable_[s]; p < h.size(); ++p) allowed = allowed || h[p] == id;
        if (!intact || !allowed) {
          if (++bad <= 5) {
            ADD_FAILURE() << when << ": sector " << s << " holds "
                          << (intact ? "write " + std::to_string(id) : std::string("garbage"))
                          << ", durable is write " << h[durable_[s]] << " (position " << durable_[s]
                          << " of " << h.size() << ")";
          }
        }
      }
    }
    EXPECT_EQ(bad, 0u) << when;
  }

  struct Acked {
    uint64_t sector;
    size_t position;
    uint64_t ack;
  };

  Engine& e_;
  Stack& stack_;
  Node& n_;
  Random rng_;
  Options o_;
  std::vector<std::vector<uint64_t>> history_;  // write ids per sector; [0] = 0 (zeros)
  std::vector<size_t> durable_;                 // position in history_
  std::vector<bool> busy_;
  std::vector<Acked> acked_;
  uint64_t next_id_ = 0;
  uint64_t completed_ = 0;
  uint64_t acks_ = 0;
  uint64_t flushes_ = 0;
  uint64_t writes_ = 0;
};

}  // namespace storlab::testing

#endif  // STORLAB_TESTS_SIM_CRASH_ORACLE_H_
