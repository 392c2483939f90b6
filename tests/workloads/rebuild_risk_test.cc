// The rebuild-risk Monte Carlo (workloads/scenarios/rebuild_risk.h) against
// closed forms where they exist: RAID5's loss is one more failure among the
// survivors within the pass, its unreadable blocks a Poisson count over all
// bits the survivors hold; RAID6 loses nothing to UREs with one drive out.
#include "workloads/scenarios/rebuild_risk.h"

#include <gtest/gtest.h>

#include <cmath>

namespace storlab::scenarios {
namespace rebuild_risk_test {

constexpr double kHoursPerYear = 365.0 * 24;

// |estimate - p| within 5 standard errors of a binomial proportion.
void ExpectNear(double estimate, double p, uint64_t trials) {
  const double se = std::sqrt(p * (1 - p) / static_cast<double>(trials));
  EXPECT_NEAR(estimate, p, 5 * se + 1e-12) << "p = " << p;
}

TEST(RebuildRiskTest, ProfileIntegratesItsSlices) {
  const RebuildProfile p({1.0, 3.0});  // first half in 1 h, second in 3 h
  EXPECT_DOUBLE_EQ(p.hours(), 4.0);
  EXPECT_DOUBLE_EQ(p.FractionAt(0), 0.0);
  EXPECT_DOUBLE_EQ(p.FractionAt(0.5), 0.25);
  EXPECT_DOUBLE_EQ(p.FractionAt(1.0), 0.5);
  EXPECT_DOUBLE_EQ(p.FractionAt(2.5), 0.75);
  EXPECT_DOUBLE_EQ(p.FractionAt(4.0), 1.0);
  EXPECT_DOUBLE_EQ(p.FractionAt(99), 1.0);
}

TEST(RebuildRiskTest, Raid5LossIsASecondFailureWithinThePass) {
  RiskInputs in;
  in.members = 6;
  in.parity = 1;
  in.member_bytes = 3e12;
  in.afr = 0.5;
  in.trials = 200000;
  const RebuildProfile profile({20.0, 30.0});  // a 50 h pass
  const RiskResult r = SimulateRebuildRisk(in, profile);
  const double p = 1 - std::exp(-5 * in.afr / kHoursPerYear * 50);
  ExpectNear(r.p_lost(), p, in.trials);
  EXPECT_EQ(r.unreadable, 0u);  // no UREs asked for
}

TEST(RebuildRiskTest, Raid5UresArePoissonInTheBitsRead) {
  RiskInputs in;
  in.members = 6;
  in.parity = 1;
  in.member_bytes = 3e12;
  in.ure_per_bit = 1e-14;  // no drive failures: afr 0
  in.trials = 200000;
  const RiskResult r = SimulateRebuildRisk(in, RebuildProfile({10.0}));
  const double mean = 5 * 3e12 * 8 * 1e-14;  // 1.2 expected per rebuild
  EXPECT_EQ(r.arrays_lost, 0u);
  ExpectNear(r.p_unreadable(), 1 - std::exp(-mean), in.trials);
  EXPECT_NEAR(r.mean_unreadable(), mean, 5 * std::sqrt(mean / in.trials));
}

TEST(RebuildRiskTest, Raid6KeepsEveryBlockWithOneDriveOut) {
  RiskInputs in;
  in.members = 6;
  in.parity = 2;
  in.member_bytes = 3e12;
  in.ure_per_bit = 1e-14;
  in.trials = 100000;
  const RiskResult r = SimulateRebuildRisk(in, RebuildProfile({10.0}));
  EXPECT_EQ(r.arrays_lost, 0u);
  EXPECT_EQ(r.with_unreadable, 0u);
}

TEST(RebuildRiskTest, Raid6NeedsTwoMoreFailuresAndIsFarSafer) {
  RiskInputs in;
  in.members = 6;
  in.member_bytes = 3e12;
  in.afr = 2.0;  // absurdly high, so RAID6 losses show in few trials
  in.ure_per_bit = 1e-14;
  in.trials = 200000;
  const RebuildProfile profile({100.0});
  in.parity = 1;
  const RiskResult r5 = SimulateRebuildRisk(in, profile);
  in.parity = 2;
  const RiskResult r6 = SimulateRebuildRisk(in, profile);
  EXPECT_GT(r6.arrays_lost, 0u);
  EXPECT_LT(r6.p_lost() * 10, r5.p_lost());
  // At least: two of the five survivors fail within the first pass.
  const double q = 1 - std::exp(-in.afr / kHoursPerYear * 100);
  const double two = 1 - std::pow(1 - q, 5) - 5 * q * std::pow(1 - q, 4);
  EXPECT_GT(r6.p_lost(), two * 0.9);
  // With two out, its UREs are unreadable blocks too.
  EXPECT_GT(r6.with_unreadable, 0u);
  EXPECT_LT(r6.with_unreadable, r5.with_unreadable);
}

TEST(RebuildRiskTest, SameSeedSameResultOtherSeedOther) {
  RiskInputs in;
  in.member_bytes = 3e12;
  in.afr = 0.4;
  in.ure_per_bit = 1e-14;
  in.trials = 20000;
  const RebuildProfile profile({30.0});
  const RiskResult a = SimulateRebuildRisk(in, profile);
  const RiskResult b = SimulateRebuildRisk(in, profile);
  EXPECT_EQ(a.arrays_lost, b.arrays_lost);
  EXPECT_EQ(a.unreadable, b.unreadable);
  in.seed = 2;
  const RiskResult c = SimulateRebuildRisk(in, profile);
  EXPECT_NE(a.unreadable, c.unreadable);
}

}  // namespace rebuild_risk_test
}  // namespace storlab::scenarios
