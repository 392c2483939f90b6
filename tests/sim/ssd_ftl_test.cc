// SsdScaledFtl: mapping, trim, greedy GC, and the write amplification of
// uniform random writes against the analytic greedy model (Desnoyers 2012:
// WA = (1 + s) / (2s) for spare factor s), at full scale and sampled.
#include "sim/devices/ssd_ftl.h"

#include <gtest/gtest.h>

#include <string>

#include "sim/random.h"
#include "sim/state_coding.h"

namespace storlab {
namespace ssd_ftl_test {

constexpr uint64_t kMiB = 1 << 20;

// Fills the drive sequentially, then writes `drive_writes` × its size in
// uniformly random 4 KiB pages; returns the write amplification of the
// random phase.
double RandomWriteWa(SsdScaledFtl& f, double drive_writes, uint64_t seed = 7) {
  const uint64_t pages = f.user_bytes() / 4096;
  for (uint64_t p = 0; p < pages; ++p) f.Write(p * 4096, 4096);
  const uint64_t copies = f.gc_copies();
  Random r(seed);
  const auto n = static_cast<uint64_t>(static_cast<double>(pages) * drive_writes);
  for (uint64_t i = 0; i < n; ++i) f.Write(r.Uniform(pages) * 4096, 4096);
  return 1.0 + static_cast<double>((f.gc_copies() - copies) * f.unit_bytes()) /
                   static_cast<double>(n * 4096);
}

TEST(SsdFtl, UnitsScaleWithTheDrive) {
  EXPECT_EQ(SsdScaledFtl(1ull << 30, 1ull << 31).unit_bytes(), 4096u);
  EXPECT_EQ(SsdScaledFtl(1'000'000'000'000, 1'099'511'627'776).unit_bytes(), 4u << 20);
  EXPECT_EQ(SsdScaledFtl(64 * kMiB, 80 * kMiB, 1 << 12).unit_bytes(), 16384u);
}

TEST(SsdFtl, WritesMapTrimsUnmap) {
  SsdScaledFtl f(64 * kMiB, 80 * kMiB);
  EXPECT_EQ(f.valid_bytes(), 0u);
  f.Write(0, 1 * kMiB);
  f.Write(512 * 1024, 1 * kMiB);  // half overlaps
  EXPECT_EQ(f.valid_bytes(), 1536u * 1024);
  f.Trim(0, 256 * 1024);
  EXPECT_EQ(f.valid_bytes(), 1280u * 1024);
  f.Trim(0, 64 * kMiB);
  EXPECT_EQ(f.valid_bytes(), 0u);
  EXPECT_EQ(f.free_user_bytes(), 64 * kMiB);
}

TEST(SsdFtl, FillMapsTheStartOfTheDriveWithoutWork) {
  SsdScaledFtl f(64 * kMiB, 80 * kMiB);
  f.Fill(0.75);
  EXPECT_EQ(f.valid_bytes(), 48 * kMiB);
  EXPECT_EQ(f.gc_copies(), 0u);
  EXPECT_EQ(f.gc_erases(), 0u);
}

TEST(SsdFtl, NoGarbageCollectionWhileFreeBlocksLast) {
  SsdScaledFtl f(64 * kMiB, 80 * kMiB);
  // Writing the drive once and then half of it again fits in the free pool.
  SsdScaledFtl::Work w = f.Write(0, 64 * kMiB);
  w += f.Write(0, 8 * kMiB);
  EXPECT_EQ(w.copied_bytes, 0u);
  EXPECT_EQ(w.erased_bytes, 0u);
  EXPECT_GT(f.free_block_fraction(), 0.05);
}

TEST(SsdFtl, SequentialOverwritesCostNoCopies) {
  SsdScaledFtl f(64 * kMiB, 80 * kMiB);
  SsdScaledFtl::Work w;
  for (int pass = 0; pass < 5; ++pass) w += f.Write(0, 64 * kMiB);
  EXPECT_EQ(w.copied_bytes, 0u);  // whole blocks go invalid together
  EXPECT_GT(w.erased_bytes, 0u);  // but they are erased for reuse
}

TEST(SsdFtl, RandomWriteAmplificationMatchesTheGreedyModel) {
  // (The model is the large-block limit; it holds to a few percent for the
  // spare factors drives have.)
  for (double s : {0.07, 0.12, 0.25}) {
    SsdScaledFtl f(128 * kMiB, static_cast<uint64_t>(128 * kMiB * (1 + s)));
    const double model = (1 + s) / (2 * s);
    EXPECT_NEAR(RandomWriteWa(f, 4), model, 0.06 * model) << "spare factor " << s;
  }
}

TEST(SsdFtl, SampledFtlHasTheSameWriteAmplification) {
  SsdScaledFtl exact(256 * kMiB, 256 * kMiB * 112 / 100);
  SsdScaledFtl sampled(256 * kMiB, 256 * kMiB * 112 / 100, 1 << 14);  // k = 4
  ASSERT_EQ(sampled.unit_bytes(), 16384u);
  const double a = RandomWriteWa(exact, 3), b = RandomWriteWa(sampled, 3);
  EXPECT_NEAR(b, a, 0.05 * a);
}

TEST(SsdFtl, TrimLowersTheWriteAmplification) {
  const uint64_t user = 128 * kMiB, native = user * 112 / 100;
  SsdScaledFtl full(user, native), trimmed(user, native);
  const double base = RandomWriteWa(full, 2);
  // Same workload, but first trim half the drive and write only the rest.
  const uint64_t pages = user / 4096;
  for (uint64_t p = 0; p < pages; ++p) trimmed.Write(p * 4096, 4096);
  trimmed.Trim(user / 2, user / 2);
  const uint64_t copies = trimmed.gc_copies();
  Random r(7);
  for (uint64_t i = 0; i < pages * 2; ++i) trimmed.Write(r.Uniform(pages / 2) * 4096, 4096);
  const double wa = 1.0 + static_cast<double>((trimmed.gc_copies() - copies) * 4096) /
                              static_cast<double>(pages * 2 * 4096);
  EXPECT_LT(wa, 0.5 * base);
}

TEST(SsdFtl, IdleReclaimRefillsTheFreePoolAndStops) {
  SsdScaledFtl f(128 * kMiB, 128 * kMiB * 125 / 100);
  RandomWriteWa(f, 2);
  const double before = f.free_block_fraction();
  SsdScaledFtl::Work w;
  int steps = 0;
  while (f.Reclaim(0.5, &w)) ++steps;
  EXPECT_GT(steps, 0);
  EXPECT_GT(w.erased_bytes, 0u);
  // Half of the 20% spare (less the reserve) is free now, and no more.
  EXPECT_GT(f.free_block_fraction(), before + 0.05);
  EXPECT_LT(f.free_block_fraction(), 0.15);
  EXPECT_FALSE(f.WouldReclaim(0.5));
  EXPECT_TRUE(f.WouldReclaim(0.9));
}

// A 1 TiB drive exported as 64 MiB: 2^28 units of flash, of which the map
// holds only the blocks written (it zeroed a GiB of reverse map for each
// such drive at every start of `nbdkit storlab`).
TEST(SsdFtl, MemoryFollowsTheBlocksInUse) {
  SsdScaledFtl f(64 * kMiB, 1ull << 40);
  EXPECT_EQ(f.unit_bytes(), 4096u);
  EXPECT_EQ(f.blocks(), (1u << 28) / 64);
  EXPECT_EQ(f.free_blocks(), f.blocks());
  EXPECT_EQ(f.blocks_in_use(), 0u);
  f.Write(0, 1 * kMiB);  // 256 units: 4 blocks of 64
  EXPECT_EQ(f.blocks_in_use(), 4u);
  EXPECT_EQ(f.free_blocks(), f.blocks() - 4);
  f.Write(0, 64 * kMiB);
  EXPECT_EQ(f.blocks_in_use(), 4u + 256u);
  EXPECT_EQ(f.valid_bytes(), 64 * kMiB);
  EXPECT_EQ(f.gc_copies(), 0u);
}

// The free pool's order: every block once before an erased one is reused,
// then the erased ones oldest first — whether a block's arrays exist yet or
// not. Two drives written alike stay alike; a drive restored from the state
// of one goes on exactly as it does, and saves the same bytes.
std::string Saved(const SsdScaledFtl& f) {
  StateWriter w;
  f.SaveState(w);
  return w.Take();
}

TEST(SsdFtl, ARestoredDriveGoesOnAsTheOriginal) {
  for (const double drive_writes : {0.1, 0.5, 3.0}) {  // fresh blocks left, few, none
    SsdScaledFtl a(8 * kMiB, 10 * kMiB);
    Random r(11);
    const uint64_t pages = a.user_bytes() / 4096;
    const auto n = static_cast<uint64_t>(static_cast<double>(pages) * drive_writes);
    for (uint64_t i = 0; i < n; ++i) a.Write(r.Uniform(pages) * 4096, 4096);
    a.Trim(0, 1 * kMiB);
    const std::string state = Saved(a);
    SsdScaledFtl b(8 * kMiB, 10 * kMiB);
    StateReader in(state, "test");
    ASSERT_TRUE(b.RestoreState(in).ok()) << drive_writes;
    EXPECT_EQ(b.blocks_in_use(), a.blocks_in_use()) << drive_writes;
    EXPECT_EQ(Saved(b), state) << drive_writes;
    for (uint64_t i = 0; i < 2 * pages; ++i) {
      const uint64_t at = r.Uniform(pages) * 4096;
      a.Write(at, 4096);
      b.Write(at, 4096);
    }
    EXPECT_GT(a.gc_copies(), 0u);
    EXPECT_EQ(b.gc_copies(), a.gc_copies()) << drive_writes;
    EXPECT_EQ(b.gc_erases(), a.gc_erases()) << drive_writes;
    EXPECT_EQ(Saved(b), Saved(a)) << drive_writes;
  }
}

TEST(SsdFtl, AStateOfAnotherGeometryIsRefused) {
  SsdScaledFtl a(8 * kMiB, 10 * kMiB);
  a.Write(0, 1 * kMiB);
  const std::string state = Saved(a);
  SsdScaledFtl other(8 * kMiB, 12 * kMiB);
  StateReader in(state, "test");
  const Status st = other.RestoreState(in);
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message().find("ftl reverse map: another size"), std::string::npos) << st.message();
}

}  // namespace ssd_ftl_test
}  // namespace storlab
