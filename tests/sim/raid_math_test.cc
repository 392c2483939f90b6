// GF(2^8), parity and layout arithmetic of the raid layer.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "sim/layers/raid/gf256.h"
#include "sim/layers/raid/parity.h"
#include "sim/layers/raid/raid_layout.h"
#include "tests/sim/test_util.h"

namespace storlab {
namespace raid_math_test {

TEST(Gf256Test, MatchesLinuxRaid6Field) {
  // Generator 2 over x^8+x^4+x^3+x^2+1: g^8 = 0x1d, g^255 = 1.
  EXPECT_EQ(gf256::Pow2(0), 1);
  EXPECT_EQ(gf256::Pow2(7), 0x80);
  EXPECT_EQ(gf256::Pow2(8), 0x1d);
  EXPECT_EQ(gf256::Pow2(255), 1);
  EXPECT_EQ(gf256::Mul(0x80, 2), 0x1d);
  for (int a = 1; a < 256; ++a) {
    EXPECT_EQ(gf256::Mul(static_cast<uint8_t>(a), gf256::Inverse(static_cast<uint8_t>(a))), 1) << a;
  }
  EXPECT_EQ(gf256::Mul(gf256::Pow2(-3), gf256::Pow2(3)), 1);
}

TEST(ParityTest, PAndQOfKnownBlocks) {
  // Three one-byte data blocks 1, 1, 1: P = 1, Q = 1 + 2 + 4 = 7.
  uint8_t d[3] = {1, 1, 1}, p = 0, q = 0;
  parity::Compute({&d[0], &d[1], &d[2]}, 1, &p, &q);
  EXPECT_EQ(p, 1);
  EXPECT_EQ(q, 7);
  // D2 = 0x80 contributes g^2 * 0x80 = 0x80 * 4 = 0x3a.
  uint8_t e[3] = {0, 0, 0x80};
  parity::Compute({&e[0], &e[1], &e[2]}, 1, &p, &q);
  EXPECT_EQ(p, 0x80);
  EXPECT_EQ(q, 0x3a);
}

TEST(ParityTest, RecoversAnyOneOrTwoLostBlocks) {
  constexpr int kData = 6;
  constexpr size_t kLen = 1000;
  std::vector<std::vector<uint8_t>> d;
  for (int j = 0; j < kData; ++j) d.push_back(testing::Pattern(kLen, 100 + j));
  std::vector<const uint8_t*> cd;
  for (auto& b : d) cd.push_back(b.data());
  std::vector<uint8_t> p(kLen), q(kLen);
  parity::Compute(cd, kLen, p.data(), q.data());
  auto check = [&](std::vector<int> lost, bool use_p, bool use_q) {
    std::vector<std::vector<uint8_t>> work = d;
    std::vector<uint8_t*> ptr;
    for (auto& b : work) ptr.push_back(b.data());
    for (int x : lost) std::memset(ptr[x], 0xEE, kLen);
    parity::Recover(ptr, lost, use_p ? p.data() : nullptr, use_q ? q.data() : nullptr, kLen);
    for (int x : lost) EXPECT_EQ(work[x], d[x]) << "lost " << x << " p=" << use_p;
  };
  for (int x = 0; x < kData; ++x) {
    check({x}, true, false);
    check({x}, false, true);
    for (int y = x + 1; y < kData; ++y) check({x, y}, true, true);
  }
}

TEST(ParityTest, DeltaUpdateEqualsRecompute) {
  constexpr size_t kLen = 512;
  std::vector<std::vector<uint8_t>> d;
  for (int j = 0; j < 4; ++j) d.push_back(testing::Pattern(kLen, j));
  auto pq = [&] {
    std::vector<const uint8_t*> cd;
    for (auto& b : d) cd.push_back(b.data());
    std::vector<uint8_t> p(kLen), q(kLen);
    parity::Compute(cd, kLen, p.data(), q.data());
    return std::make_pair(p, q);
  };
  auto [p, q] = pq();
  auto fresh = testing::Pattern(kLen, 77);
  std::vector<uint8_t> delta = d[2];
  gf256::XorInto(delta.data(), fresh.data(), kLen);
  parity::ApplyDelta(2, delta.data(), kLen, p.data(), q.data());
  d[2] = fresh;
  auto [p2, q2] = pq();
  EXPECT_EQ(p, p2);
  EXPECT_EQ(q, q2);
}

TEST(RaidLayoutTest, Raid5LeftSymmetric) {
  // md's left-symmetric layout on four disks:
  //   0  1  2  P
  //   4  5  P  3
  //   8  P  6  7
  //   P  9 10 11
  RaidLayout l(RaidLevel::kRaid5, 4, 65536, 4 * 65536, 1);
  EXPECT_EQ(l.capacity(), 12u * 65536);
  const int expect[4][4] = {{0, 1, 2, -1}, {4, 5, -1, 3}, {8, -1, 6, 7}, {-1, 9, 10, 11}};
  for (uint64_t s = 0; s < 4; ++s) {
    for (int m = 0; m < 4; ++m) {
      const int d = l.DataIndex(s, m);
      const int chunk = d < 0 ? -1 : static_cast<int>(s) * 3 + d;
      EXPECT_EQ(chunk, expect[s][m]) << "stripe " << s << " member " << m;
      if (d >= 0) {
        EXPECT_EQ(l.DataMember(s, d), m);
      }
    }
  }
  EXPECT_EQ(l.PMember(0), 3);
  EXPECT_EQ(l.PMember(3), 0);
  EXPECT_EQ(l.QMember(0), -1);
}

TEST(RaidLayoutTest, Raid6LeftSymmetric) {
  RaidLayout l(RaidLevel::kRaid6, 5, 4096, 5 * 4096, 1);
  EXPECT_EQ(l.capacity(), 5u * 3 * 4096);
  EXPECT_EQ(l.PMember(0), 4);
  EXPECT_EQ(l.QMember(0), 0);
  EXPECT_EQ(l.DataMember(0, 0), 1);
  EXPECT_EQ(l.DataMember(0, 2), 3);
  EXPECT_EQ(l.PMember(1), 3);
  EXPECT_EQ(l.QMember(1), 4);
  EXPECT_EQ(l.DataMember(1, 0), 0);
  EXPECT_EQ(l.PMember(4), 0);
  EXPECT_EQ(l.QMember(4), 1);
}

TEST(RaidLayoutTest, Raid10NearCopies) {
  RaidLayout even(RaidLevel::kRaid10, 4, 4096, 10 * 4096, 2);
  EXPECT_EQ(even.capacity(), 20u * 4096);
  EXPECT_EQ(even.Copy(0, 0).member, 0);
  EXPECT_EQ(even.Copy(0, 1).member, 1);
  EXPECT_EQ(even.Copy(1, 0).member, 2);
  EXPECT_EQ(even.Copy(2, 1).offset, 4096u);
  // Five disks, two copies: chunk 2 is on disk 4 (row 0) and disk 0 (row 1).
  RaidLayout odd(RaidLevel::kRaid10, 5, 4096, 10 * 4096, 2);
  EXPECT_EQ(odd.capacity(), 25u * 4096);
  EXPECT_EQ(odd.Copy(2, 0).member, 4);
  EXPECT_EQ(odd.Copy(2, 0).offset, 0u);
  EXPECT_EQ(odd.Copy(2, 1).member, 0);
  EXPECT_EQ(odd.Copy(2, 1).offset, 4096u);
}

}  // namespace raid_math_test
}  // namespace storlab
