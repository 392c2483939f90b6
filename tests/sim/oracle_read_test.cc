// The oracle's read checks split across threads (Oracle::CaptureRead on the
// engine thread, Oracle::CheckCaptured on any): the same findings as the
// oracle's own check, judged by the state when the read completed.
#include <gtest/gtest.h>

#include <thread>
#include <vector>

#include "sim/oracle.h"
#include "sim/virtual_driver.h"
#include "tests/sim/oracle_rig.h"
#include "tests/sim/test_util.h"

namespace storlab {
namespace oracle_test {
namespace {

using testing::Pattern;

// Reads `out.size()` bytes at `off` through `o` with its check deferred:
// the mark at submission, the capture at completion, as the service does.
void DeferredRead(Rig& r, uint64_t off, std::vector<uint8_t>& out, OracleReadCheck& check) {
  const uint64_t mark = r.oracle->read_mark();
  bool done = false;
  r.oracle->Submit(Request{.op = Op::kRead,
                           .offset = off,
                           .length = out.size(),
                           .data = out.data(),
                           .done = [&](Status st) {
                             ASSERT_TRUE(st.ok()) << st.ToString();
                             r.oracle->CaptureRead(off, out.size(), mark, check);
                             done = true;
                           }});
  VirtualDriver(r.e).RunWhile([&] { return !done; });
}

TEST(OracleReadTest, DeferredChecksFindWhatTheOraclesOwnFinds) {
  Rig own, deferred;
  deferred.oracle->set_defer_read_checks(true);
  for (Rig* r : {&own, &deferred}) {
    r->disk->stale_reads = true;
    auto a = Pattern(4096, 1);
    ASSERT_TRUE(testing::Write(r->e, *r->oracle, 8192, a).status.ok());
    const auto junk = Pattern(512, 7);
    ASSERT_TRUE(r->disk->media().Write(1024, 512, junk.data()).ok());  // behind its back
  }
  std::vector<uint8_t> out(16384);
  ASSERT_TRUE(testing::Read(own.e, *own.oracle, 0, out).status.ok());
  // Deferred: the oracle checks nothing itself...
  ASSERT_TRUE(testing::Read(deferred.e, *deferred.oracle, 0, out).status.ok());
  EXPECT_EQ(deferred.oracle->read_violation_count(), 0u);
  // ... its owner does, on another thread.
  OracleReadCheck check;
  DeferredRead(deferred, 0, out, check);
  std::thread([&] { deferred.oracle->CheckCaptured(check, out.data()); }).join();

  const auto want = own.oracle->read_violations(), got = deferred.oracle->read_violations();
  ASSERT_EQ(want.size(), 9u) << "the junk block, and the 8 stale ones";
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(got[i].offset, want[i].offset);
    EXPECT_EQ(got[i].found, want[i].found);
    EXPECT_EQ(got[i].acceptable, want[i].acceptable);
    EXPECT_EQ(got[i].what, want[i].what);
  }
}

// What a block may hold is taken when the read completes: a write
// acknowledged afterwards does not make its content acceptable, and a later
// flush does not take an acceptable one away.
TEST(OracleReadTest, TheCaptureIsTheStateAtCompletion) {
  Rig r;
  r.oracle->set_defer_read_checks(true);
  auto a = Pattern(4096, 1), b = Pattern(4096, 2);
  ASSERT_TRUE(testing::Write(r.e, *r.oracle, 0, a).status.ok());
  std::vector<uint8_t> out(4096);
  OracleReadCheck check;
  DeferredRead(r, 0, out, check);
  ASSERT_EQ(out, a);
  ASSERT_TRUE(testing::Write(r.e, *r.oracle, 0, b).status.ok());
  ASSERT_TRUE(testing::Flush(r.e, *r.oracle).status.ok());  // `a` is superseded now

  r.oracle->CheckCaptured(check, a.data());
  EXPECT_EQ(r.oracle->read_violation_count(), 0u);
  r.oracle->CheckCaptured(check, b.data());  // written after the read completed
  EXPECT_EQ(r.oracle->read_violation_count(), 8u);
}

// A block of unknown content (a device not fresh) accepts anything, and a
// block never written through the oracle reads as zeros on a fresh one.
TEST(OracleReadTest, UnknownAcceptsAnythingAndUnwrittenMustBeZeros) {
  Rig r;
  r.oracle->set_defer_read_checks(true);
  std::vector<uint8_t> out(4096);
  OracleReadCheck check;
  DeferredRead(r, 4096, out, check);
  EXPECT_FALSE(check.empty());
  r.oracle->CheckCaptured(check, out.data());
  EXPECT_EQ(r.oracle->read_violation_count(), 0u);
  auto junk = Pattern(4096, 3);
  r.oracle->CheckCaptured(check, junk.data());
  EXPECT_EQ(r.oracle->read_violation_count(), 8u);

  Engine e;
  Stack stack{e, "unknown", 1, DataMode()};
  auto& disk = stack.Adopt(std::make_unique<CachedDisk>(e, 1 << 24));
  auto& oracle = stack.Adopt(std::make_unique<Oracle>(e, disk, /*fresh=*/false));
  oracle.CaptureRead(0, 4096, oracle.read_mark(), check);
  oracle.CheckCaptured(check, junk.data());
  EXPECT_EQ(oracle.read_violation_count(), 0u);
}

}  // namespace
}  // namespace oracle_test
}  // namespace storlab
