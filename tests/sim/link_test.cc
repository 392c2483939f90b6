// The link model: bandwidth cap, cut-through, queue-depth limit (BOT vs UAS),
// duplex, bridge quirks, presets and profile errors. Virtual time only.
#include "sim/layers/link/link.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/sim/test_util.h"
#include "workloads/node_probe.h"

namespace storlab {
namespace link_test {

using namespace time_literals;
using testing::DoIo;
using testing::MustLoadText;

std::string Stack(const std::string& link_keys, const std::string& ram_keys) {
  return "[node.link]\ntype = \"link\"\nchild = \"dev\"\n" + link_keys +
         "\n[node.dev]\ntype = \"ram\"\ncapacity = \"1GiB\"\n" + ram_keys + "\n";
}

// Records the flags of every request it sees and completes at once.
class FlagRecorder : public Node {
 public:
  explicit FlagRecorder(Engine& e) : Node(e, "rec") {
    geometry_.capacity = 1 << 20;
    caps_.trim = true;
    caps_.volatile_cache = true;
  }
  std::string_view type() const override { return "rec"; }
  std::vector<uint32_t> flags;

 protected:
  void DoSubmit(Request req) override {
    flags.push_back(req.flags);
    CompleteAfter(Nanos(0), std::move(req));
  }
};

TEST(LinkTest, PresetPayloadRates) {
  // 5 Gb/s × 8b/10b × 0.9 = 450 MB/s; 10 Gb/s × 128/132 × 0.907 ≈ 1.1 GB/s;
  // 1 Gb/s × 1448/1538 ≈ 117.7 MB/s.
  EXPECT_DOUBLE_EQ(FindLinkPreset("usb3-gen1-uas")->config.payload_rate(), 450e6);
  EXPECT_NEAR(FindLinkPreset("usb3-gen2-uas")->config.payload_rate(), 1.1e9, 0.01e9);
  EXPECT_NEAR(FindLinkPreset("ethernet-1g")->config.payload_rate(), 117.7e6, 0.1e6);
  EXPECT_NEAR(FindLinkPreset("sata3")->config.payload_rate(), 570e6, 1e6);
  EXPECT_NEAR(FindLinkPreset("pcie3-x4")->config.payload_rate(), 3.54e9, 0.01e9);
  EXPECT_EQ(FindLinkPreset("usb3-gen1-bot")->config.queue_depth, 1u);
}

TEST(LinkTest, CapsAFastChildAtTheLinkRate) {
  Engine e;
  auto s = MustLoadText(Stack("kind = \"usb3-gen1-uas\"", ""), e, 1, DataMode::Kind::kNone);
  ProbeSpec p;
  p.block_size = 1 << 20;
  p.queue_depth = 4;
  p.random = false;
  auto r = RunProbe(e, s.stack->root(), p);
  EXPECT_NEAR(r.bytes_per_s, 450e6, 450e6 * 0.01);
}

TEST(LinkTest, SlowChildCostsOnlyItsOwnTimePlusCommandAndStatus) {
  // A 200 MB/s child behind a 450 MB/s link: the data streams through, so a
  // read costs command + child + status latency, exactly.
  Engine e;
  auto s = MustLoadText(Stack("kind = \"usb3-gen1-uas\"\ncommand_latency = \"40us\"\n"
                              "status_latency = \"20us\"",
                              "bandwidth = \"200MB/s\""),
                        e);
  std::vector<uint8_t> buf(1 << 20);
  auto rd = DoIo(e, s.stack->root(), Op::kRead, 0, buf.size(), buf.data());
  ASSERT_TRUE(rd.status.ok());
  EXPECT_EQ(rd.latency, 40_us + TransferTime(1 << 20, 200e6) + 20_us);
  auto wr = DoIo(e, s.stack->root(), Op::kWrite, 0, buf.size(), buf.data());
  EXPECT_EQ(wr.latency, 40_us + TransferTime(1 << 20, 200e6) + 20_us);
}

TEST(LinkTest, FastChildWaitsForTheWire) {
  Engine e;
  auto s = MustLoadText(Stack("kind = \"usb3-gen1-uas\"\ncommand_latency = \"0us\"\n"
                              "status_latency = \"0us\"",
                              ""),
                        e);
  std::vector<uint8_t> buf(1 << 20);
  auto rd = DoIo(e, s.stack->root(), Op::kRead, 0, buf.size(), buf.data());
  EXPECT_EQ(rd.latency, TransferTime(1 << 20, 450e6));
  auto wr = DoIo(e, s.stack->root(), Op::kWrite, 0, buf.size(), buf.data());
  EXPECT_EQ(wr.latency, TransferTime(1 << 20, 450e6));
}

TEST(LinkTest, BotServesOneCommandAtATimeUasQueues) {
  for (const char* kind : {"usb3-gen1-bot", "usb3-gen1-uas"}) {
    Engine e;
    auto s = MustLoadText(
        Stack(std::string("kind = \"") + kind + "\"", "latency = \"1ms\"\nqueue_depth = 64"), e, 1,
        DataMode::Kind::kNone);
    ProbeSpec p;
    p.queue_depth = 16;
    p.duration = 100_ms;
    auto r = RunProbe(e, s.stack->root(), p);
    const Node& dev = *s.stack->Find("dev");
    if (std::string(kind) == "usb3-gen1-bot") {
      EXPECT_EQ(dev.stats().max_in_flight(), 1u);
      EXPECT_LT(r.iops, 1000.0);  // 1 ms per command, one at a time
      EXPECT_EQ(s.stack->root().caps().queue_depth, 1u);
    } else {
      EXPECT_EQ(dev.stats().max_in_flight(), 16u);
      EXPECT_GT(r.iops, 10000.0);
    }
  }
}

TEST(LinkTest, FullDuplexMovesReadsAndWritesTogetherHalfDuplexDoesNot) {
  for (const char* duplex : {"full", "half"}) {
    Engine e;
    auto s = MustLoadText(Stack(std::string("kind = \"usb3-gen1-uas\"\ncommand_latency = \"0us\"\n"
                                            "status_latency = \"0us\"\nduplex = \"") +
                                    duplex + "\"",
                                ""),
                          e);
    std::vector<uint8_t> a(1 << 20), b(1 << 20);
    Nanos done_r, done_w;
    Request r{Op::kRead, 0, 0, a.size(), a.data(), 0, [&](Status) { done_r = e.now(); }};
    Request w{Op::kWrite, 0, 1 << 20, b.size(), b.data(), 0, [&](Status) { done_w = e.now(); }};
    s.stack->root().Submit(std::move(r));
    s.stack->root().Submit(std::move(w));
    VirtualDriver(e).RunUntilIdle();
    const Nanos one = TransferTime(1 << 20, 450e6);
    if (std::string(duplex) == "full") {
      EXPECT_EQ(Max(done_r, done_w), one);
    } else {
      EXPECT_EQ(Max(done_r, done_w), one * 2);
    }
  }
}

TEST(LinkTest, BrokenFuaDropsTheFlagAndSaysSo) {
  Engine e;
  FlagRecorder rec(e);
  LinkConfig c = FindLinkPreset("usb3-gen1-uas")->config;
  c.broken_fua = true;
  Link link(e, "link", rec, c);
  EXPECT_FALSE(link.caps().honors_fua);
  EXPECT_TRUE(link.caps().honors_flush);
  std::vector<uint8_t> buf(4096);
  ASSERT_TRUE(DoIo(e, link, Op::kWrite, 0, 4096, buf.data(), kFua).status.ok());
  ASSERT_EQ(rec.flags.size(), 1u);
  EXPECT_EQ(rec.flags[0] & kFua, 0u);

  LinkConfig good = FindLinkPreset("usb3-gen1-uas")->config;
  Link honest(e, "honest", rec, good);
  EXPECT_TRUE(honest.caps().honors_fua);
  ASSERT_TRUE(DoIo(e, honest, Op::kWrite, 0, 4096, buf.data(), kFua).status.ok());
  EXPECT_EQ(rec.flags.back() & kFua, kFua);
}

TEST(LinkTest, NoTrimPassthroughRejectsTrim) {
  Engine e;
  auto s = MustLoadText(Stack("kind = \"usb3-gen1-uas\"\ntrim_passthrough = false", ""), e);
  EXPECT_FALSE(s.stack->root().caps().trim);
  EXPECT_EQ(DoIo(e, s.stack->root(), Op::kTrim, 0, 4096, nullptr).status.code(),
            Status::Code::kNotSupported);
  auto t = MustLoadText(Stack("kind = \"usb3-gen1-uas\"", ""), e);
  EXPECT_TRUE(t.stack->root().caps().trim);
  EXPECT_TRUE(DoIo(e, t.stack->root(), Op::kTrim, 0, 4096, nullptr).status.ok());
}

TEST(LinkTest, BandwidthOverridesThePreset) {
  Engine e;
  auto s = MustLoadText(Stack("kind = \"sata3\"\nbandwidth = \"100MB/s\"", ""), e);
  auto* link = dynamic_cast<Link*>(&s.stack->root());
  ASSERT_NE(link, nullptr);
  EXPECT_DOUBLE_EQ(link->payload_rate(), 100e6);
  EXPECT_FALSE(link->config().full_duplex);
}

TEST(LinkTest, ProfileErrorsNameTheKey) {
  Engine e;
  BuildOptions o;
  auto bad = LoadStackText(Stack("kind = \"usb9\"", ""), "t.toml", ".", e, o);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("key 'kind'"), std::string::npos);
  EXPECT_NE(bad.status().message().find("usb3-gen1-uas"), std::string::npos);
  auto missing = LoadStackText(Stack("", ""), "t.toml", ".", e, o);
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("'kind'"), std::string::npos);
  auto typo = LoadStackText(Stack("kind = \"sata3\"\nqueue_dept = 4", ""), "t.toml", ".", e, o);
  ASSERT_FALSE(typo.ok());
  EXPECT_NE(typo.status().message().find("queue_dept"), std::string::npos);
}

TEST(LinkTest, PowerCutDropsQueuedCommandsAndTheLinkStillWorks) {
  Engine e;
  auto s = MustLoadText(Stack("kind = \"usb3-gen1-bot\"", "latency = \"1ms\""), e);
  int completed = 0;
  std::vector<uint8_t> buf(4096);
  for (int i = 0; i < 4; ++i) {
    Request r{Op::kRead, 0, 0, 4096, buf.data(), 0, [&](Status) { ++completed; }};
    s.stack->root().Submit(std::move(r));
  }
  VirtualDriver(e).RunUntil(e.now() + 1500_us);
  EXPECT_EQ(completed, 1);
  s.stack->PowerCut();
  VirtualDriver(e).RunUntilIdle();
  EXPECT_EQ(completed, 1);
  EXPECT_TRUE(DoIo(e, s.stack->root(), Op::kRead, 0, 4096, buf.data()).status.ok());
}

}  // namespace link_test
}  // namespace storlab
