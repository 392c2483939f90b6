// The control language's parser: every command, and what it refuses.
#include "sim/serve/control.h"

#include <gtest/gtest.h>

namespace storlab {
namespace control_test {

using K = ControlCommand::Kind;

TEST(ControlParse, EveryCommand) {
  struct Case {
    const char* line;
    K kind;
    const char* node;
  };
  for (const Case& c : {Case{"power-cut", K::kPowerCut, ""}, Case{"flush\n", K::kFlush, ""},
                        Case{"  fail disk.1 ", K::kFail, "disk.1"},
                        Case{"replace md/disk.0\r\n", K::kReplace, "md/disk.0"},
                        Case{"reset-stats", K::kResetStats, ""}, Case{"stats", K::kStats, ""},
                        Case{"help", K::kHelp, ""}, Case{"", K::kNone, ""},
                        Case{"   ", K::kNone, ""}, Case{"# a comment", K::kNone, ""}}) {
    auto r = ParseControl(c.line);
    ASSERT_TRUE(r.ok()) << c.line << ": " << r.status().ToString();
    EXPECT_EQ(r->kind, c.kind) << c.line;
    EXPECT_EQ(r->node, c.node) << c.line;
  }
}

TEST(ControlParse, TheFaults) {
  using namespace time_literals;
  auto r = ParseControl("detach disk.1");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->kind, K::kDetach);
  EXPECT_EQ(r->node, "disk.1");
  EXPECT_STREQ(r->verb(), "detach");
  ASSERT_TRUE((r = ParseControl("attach disk.1")).ok());
  EXPECT_EQ(r->kind, K::kAttach);
  ASSERT_TRUE((r = ParseControl("delay ssd 250ms for 2s")).ok()) << r.status().ToString();
  EXPECT_EQ(r->kind, K::kDelay);
  EXPECT_EQ(r->node, "ssd");
  EXPECT_EQ(r->delay, 250_ms);
  EXPECT_EQ(r->window, 2_s);
  ASSERT_TRUE((r = ParseControl("media-error f 1MiB+4KiB")).ok());
  EXPECT_EQ(r->kind, K::kMediaError);
  EXPECT_EQ(r->offset, 1u << 20);
  EXPECT_EQ(r->length, 4096u);
  ASSERT_TRUE((r = ParseControl("corrupt disk 8KiB")).ok());
  EXPECT_EQ(r->kind, K::kCorrupt);
  EXPECT_EQ(r->offset, 8192u);
  ASSERT_TRUE((r = ParseControl("ignore-fua bridge")).ok());
  EXPECT_EQ(r->kind, K::kIgnoreFua);
  EXPECT_STREQ(r->verb(), "ignore-fua");
  EXPECT_TRUE(r->names_node());
  EXPECT_FALSE(ParseControl("flush")->names_node());
}

TEST(ControlParse, BadFaultsSayWhatIsWrong) {
  struct Case {
    const char* line;
    const char* message;
  };
  for (const Case& c : {
           Case{"detach", "control: detach: expected one node name (detach NAME), got 0 words"},
           Case{"delay d 1ms",
                "control: delay: expected 4 words, got 2 (delay NAME DURATION for "
                "DURATION)"},
           Case{"delay d 1ms in 2s", "control: delay: expected 'for' after the delay, got 'in'"},
           Case{"delay d 1 for 2s", "control: delay: the delay: "},
           Case{"delay d 0ms for 2s", "control: delay: the delay must be more than 0"},
           Case{"delay d 1ms for 0s", "control: delay: the time it lasts must be more than 0"},
           Case{"media-error f 1MiB",
                "control: media-error: expected OFFSET+LENGTH, like "
                "1MiB+4KiB, got '1MiB'"},
           Case{"media-error f 1MiB+0", "control: media-error: the range '1MiB+0' is empty"},
           Case{"media-error f x+1", "control: media-error: the offset: "},
           Case{"corrupt d", "control: corrupt: expected 2 words, got 1 (corrupt NAME OFFSET)"},
           Case{"corrupt d lots", "control: corrupt: the offset: "},
           Case{"ignore-fua", "(ignore-fua NAME)"},
       }) {
    auto r = ParseControl(c.line);
    ASSERT_FALSE(r.ok()) << c.line;
    EXPECT_NE(r.status().message().find(c.message), std::string::npos)
        << c.line << ": " << r.status().message();
  }
}

TEST(ControlParse, BadCommandsSayWhatIsWrong) {
  auto unknown = ParseControl("powercut");
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.status().message().find("unknown command 'powercut'"), std::string::npos);
  EXPECT_NE(unknown.status().message().find("power-cut"), std::string::npos);  // the list
  auto no_name = ParseControl("fail");
  ASSERT_FALSE(no_name.ok());
  EXPECT_NE(no_name.status().message().find("fail NAME"), std::string::npos);
  EXPECT_FALSE(ParseControl("fail a b").ok());
  auto extra = ParseControl("flush now");
  ASSERT_FALSE(extra.ok());
  EXPECT_NE(extra.status().message().find("takes no argument"), std::string::npos);
  EXPECT_FALSE(ParseControl(std::string("fl\0ush", 6)).ok());
  EXPECT_FALSE(ParseControl(std::string(kMaxControlLine + 1, 'x')).ok());
}

TEST(ControlParse, AnOffendingWordIsQuotedShortAndPrintable) {
  auto r = ParseControl("\x1b[31m" + std::string(200, 'A'));
  ASSERT_FALSE(r.ok());
  const std::string& m = r.status().message();
  EXPECT_EQ(m.find('\x1b'), std::string::npos);
  EXPECT_EQ(m.find(std::string(41, 'A')), std::string::npos);
  EXPECT_NE(m.find("..."), std::string::npos);
  // Quoted() (sim/quoted.h), as every message quotes user text.
  EXPECT_NE(m.find("unknown command '\\x1B[31mAAA"), std::string::npos) << m;
  EXPECT_NE(m.find("...' (205 bytes)"), std::string::npos) << m;
}

}  // namespace control_test
}  // namespace storlab
