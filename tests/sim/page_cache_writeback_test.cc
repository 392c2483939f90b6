// The page cache's writeback scheduler alone (Writeback, without a
// PageCache): when background and periodic writeback start and stop, what
// they pick and in what order, syncs, errors, waiters and a power cut. The
// child holds every request until the test completes it.
#include "sim/layers/page_cache/page_cache_writeback.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sim/virtual_driver.h"

namespace storlab {
namespace page_cache_writeback_test {

using namespace time_literals;

constexpr uint64_t kPage = PageTable::kPageSize;

// Keeps what it is sent; Complete() finishes the oldest one.
class HeldNode : public Node {
 public:
  explicit HeldNode(Engine& e) : Node(e, "held") { geometry_.capacity = 64u << 20; }
  std::string_view type() const override { return "held"; }
  void Complete(Status st = Status()) {
    Request r = std::move(held.front());
    held.erase(held.begin());
    engine_.After(Nanos(0),
                  [r = std::move(r), st = std::move(st)]() mutable { r.done(std::move(st)); });
  }
  std::vector<Request> held;

 protected:
  void DoSubmit(Request req) override { held.push_back(std::move(req)); }
};

// A 4 MiB host: dirty_background is 102 pages. Writebacks of at most 16
// pages, no periodic tick unless a test sets one.
struct Fixture {
  explicit Fixture(Nanos interval = Nanos(0), Nanos expire = Nanos(0), uint32_t depth = 8)
      : throttle(Host()),
        data(false),
        child(e),
        wb(e,
           WritebackConfig{.max_io_bytes = 16 * kPage,
                           .queue_depth = depth,
                           .dirty_expire = expire,
                           .interval = interval,
                           .capacity = child.geometry().capacity,
                           .keeps_data = false},
           pages, data, throttle, child,
           Writeback::Hooks{.destaged =
                                [this](uint64_t off, uint64_t len) {
                                  log.push_back("destaged " + std::to_string(off / kPage) + "+" +
                                                std::to_string(len / kPage));
                                },
                            .cleaned =
                                [this] {
                                  log.emplace_back("cleaned");
                                  wb.OnDirtyChange();
                                }}) {}
  static HostSpec Host() {
    HostSpec h;
    h.mem_bytes = 4u << 20;
    return h;
  }
  void Dirty(uint64_t first, uint64_t last, uint32_t file) {
    pages.MarkDirty(first, last, file, e.now());
    wb.OnDirtyChange();
  }
  // The held requests as "op file first+count".
  std::vector<std::string> Held() const {
    std::vector<std::string> out;
    for (const Request& r : child.held) {
      out.push_back(std::string(OpName(r.op)) + " " + std::to_string(r.file_id) + " " +
                    std::to_string(r.offset / kPage) + "+" + std::to_string(r.length / kPage));
    }
    return out;
  }
  Engine e;
  DirtyThrottle throttle;
  PageTable pages;
  Overlay data;
  HeldNode child;
  std::vector<std::string> log;
  Writeback wb;
};

TEST(PageCacheWritebackTest, NothingBelowTheBackgroundThreshold) {
  Fixture f;
  f.Dirty(0, 99, 1);
  VirtualDriver(f.e).RunUntilIdle();
  EXPECT_TRUE(f.child.held.empty());
  EXPECT_EQ(f.wb.in_flight(), 0u);
}

TEST(PageCacheWritebackTest, BackgroundTakesTheOldestFileInOffsetOrderUntilBelowThreshold) {
  Fixture f;
  f.Dirty(200, 263, 7);
  VirtualDriver(f.e).RunUntil(1_ms);
  f.Dirty(0, 63, 3);  // 128 dirty pages: over the threshold
  // File 7 was dirtied first; 16-page runs; after two, 96 dirty pages are
  // below the threshold and the flusher stops with 6 slots free.
  EXPECT_EQ(f.Held(), (std::vector<std::string>{"write 7 200+16", "write 7 216+16"}));
  EXPECT_EQ(f.wb.in_flight(), 2u);
  for (const Request& r : f.child.held) EXPECT_TRUE(r.flags & kBackground);
  f.child.Complete();
  f.child.Complete();
  VirtualDriver(f.e).RunUntilIdle();
  EXPECT_EQ(f.log,
            (std::vector<std::string>{"destaged 200+16", "cleaned", "destaged 216+16", "cleaned"}));
  EXPECT_EQ(f.wb.counters().written_back_bytes, 32 * kPage);
  EXPECT_EQ(f.wb.counters().writeback_requests, 2u);
  EXPECT_EQ(f.pages.dirty_pages(), 96u);
}

TEST(PageCacheWritebackTest, PeriodicTickWritesOnlyExpiredFiles) {
  Fixture f(10_ms, 30_ms);
  f.Dirty(0, 3, 1);  // expires at 30 ms
  VirtualDriver(f.e).RunUntil(25_ms);
  f.Dirty(64, 67, 2);  // expires at 55 ms
  VirtualDriver(f.e).RunWhile([&] { return f.child.held.empty(); });
  EXPECT_EQ(f.e.now(), 30_ms);
  EXPECT_EQ(f.Held(), (std::vector<std::string>{"write 1 0+4"}));
  f.child.Complete();
  VirtualDriver(f.e).RunWhile([&] { return f.child.held.empty(); });
  EXPECT_EQ(f.e.now(), 60_ms);
  EXPECT_EQ(f.Held(), (std::vector<std::string>{"write 2 64+4"}));
  f.child.Complete();
  // Nothing dirty: the tick is no longer armed and the engine goes idle.
  VirtualDriver(f.e).RunUntilIdle();
  EXPECT_LE(f.e.now(), 70_ms);
  EXPECT_TRUE(f.child.held.empty());
}

TEST(PageCacheWritebackTest, FsyncWritesTheFileThenFlushesTheChild) {
  Fixture f;
  f.Dirty(0, 7, 1);
  f.Dirty(32, 35, 2);
  bool synced = false;
  f.wb.StartSync(1, false, 0, UINT64_MAX, true, true, [&](Status st) {
    EXPECT_TRUE(st.ok());
    synced = true;
  });
  EXPECT_EQ(f.Held(), (std::vector<std::string>{"write 1 0+8"})) << "file 2 is not synced";
  f.child.Complete();
  VirtualDriver(f.e).RunUntilIdle();
  EXPECT_FALSE(synced) << "the child flush comes first";
  EXPECT_EQ(f.Held(), (std::vector<std::string>{"flush 1 0+0"}));
  f.child.Complete();
  VirtualDriver(f.e).RunUntilIdle();
  EXPECT_TRUE(synced);
  EXPECT_EQ(f.wb.counters().fsyncs, 1u);
  EXPECT_EQ(f.wb.counters().last_fsync_bytes, 8 * kPage);
  EXPECT_EQ(f.wb.syncs(), 0u);
}

TEST(PageCacheWritebackTest, SyncOfNothingCompletesAfterItReturns) {
  Fixture f;
  bool synced = false;
  f.wb.StartSync(1, false, 0, UINT64_MAX, false, false, [&](Status) { synced = true; });
  EXPECT_FALSE(synced);
  VirtualDriver(f.e).RunUntilIdle();
  EXPECT_TRUE(synced);
}

TEST(PageCacheWritebackTest, SyncWaitsForARewriteOfAPageUnderWriteback) {
  Fixture f;
  f.Dirty(0, 3, 1);
  bool first = false, second = false;
  f.wb.StartSync(1, true, 0, 3, false, false, [&](Status) { first = true; });
  f.Dirty(0, 3, 1);  // rewritten while under writeback: dirty again
  f.wb.StartSync(1, true, 0, 3, false, false, [&](Status) { second = true; });
  EXPECT_EQ(f.Held(), (std::vector<std::string>{"write 1 0+4"})) << "busy pages wait";
  f.child.Complete();
  VirtualDriver(f.e).RunUntilIdle();
  EXPECT_TRUE(first);
  EXPECT_FALSE(second) << "it needs the rewritten data on the device";
  EXPECT_EQ(f.Held(), (std::vector<std::string>{"write 1 0+4"}));
  f.child.Complete();
  VirtualDriver(f.e).RunUntilIdle();
  EXPECT_TRUE(second);
}

TEST(PageCacheWritebackTest, AWritebackErrorGoesToItsSyncAndOnceToTheNextFsync) {
  Fixture f;
  f.Dirty(0, 3, 1);
  Status got, next, after;
  f.wb.StartSync(1, true, 0, 3, false, false, [&](Status st) { got = std::move(st); });
  f.child.Complete(Status::IoError("held: bad sector"));
  VirtualDriver(f.e).RunUntilIdle();
  EXPECT_FALSE(got.ok());
  EXPECT_EQ(f.pages.dirty_or_writeback_pages(), 0u) << "the pages are clean (Linux)";
  EXPECT_EQ(f.wb.counters().writeback_errors, 1u);
  f.wb.StartSync(1, false, 0, UINT64_MAX, false, true, [&](Status st) { next = std::move(st); });
  VirtualDriver(f.e).RunUntilIdle();
  EXPECT_FALSE(next.ok()) << "the next fsync of the file reports it";
  f.wb.StartSync(1, false, 0, UINT64_MAX, false, true, [&](Status st) { after = std::move(st); });
  VirtualDriver(f.e).RunUntilIdle();
  EXPECT_TRUE(after.ok()) << "once";
}

TEST(PageCacheWritebackTest, WaitersRunAfterTheCacheHearsOfTheEnd) {
  Fixture f;
  f.Dirty(0, 3, 1);
  f.wb.StartSync(1, true, 0, 3, false, false, [](Status) {});
  bool idle = false;
  f.wb.WaitForWriteback(100, 100, [&](Status) { idle = true; });
  EXPECT_TRUE(idle) << "no writeback there: at once";
  f.wb.WaitForWriteback(2, 2, [&](Status) { f.log.emplace_back("waiter"); });
  EXPECT_TRUE(f.log.empty());
  f.child.Complete();
  VirtualDriver(f.e).RunUntilIdle();
  EXPECT_EQ(f.log, (std::vector<std::string>{"destaged 0+4", "cleaned", "waiter"}));
}

TEST(PageCacheWritebackTest, DroppedPagesReleaseTheSync) {
  Fixture f(Nanos(0), Nanos(0), 1);
  f.Dirty(0, 3, 1);
  f.Dirty(64, 67, 2);
  bool first = false, second = false;
  f.wb.StartSync(1, false, 0, UINT64_MAX, false, false, [&](Status) { first = true; });
  f.wb.StartSync(2, false, 0, UINT64_MAX, false, false, [&](Status) { second = true; });
  EXPECT_EQ(f.Held(), (std::vector<std::string>{"write 1 0+4"})) << "one request in flight";
  f.pages.Drop(64, 67);  // truncated before its turn came
  f.wb.ForgetPages(64, 67);
  VirtualDriver(f.e).RunUntilIdle();
  EXPECT_TRUE(second);
  EXPECT_FALSE(first);
  f.child.Complete();
  VirtualDriver(f.e).RunUntilIdle();
  EXPECT_TRUE(first);
  EXPECT_TRUE(f.child.held.empty());
}

TEST(PageCacheWritebackTest, ResetForgetsWhatIsInFlight) {
  Fixture f;
  f.Dirty(0, 3, 1);
  bool synced = false;
  f.wb.StartSync(1, true, 0, 3, false, false, [&](Status) { synced = true; });
  f.wb.Reset();
  f.pages.Clear();
  EXPECT_EQ(f.wb.in_flight(), 0u);
  EXPECT_EQ(f.wb.syncs(), 0u);
  f.child.Complete();  // the child answers a request from before the cut
  VirtualDriver(f.e).RunUntilIdle();
  EXPECT_FALSE(synced);
  EXPECT_TRUE(f.log.empty());
  EXPECT_EQ(f.wb.counters().written_back_bytes, 0u);
}

}  // namespace page_cache_writeback_test
}  // namespace storlab
