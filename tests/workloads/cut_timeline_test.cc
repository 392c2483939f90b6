// The report's power-cut timeline (workloads/report/cut_timeline.h): what
// each cut did to the client's writes, from the run's trace.
#include "workloads/report/cut_timeline.h"

#include <gtest/gtest.h>

#include <string>

#include "sim/trace_read.h"

namespace storlab::report {
namespace cut_timeline_test {

// A page cache over a disk: write 1 durable before the cut, write 2
// acknowledged and made durable only after it, write 3 in flight.
constexpr char kTrace[] =
    "storlab-trace 1\n"
    "node disk hdd traced -\n"
    "node pc page_cache traced disk\n"
    "0 submit 1 pc write 0 4096 - -\n"
    "1000 complete 1 pc write 0 4096 - ok\n"
    "2000 submit 2 pc write 4096 4096 - -\n"
    "3000 complete 2 pc write 4096 4096 - ok\n"
    "4000 submit 3 disk write 0 8192 bg -\n"
    "5000 complete 3 disk write 0 8192 bg ok\n"
    "5000 destaged - pc write 0 8192 - -\n"
    "6000 durable - disk write 0 4096 - -\n"
    "6500 submit 4 pc write 8192 4096 - -\n"
    "7000 power-cut - - - 0 0 - -\n"
    "8000 durable - disk write 4096 4096 - -\n";

TEST(CutTimelineTest, EachWriteDurableLostOrInFlight) {
  auto t = ParseTrace(kTrace, "t.trace");
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  const std::string html = CutTimeline(*t, {Nanos(7000)});
  EXPECT_NE(html.find("<li>cut 1 at 0.000007 s: 1 acknowledged writes durable, <b>1 "
                      "acknowledged but not durable: lost</b> (4 KiB), 1 in flight</li>"),
            std::string::npos)
      << html;
  auto count = [&](const std::string& what) {
    size_t n = 0;
    for (size_t p = html.find(what); p != std::string::npos; p = html.find(what, p + 1)) ++n;
    return n;
  };
  EXPECT_EQ(count("<rect class=\"durable\""), 1u);
  EXPECT_EQ(count("<rect class=\"lost\""), 1u);
  EXPECT_EQ(count("<rect class=\"wait\""), 3u);  // one per write drawn
  EXPECT_EQ(count("<line class=\"cut\""), 1u);
}

TEST(CutTimelineTest, NoClientWriteNoTimeline) {
  auto t = ParseTrace("storlab-trace 1\nnode disk hdd traced -\n", "t.trace");
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(CutTimeline(*t, {Nanos(7000)}), "");
}

}  // namespace cut_timeline_test
}  // namespace storlab::report
