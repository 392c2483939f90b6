// The real-time service end to end, without a transport: sessions, answers
// on the right threads, exports, bad requests, control commands, shutdown.
// The wall clock is a ManualClock, so simulated delays cost no real time.
#include "sim/serve/service.h"

#include <gtest/gtest.h>

#include <atomic>
#include <functional>
#include <thread>

#include "tests/serve/serve_test_util.h"

namespace storlab {
namespace service_test {

using testing::Io;
using testing::ManualClock;
using testing::ServeStack;
using testing::Start;

TEST(Service, ReadsWhatWasWritten) {
  ManualClock clock(/*auto_jump=*/true);
  ServiceOptions o;
  o.stack = "hdd-7200";
  o.clock = &clock;
  auto svc = Start(o);
  ASSERT_TRUE(svc);
  ASSERT_EQ(svc->exports().size(), 1u);
  EXPECT_EQ(svc->exports()[0].name, "hdd");
  EXPECT_TRUE(svc->exports()[0].rotational);
  EXPECT_TRUE(svc->exports()[0].volatile_cache);
  auto s = svc->OpenSession(0);
  std::vector<uint8_t> w(65536), r(65536);
  for (size_t i = 0; i < w.size(); ++i) w[i] = static_cast<uint8_t>(i * 7);
  ASSERT_TRUE(s->Do(Io(Op::kWrite, 1 << 20, w.size(), w.data(), kFua)).ok());
  ASSERT_TRUE(s->Do(Io(Op::kRead, 1 << 20, r.size(), r.data())).ok());
  EXPECT_EQ(r, w);
  EXPECT_TRUE(s->Do(Io(Op::kFlush, 0, 0, nullptr)).ok());
  auto stats = svc->Stats();
  EXPECT_EQ(stats["service"]["requests"]["completed"], 3);
  EXPECT_EQ(stats["service"]["oracle"][0]["read_violations"], 0);
  // The disk's store: the 16 pages written, from one chunk whose cost per
  // page was measured (the service's stores choose their chunks by it).
  const auto& stores = stats["service"]["stores"];
  ASSERT_EQ(stores.size(), 1u) << stores.dump();
  EXPECT_EQ(stores[0]["node"], "hdd");
  EXPECT_EQ(stores[0]["allocated_bytes"], 65536);
  EXPECT_GE(stores[0]["mapped_bytes"], 65536);
  EXPECT_EQ(stores[0]["small_chunks"].get<double>() + stores[0]["huge_chunks"].get<double>(), 1)
      << stores.dump();
  EXPECT_TRUE(stores[0].contains("small_chunk_ns_per_page") ||
              stores[0].contains("huge_chunk_ns_per_page"))
      << stores.dump();
  // One chunk: too few for the store to make its next ones ahead.
  EXPECT_EQ(stores[0]["prefetched_chunks"], 0) << stores.dump();
  EXPECT_EQ(stores[0]["prefetch_missed"], 0) << stores.dump();
}

TEST(Service, AsyncRepliesRunOnAReplyThreadOrInsideASubmit) {
  // A reply runs on a reply thread, or on a submitting thread inside one
  // of its Submit calls (that thread ran the engine: its own answer or an
  // earlier one that came due, sent once it let go of the engine); never
  // on the submitter outside Submit, and each exactly once.
  ManualClock clock(true);
  ServiceOptions o;
  o.stack = "sata-ssd";
  o.clock = &clock;
  auto svc = Start(o);
  ASSERT_TRUE(svc);
  auto s = svc->OpenSession(0);
  std::mutex m;
  std::condition_variable cv;
  int done = 0, late_on_submitter = 0;
  std::atomic<bool> submitting{false};
  const std::thread::id me = std::this_thread::get_id();
  std::vector<uint8_t> buf(4096 * 32, 1);
  for (int i = 0; i < 32; ++i) {
    submitting = true;
    s->Submit(Io(Op::kWrite, static_cast<uint64_t>(i) * 4096, 4096, buf.data() + i * 4096),
              [&](Status st) {
                EXPECT_TRUE(st.ok());
                std::lock_guard<std::mutex> l(m);
                if (std::this_thread::get_id() == me && !submitting) ++late_on_submitter;
                ++done;
                cv.notify_all();
              });
    submitting = false;
  }
  std::unique_lock<std::mutex> l(m);
  cv.wait(l, [&] { return done == 32; });
  EXPECT_EQ(late_on_submitter, 0);
  EXPECT_EQ(svc->Stats()["service"]["requests"]["completed"], 32);
}

TEST(Service, AnAnswerReadyAtOnceIsSentByTheSubmittingThread) {
  // The ram stack answers without delay: a request run on its submitter's
  // thread (the engine was free) is answered there, once the engine is let
  // go, before Submit returns — no hand-off to a reply thread. One that
  // found the engine busy is answered by a reply thread; either way once.
  // The real clock: the answer is due at the request's arrival, never
  // after the wall clock's now (a manual one may lag the engine).
  ServiceOptions o;
  o.stack = "ram";
  auto svc = Start(o);
  ASSERT_TRUE(svc);
  auto s = svc->OpenSession(0);
  std::vector<uint8_t> buf(4096, 3);
  std::atomic<int> answered{0};
  int here = 0;
  for (int i = 0; i < 100; ++i) {
    bool returned = false;
    std::atomic<bool> on_caller{false};
    const std::thread::id me = std::this_thread::get_id();
    s->Submit(Io(Op::kWrite, static_cast<uint64_t>(i) * 4096, 4096, buf.data()), [&](Status st) {
      EXPECT_TRUE(st.ok());
      if (std::this_thread::get_id() == me) {
        EXPECT_FALSE(returned);  // never after Submit returned, on this thread
        on_caller = true;
      }
      ++answered;
    });
    returned = true;
    if (on_caller) ++here;
    // One at a time: a request posted to a busy engine would otherwise
    // find it busy with the previous one, and so on.
    while (answered < i + 1) std::this_thread::yield();
  }
  EXPECT_GT(here, 0) << svc->Stats()["service"]["driver"].dump();
  EXPECT_EQ(svc->Stats()["service"]["requests"]["completed"], 100);
}

TEST(Service, AChainOfAnswersReadyAtOnceDoesNotRecurse) {
  // Each answer submits the next request (as BlockIo's chunks do), and the
  // ram stack answers each at once: were every answer sent on the thread
  // that made its request, 200000 links would nest 200000 calls deep.
  ServiceOptions o;
  o.stack = "ram";
  auto svc = Start(o);
  ASSERT_TRUE(svc);
  auto s = svc->OpenSession(0);
  std::vector<uint8_t> buf(4096);
  std::atomic<int> left{200000};
  std::mutex m;
  std::condition_variable cv;
  bool done = false;
  std::function<void()> next = [&] {
    s->Submit(Io(Op::kRead, 0, 4096, buf.data()), [&](Status st) {
      EXPECT_TRUE(st.ok());
      if (--left > 0) return next();
      std::lock_guard<std::mutex> l(m);
      done = true;
      cv.notify_all();
    });
  };
  next();
  std::unique_lock<std::mutex> l(m);
  cv.wait(l, [&] { return done; });
  EXPECT_EQ(svc->Stats()["service"]["requests"]["completed"], 200000);
}

TEST(Service, BadRequestsGetAnErrorAndChangeNothing) {
  ManualClock clock(true);
  ServiceOptions o;
  o.stack = "hdd-7200";
  o.clock = &clock;
  auto svc = Start(o);
  ASSERT_TRUE(svc);
  auto s = svc->OpenSession(0);
  std::vector<uint8_t> buf(8192, 9), back(8192, 0);
  ASSERT_TRUE(s->Do(Io(Op::kWrite, 0, 4096, buf.data())).ok());
  const uint64_t size = svc->exports()[0].size;
  EXPECT_EQ(s->Do(Io(Op::kWrite, size, 4096, buf.data())).code(), Status::Code::kOutOfRange);
  EXPECT_EQ(s->Do(Io(Op::kWrite, 100, 512, buf.data())).code(),
            Status::Code::kInvalidArgument);  // not 512-aligned
  // Over the 32 MiB maximum with a payload: refused before the buffer is
  // touched. Without one (write-zeroes, a prefetch) any range is fine.
  EXPECT_EQ(s->Do(Io(Op::kRead, 0, 64u << 20, buf.data())).code(), Status::Code::kInvalidArgument);
  EXPECT_TRUE(s->Do(Io(Op::kWriteZeroes, 1 << 20, 64u << 20, nullptr)).ok());
  EXPECT_TRUE(s->Do(Io(Op::kRead, 1 << 20, 64u << 20, nullptr)).ok());
  EXPECT_EQ(s->Do(Io(Op::kTrim, 0, 4096, nullptr)).code(), Status::Code::kNotSupported);
  ExportRequest z = Io(Op::kWriteZeroes, 0, 4096, nullptr);
  z.fast_zero = true;
  EXPECT_EQ(s->Do(z).code(), Status::Code::kNotSupported);  // an HDD has no fast zero
  ASSERT_TRUE(s->Do(Io(Op::kRead, 0, 4096, back.data())).ok());
  EXPECT_TRUE(std::equal(back.begin(), back.begin() + 4096, buf.begin()));
}

TEST(Service, ExportsSeveralNodesOfOneStack) {
  ManualClock clock(true);
  ServiceOptions o;
  o.stack = ServeStack("mirror.toml");
  o.clock = &clock;
  auto svc = Start(o);
  ASSERT_TRUE(svc);
  ASSERT_EQ(svc->exports().size(), 3u);  // md, disk.0, disk.1
  EXPECT_EQ(svc->FindExport("md"), 0);
  EXPECT_EQ(svc->FindExport("disk.1"), 2);
  EXPECT_EQ(svc->FindExport(""), 0);
  EXPECT_EQ(svc->FindExport("disk"), -1);
  // Written through the mirror, read from each disk directly.
  std::vector<uint8_t> w(4096, 0x5a), r(4096);
  ASSERT_TRUE(svc->OpenSession(0)->Do(Io(Op::kWrite, 8192, 4096, w.data(), kFua)).ok());
  for (int d : {1, 2}) {
    ASSERT_TRUE(svc->OpenSession(d)->Do(Io(Op::kRead, 8192, 4096, r.data())).ok());
    EXPECT_EQ(r, w);
  }
  // One store a disk, each holding the one page.
  const auto stores = svc->Stats()["service"]["stores"];
  ASSERT_EQ(stores.size(), 2u) << stores.dump();
  EXPECT_EQ(stores[0]["node"], "disk.0");
  EXPECT_EQ(stores[1]["node"], "disk.1");
  EXPECT_EQ(stores[1]["allocated_bytes"], 4096);
  // Command-line exports override the file's, and a bad name is refused.
  o.exports = {"disk"};
  auto two = Service::Create(o);
  ASSERT_TRUE(two.ok());
  EXPECT_EQ((*two)->exports().size(), 2u);
  o.exports = {"nope"};
  auto bad = Service::Create(o);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("'nope'"), std::string::npos);
  EXPECT_NE(bad.status().message().find("'disk.0'"), std::string::npos);  // lists nodes
}

TEST(Service, ControlCommandsAnswerOneLineAndBadOnesChangeNothing) {
  ManualClock clock(true);
  ServiceOptions o;
  o.stack = ServeStack("mirror.toml");
  o.clock = &clock;
  auto svc = Start(o);
  ASSERT_TRUE(svc);
  auto s = svc->OpenSession(0);
  std::vector<uint8_t> w(4096, 3);
  ASSERT_TRUE(s->Do(Io(Op::kWrite, 0, 4096, w.data())).ok());
  EXPECT_EQ(svc->Control("flush"), "flush: ok (3 exports flushed)");
  EXPECT_EQ(svc->Control("help").find("commands:"), 0u);
  EXPECT_EQ(svc->Control("bogus").find("error: control: unknown command 'bogus'"), 0u);
  EXPECT_EQ(svc->Control("fail nothere").find("error: fail: no node 'nothere'"), 0u);
  EXPECT_EQ(svc->Control("replace disk.0").find("error: replace: 'disk.0' has not failed"), 0u);
  std::string stats = svc->Control("stats");
  EXPECT_EQ(stats.find('\n'), std::string::npos);
  auto j = nlohmann::json::parse(stats);
  EXPECT_EQ(j["service"]["requests"]["completed"], 1);
  EXPECT_EQ(svc->Control("reset-stats"), "reset-stats: ok");
  EXPECT_EQ(svc->Stats()["service"]["requests"]["completed"], 0);
  // The data is still there.
  std::vector<uint8_t> r(4096);
  ASSERT_TRUE(s->Do(Io(Op::kRead, 0, 4096, r.data())).ok());
  EXPECT_EQ(r, w);
}

TEST(Service, FailAndReplaceAMirrorMember) {
  ManualClock clock(true);
  ServiceOptions o;
  o.stack = ServeStack("mirror.toml");
  o.clock = &clock;
  auto svc = Start(o);
  ASSERT_TRUE(svc);
  auto md = svc->OpenSession(0);
  auto d1 = svc->OpenSession(2);
  std::vector<uint8_t> w(65536, 0x11), r(65536);
  ASSERT_TRUE(md->Do(Io(Op::kWrite, 0, w.size(), w.data())).ok());
  std::string a = svc->Control("fail disk.1");
  EXPECT_EQ(a.find("fail: 'disk.1' has failed"), 0u) << a;
  EXPECT_NE(a.find("'md' above it was told"), std::string::npos) << a;
  EXPECT_EQ(d1->Do(Io(Op::kRead, 0, 4096, r.data())).code(), Status::Code::kIoError);
  // The mirror still reads and writes, degraded.
  std::fill(w.begin(), w.end(), 0x22);
  ASSERT_TRUE(md->Do(Io(Op::kWrite, 0, w.size(), w.data())).ok());
  ASSERT_TRUE(md->Do(Io(Op::kRead, 0, r.size(), r.data())).ok());
  EXPECT_EQ(r, w);
  EXPECT_EQ(svc->Control("fail disk.1").find("error: fail: 'disk.1' has already failed"), 0u);
  a = svc->Control("replace disk.1");
  EXPECT_EQ(a.find("replace: 'disk.1' is back"), 0u) << a;
  // md rebuilds it: once the rebuild is done, the disk holds the new data.
  ASSERT_TRUE(testing::Eventually([&] {
    auto j = svc->Stats();
    for (const auto& n : j["stack"]["nodes"])
      if (n["name"] == "md") return n["model"]["rebuilds_completed"] == 1;
    return false;
  }));
  ASSERT_TRUE(d1->Do(Io(Op::kRead, 0, r.size(), r.data())).ok());
  EXPECT_EQ(r, w);
}

TEST(Service, ShutdownAnswersEveryRequestAndRefusesNewOnes) {
  ManualClock clock(/*auto_jump=*/true);
  ServiceOptions o;
  o.stack = ServeStack("writeback.toml");
  o.clock = &clock;
  o.compensate.mode = CompensationOptions::Mode::kOff;  // the test holds the clock
  auto svc = Start(o);
  ASSERT_TRUE(svc);
  auto s = svc->OpenSession(0);
  std::vector<uint8_t> buf(65536, 1);
  ASSERT_TRUE(s->Do(Io(Op::kWrite, 0, buf.size(), buf.data())).ok());  // dirty in the cache
  clock.set_auto_jump(false);  // from now on nothing completes by itself
  Status answer = Status::Internal("no answer");
  std::thread t([&] { answer = s->Do(Io(Op::kFlush, 0, 0, nullptr)); });
  std::vector<uint8_t> big(1 << 20, 2);
  Status async_answer = Status::Internal("no answer");
  std::atomic<int> async_done{0};
  s->Submit(Io(Op::kWrite, 0, big.size(), big.data(), kFua), [&](Status st) {
    async_answer = st;
    ++async_done;
  });
  ASSERT_TRUE(
      testing::Eventually([&] { return svc->Stats()["service"]["exports"][0]["in_flight"] == 2; }));
  svc->Shutdown(Nanos(1'000'000));  // 1 ms of real time to drain: not enough
  t.join();
  EXPECT_EQ(answer.code(), Status::Code::kAborted);
  EXPECT_EQ(async_done.load(), 1);
  EXPECT_EQ(async_answer.code(), Status::Code::kAborted);
  EXPECT_EQ(s->Do(Io(Op::kRead, 0, 4096, buf.data())).code(), Status::Code::kAborted);
  EXPECT_EQ(svc->Control("flush"), "error: the service is not running");
}

}  // namespace service_test
}  // namespace storlab
