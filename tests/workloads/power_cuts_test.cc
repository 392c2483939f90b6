// Power cuts over a running workload (workloads/power_cuts.h): every catalog
// stack keeps every durable write across many cuts of a fio job, in each
// power_cut mode; a layer that acknowledges FLUSH without destaging is
// caught (the negative control, which must fail); a stack that declares it
// breaks the promise has its losses counted apart; the jobs' report is the
// same with and without cuts.
#include "workloads/power_cuts.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "sim/oracle.h"
#include "sim/profile/catalog.h"
#include "sim/random.h"
#include "sim/stack.h"
#include "sim/store/overlay.h"
#include "sim/store/power_loss.h"
#include "sim/store/ram_store.h"
#include "sim/virtual_driver.h"
#include "tests/sim/block_fill.h"
#include "workloads/fio/fio_run.h"
#include "workloads/fio/job_file.h"
#include "workloads/fio/output.h"
#include "workloads/host/sim_host.h"

namespace storlab {
namespace power_cuts_test {

using namespace time_literals;

// Cuts per catalog stack: 1000 (the floor; half with direct I/O,
// half buffered), 100 under the sanitizers, or STORLAB_POWER_CUTS.
size_t CutsPerStack() {
  if (const char* e = std::getenv("STORLAB_POWER_CUTS")) {
    return static_cast<size_t>(std::strtoull(e, nullptr, 10));
  }
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
  return 100;
#endif
#endif
  return 1000;
}

struct CutRun {
  Status status;
  CutSummary summary;
  std::string json;  // the jobs' report (without the oracle)
  size_t read_violations = 0;
};

// A fio job on `ho`'s stack with `n` cuts over its run (measured by a first,
// timing-only run), as `storlab sim --power-cuts` does it.
CutRun RunWithCuts(HostOptions ho, const std::vector<std::string>& args, size_t n) {
  CutRun out;
  auto sections = fio::ParseCommandLine(args);
  EXPECT_TRUE(sections.ok());
  Nanos span;
  {
    auto host = SimHost::Create(ho);
    if (!host.ok()) {
      out.status = host.status();
      return out;
    }
    fio::FioRun run(**host, *fio::BuildJobs(*sections, ho.seed));
    out.status = run.Prepare();
    const Nanos t0 = (*host)->engine().now();
    if (out.status.ok()) out.status = run.Run({});
    span = run.end_time() - t0;
  }
  if (!out.status.ok()) return out;
  ho.oracle = true;
  auto host = SimHost::Create(ho);
  fio::FioRun run(**host, *fio::BuildJobs(*sections, ho.seed));
  out.status = run.Prepare();
  if (!out.status.ok()) return out;
  const Nanos t0 = (*host)->engine().now();
  PowerCuts cuts((*host)->stack(), *(*host)->oracle(), 2, t0);
  run.SetCuts(SeededCutTimes(ho.seed, n, t0, t0 + span), [&] { return cuts.CutHere(); });
  out.status = run.Run({});
  if (out.status.ok()) out.status = cuts.Finish();
  out.summary = cuts.summary();
  out.read_violations = (*host)->oracle()->read_violations().size();
  auto doc = fio::FioJson(run, {});
  auto& nodes = doc["storlab"]["nodes"];
  for (size_t i = 0; i < nodes.size(); ++i) {
    if (nodes[i]["name"] == "oracle") nodes.erase(i);
  }
  out.json = doc.dump();
  return out;
}

std::vector<std::string> Job(const std::string& direct) {
  return {"--name=w",  "--rw=randrw",       "--bs=4k",
          "--size=1m", "--ioengine=libaio", "--iodepth=4",
          "--fsync=8", "--number_ios=3000", "--direct=" + direct};
}

class CatalogCutsTest : public ::testing::TestWithParam<std::string> {};

TEST_P(CatalogCutsTest, EveryDurableWriteSurvivesEveryCut) {
  HostOptions ho;
  ho.stack = GetParam();
  for (const char* direct : {"1", "0"}) {
    CutRun r = RunWithCuts(ho, Job(direct), CutsPerStack() / 2);
    ASSERT_TRUE(r.status.ok()) << r.status.message();
    const CutSummary& s = r.summary;
    EXPECT_EQ(s.cuts.size(), CutsPerStack() / 2);
    EXPECT_TRUE(s.ok()) << "direct=" << direct << ": " << s.Paragraph();
    EXPECT_EQ(r.read_violations, 0u);
    EXPECT_GT(s.blocks_checked, 0u);
    EXPECT_EQ(s.durable_intact + s.lost_unhonoured, s.blocks_checked);
    // Only a stack that says it breaks FLUSH may lose flushed data.
    if (s.unhonoured_by.empty()) {
      EXPECT_EQ(s.lost_unhonoured, 0u);
    }
  }
}

std::vector<std::string> CatalogNames() {
  std::vector<std::string> out;
  for (const auto& e : Catalog()) out.emplace_back(e.name);
  return out;
}

INSTANTIATE_TEST_SUITE_P(Catalog, CatalogCutsTest, ::testing::ValuesIn(CatalogNames()),
                         [](const auto& info) {
                           std::string n = info.param;
                           for (char& c : n)
                             if (c == '-') c = '_';
                           return n;
                         });

// Devices whose caches land part of what they held at the cut.
std::string DeviceWithMode(const std::string& use, const std::string& mode) {
  return "[node.disk]\nuse = \"" + use + "\"\npower_cut = \"" + mode + "\"\n";
}

TEST(PowerCutModesTest, AnySubsetAndTornLoseLessAndBreakNothing) {
  for (const std::string type : {"hdd-7200", "sata-ssd"}) {
    uint64_t lost_drop = 0;
    for (const std::string mode : {"drop", "any-subset", "torn"}) {
      HostOptions ho;
      ho.stack = "modes.toml";
      ho.stack_text = DeviceWithMode(type, mode);
      // 100 cuts: drop loses about 3600 (hdd-7200) and 1200 (sata-ssd)
      // acknowledged blocks over them, any-subset and torn a half to two
      // thirds of that (200 cuts doubled every figure; each cut forks).
      CutRun r = RunWithCuts(ho, Job("1"), 100);
      ASSERT_TRUE(r.status.ok()) << type << " " << mode << ": " << r.status.message();
      EXPECT_TRUE(r.summary.ok()) << type << " " << mode << ": " << r.summary.Paragraph();
      if (mode == "drop") {
        lost_drop = r.summary.lost_allowed;
        EXPECT_GT(lost_drop, 0u) << type << ": its cache held unflushed writes at some cuts";
      } else {
        EXPECT_LT(r.summary.lost_allowed, lost_drop)
            << type << " " << mode << ": part of the cache reached the media";
      }
    }
  }
}

TEST(PowerCutsTest, TheJobsReportIsTheSameWithAndWithoutCuts) {
  HostOptions ho;
  ho.stack = "hdd-7200";
  auto sections = fio::ParseCommandLine(Job("0"));
  ASSERT_TRUE(sections.ok());
  auto host = SimHost::Create(ho);
  ASSERT_TRUE(host.ok());
  fio::FioRun run(**host, *fio::BuildJobs(*sections, 1));
  ASSERT_TRUE(run.Prepare().ok());
  ASSERT_TRUE(run.Run({}).ok());
  CutRun cut = RunWithCuts(ho, Job("0"), 50);
  ASSERT_TRUE(cut.status.ok());
  EXPECT_EQ(fio::FioJson(run, {}).dump(), cut.json);
}

// --- The negative control: a cache that acknowledges FLUSH and keeps the
// data volatile. Test-only; no stack file can build it.

// Durable at once: a RAM disk with a fixed latency.
class RamLeaf : public Node {
 public:
  RamLeaf(Engine& e, uint64_t capacity) : Node(e, "media") { geometry_.capacity = capacity; }
  std::string_view type() const override { return "test-ram"; }

