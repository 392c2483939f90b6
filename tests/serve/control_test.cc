// The control language's parser: every command, and what it refuses.
#include "sim/serve/control.h"

#include <gtest/gtest.h>

namespace storlab {
namespace {

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

}  // namespace
}  // namespace storlab