 protected:
  void DoSubmit(Request req) override {
    engine_.After(20_us, [this, r = std::move(req)]() mutable {
      if (r.op == Op::kRead) (void)store_.Read(r.offset, r.length, r.data);
      if (r.op == Op::kWrite) (void)store_.Write(r.offset, r.length, r.data);
      r.done(Status());
    });
  }

 private:
  RamStore store_;
};

// Holds writes in an Overlay; FLUSH writes them to the child first, unless
// it lies. `declares` says so in its capabilities (honors_flush = false).
class TestCache : public NodeWrapper {
 public:
  TestCache(Engine& e, Node& child, bool lies, bool declares)
      : NodeWrapper(e, "test-cache", child), lies_(lies), held_(true) {
    caps_.volatile_cache = true;
    caps_.honors_flush = caps_.honors_fua = !declares;
  }
  std::string_view type() const override { return "test-cache"; }
  uint64_t volatile_bytes() const override { return held_.held_bytes(); }

 protected:
  void DoSubmit(Request req) override {
    switch (req.op) {
      case Op::kWrite:
        held_.Put(req.offset, req.length, req.data);
        CompleteAfter(5_us, std::move(req), Status());
        return;
      case Op::kRead: {
        uint64_t off = req.offset, len = req.length;
        uint8_t* data = req.data;
        req.done = [this, off, len, data, done = std::move(req.done)](Status st) mutable {
          held_.Patch(off, len, data);
          done(std::move(st));
        };
        child_.Submit(std::move(req));
        return;
      }
      case Op::kFlush:
        if (lies_) {
          CompleteAfter(5_us, std::move(req), Status());
          return;
        }
        Destage(std::move(req));
        return;
      default:
        CompleteAfter(5_us, std::move(req), Status::NotSupported("test cache"));
    }
  }
  void OnPowerCut() override { held_.Clear(); }

 private:
  // Writes everything held to the child, then flushes the child, then
  // completes the FLUSH.
  void Destage(Request flush) {
    struct Batch {
      std::vector<std::vector<uint8_t>> bufs;
      size_t left = 1;  // the writes, and a sentinel
      Request flush;
    };
    auto b = std::make_shared<Batch>();
    b->flush = std::move(flush);
    auto one = [this, b](Status) {
      if (--b->left != 0) return;
      child_.Submit(Request{.op = Op::kFlush, .done = [b](Status st) { b->flush.done(st); }});
    };
    for (uint64_t p : held_.HeldPages()) {
      const uint64_t off = p * Overlay::kPage;
      auto runs = held_.Runs(off, Overlay::kPage);
      b->bufs.emplace_back(Overlay::kPage);
      uint8_t* buf = b->bufs.back().data();
      held_.Patch(off, Overlay::kPage, buf);
      held_.Erase(off, Overlay::kPage);
      for (auto [o, l] : runs) {
        ++b->left;
        child_.Submit(Request{
            .op = Op::kWrite, .offset = o, .length = l, .data = buf + (o - off), .done = one});
      }
    }
    engine_.After(Nanos(0), [one]() mutable { one(Status()); });
  }

  bool lies_;
  Overlay held_;
};

// Random 4 KiB writes at queue depth 4 with a FLUSH every 16 operations,
// and `cuts` cuts at seeded times over 50 ms: at 5 us a write, tens of
// thousands of writes over the 1024 blocks, each block rewritten many times
// and the cache holding unflushed writes between its flushes, where the
// cuts land (200 ms repeated the same four times over).
constexpr Nanos kTestCacheRun = 50_ms;
CutSummary RunTestCache(bool lies, bool declares, size_t cuts) {
  Engine e;
  Stack stack(e, "negative", 1, DataMode());
  auto& media = stack.Adopt(std::make_unique<RamLeaf>(e, 64 << 20));
  auto& cache = stack.Adopt(std::make_unique<TestCache>(e, media, lies, declares));
  auto& oracle = stack.Adopt(std::make_unique<Oracle>(e, cache));
  Random rng(7, "negative");
  uint64_t ops = 0;
  std::vector<std::vector<uint64_t>> bufs(4, std::vector<uint64_t>(4096 / 8));
  std::function<void(size_t)> next = [&](size_t slot) {
    if (e.now() > kTestCacheRun) return;
    ++ops;
    if (ops % 16 == 0) {
      oracle.Submit(Request{.op = Op::kFlush, .done = [&, slot](Status) { next(slot); }});
      return;
    }
    testing::FillBlocks(rng, bufs[slot].data(), bufs[slot].size());
    oracle.Submit(Request{.op = Op::kWrite,
                          .offset = rng.Uniform(1024) * 4096,
                          .length = 4096,
                          .data = reinterpret_cast<uint8_t*>(bufs[slot].data()),
                          .done = [&, slot](Status) { next(slot); }});
  };
  PowerCuts pc(stack, oracle, 2, Nanos(0));
  for (size_t s = 0; s < bufs.size(); ++s) next(s);
  VirtualDriver d(e);
  for (Nanos t : SeededCutTimes(3, cuts, 1_ms, kTestCacheRun)) {
    d.RunUntil(t);
    EXPECT_TRUE(pc.CutHere().ok());
  }
  EXPECT_TRUE(pc.Finish().ok());
  return pc.summary();
}

TEST(NegativeControlTest, ACacheThatAcknowledgesFlushWithoutDestagingIsCaught) {
  CutSummary s = RunTestCache(/*lies=*/true, /*declares=*/false, 50);
  EXPECT_FALSE(s.ok());
  EXPECT_GT(s.violations, 0u) << s.Paragraph();
  EXPECT_EQ(s.lost_unhonoured, 0u);
  // Each cut that lost flushed data names the node that held it volatile.
  for (const CutResult& c : s.cuts) {
    if (c.violations == 0) continue;
    ASSERT_EQ(c.volatile_holders.size(), 1u);
    EXPECT_EQ(c.volatile_holders[0].first, "test-cache");
    EXPECT_GT(c.volatile_holders[0].second, 0u);
  }
}

TEST(NegativeControlTest, TheSameCacheHonestKeepsEverythingFlushed) {
  CutSummary s = RunTestCache(/*lies=*/false, /*declares=*/false, 50);
  EXPECT_TRUE(s.ok()) << s.Paragraph();
  EXPECT_GT(s.lost_allowed, 0u) << "unflushed writes were held at some cuts";
}

TEST(NegativeControlTest, ACacheThatSaysItLiesHasItsLossesCountedApart) {
  CutSummary s = RunTestCache(/*lies=*/true, /*declares=*/true, 50);
  EXPECT_TRUE(s.ok()) << s.Paragraph();
  EXPECT_GT(s.lost_unhonoured, 0u);
  ASSERT_EQ(s.unhonoured_by.size(), 1u);
  EXPECT_EQ(s.unhonoured_by[0], "test-cache");
}

TEST(PowerLossTest, ModesLandNothingWholePagesOrSectors) {
  for (PowerCutMode mode : {PowerCutMode::kDrop, PowerCutMode::kAnySubset, PowerCutMode::kTorn}) {
    Overlay cache(true);
    RamStore media;
    std::vector<uint8_t> ones(64 * 4096, 1);
    cache.Put(0, ones.size(), ones.data());
    Random rng(1, "test");
    auto landed = LosePower(cache, media, mode, 512, rng);
    ASSERT_TRUE(landed.ok());
    EXPECT_TRUE(cache.empty());
    std::vector<uint8_t> got(ones.size());
    ASSERT_TRUE(media.Read(0, got.size(), got.data()).ok());
    uint64_t sectors = 0, split_pages = 0;
    for (size_t p = 0; p < 64; ++p) {
      int in_page = 0;
      for (size_t s = 0; s < 8; ++s) in_page += got[p * 4096 + s * 512] == 1;
      sectors += static_cast<uint64_t>(in_page);
      split_pages += in_page != 0 && in_page != 8;
    }
    EXPECT_EQ(sectors * 512, *landed);
    if (mode == PowerCutMode::kDrop) {
      EXPECT_EQ(sectors, 0u);
    }
    if (mode == PowerCutMode::kAnySubset) {
      EXPECT_EQ(split_pages, 0u);
      EXPECT_GT(sectors, 0u);
      EXPECT_LT(sectors, 64u * 8);
    }
    if (mode == PowerCutMode::kTorn) {
      EXPECT_GT(split_pages, 0u);
    }
  }
  PowerCutMode m;
  EXPECT_TRUE(ParsePowerCutMode("torn", &m));
  EXPECT_FALSE(ParsePowerCutMode("tear", &m));
}

}  // namespace power_cuts_test
}  // namespace storlab
