// Helpers for the raid layer's tests: build an array of RAM disks, count
// member requests, and check parity straight from the members' stores.
#ifndef STORLAB_TESTS_SIM_RAID_TEST_UTIL_H_
#define STORLAB_TESTS_SIM_RAID_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "sim/devices/ram_disk.h"
#include "sim/layers/raid/parity.h"
#include "sim/layers/raid/raid_node.h"
#include "sim/random.h"
#include "tests/sim/test_util.h"

namespace storlab::testing {

struct RaidSpec {
  int level = 5;
  int members = 4;
  std::string chunk = "64KiB";
  std::string capacity = "4MiB";
  std::string array_keys;  // extra lines for the array
  std::string disk_keys;   // extra lines for every disk
};

inline RaidSpec Spec(int level, int members, std::string chunk = "64KiB",
                     std::string capacity = "4MiB") {
  RaidSpec s;
  s.level = level;
  s.members = members;
  s.chunk = std::move(chunk);
  s.capacity = std::move(capacity);
  return s;
}
inline RaidSpec WithKeys(RaidSpec s, std::string array_keys, std::string disk_keys = "") {
  s.array_keys = std::move(array_keys);
  s.disk_keys = std::move(disk_keys);
  return s;
}

inline std::string RaidText(const RaidSpec& s) {
  return "[node.array]\ntype = \"raid\"\nlevel = " + std::to_string(s.level) + "\nchunk = \"" +
         s.chunk + "\"\nchildren = [\"disk\"]\n" + s.array_keys +
         "\n[node.disk]\ntype = \"ram\"\n" + "capacity = \"" + s.capacity +
         "\"\ncount = " + std::to_string(s.members) + "\n" + s.disk_keys + "\n";
}

struct RaidRig {
  LoadedStack s;
  RaidNode* raid;
  std::vector<RamDisk*> disks;
};

inline RaidRig MakeRaidRig(Engine& e, const RaidSpec& spec,
                           DataMode::Kind kind = DataMode::Kind::kRam) {
  RaidRig r{MustLoadText(RaidText(spec), e, 1, kind), nullptr, {}};
  r.raid = dynamic_cast<RaidNode*>(&r.s.stack->root());
  for (int i = 0; i < spec.members; ++i) {
    r.disks.push_back(dynamic_cast<RamDisk*>(r.s.stack->Find("disk." + std::to_string(i))));
  }
  return r;
}

// Fills the whole array with a pattern and returns it.
inline std::vector<uint8_t> Fill(Engine& e, RaidRig& r, uint64_t seed) {
  auto data = Pattern(r.raid->geometry().capacity, seed);
  EXPECT_TRUE(Write(e, *r.raid, 0, data).status.ok());
  return data;
}

// Reads the whole of `n`.
inline std::vector<uint8_t> ReadAll(Engine& e, Node& n) {
  std::vector<uint8_t> out(n.geometry().capacity);
  auto res = Read(e, n, 0, out);
  EXPECT_TRUE(res.status.ok()) << res.status.ToString();
  return out;
}

// `count` writes of 1..`max_units` units of `unit` bytes at random aligned
// offsets (Random(`seed`)), write i of Pattern(len, pattern_base + i); each
// is mirrored into `data`, the array's expected contents.
inline void WriteRandomly(Engine& e, RaidRig& r, std::vector<uint8_t>& data, uint64_t seed,
                          int count, uint64_t unit, uint64_t max_units, uint64_t pattern_base) {
  Random rng(seed);
  for (int i = 0; i < count; ++i) {
    const uint64_t len = unit * (1 + rng.Uniform(max_units));
    const uint64_t off = rng.Uniform((data.size() - len) / unit) * unit;
    auto w = Pattern(len, pattern_base + i);
    ASSERT_TRUE(Write(e, *r.raid, off, w).status.ok());
    std::copy(w.begin(), w.end(), data.begin() + off);
  }
}

// Requests of `op` the members completed since their stats were reset.
inline uint64_t MemberOps(const RaidRig& r, Op op) {
  uint64_t n = 0;
  for (RamDisk* d : r.disks) n += d->stats().op(op).ops;
  return n;
}

inline void ResetMemberStats(RaidRig& r) {
  for (RamDisk* d : r.disks) d->ResetStats();
  r.raid->ResetStats();
}

// Stripes (RAID5/6) or chunks (RAID1/10) whose parity or copies disagree,
// read straight from the members' stores.
inline int Inconsistencies(const RaidRig& r) {
  const RaidLayout& l = r.raid->layout();
  const uint64_t c = l.chunk();
  int bad = 0;
  auto block = [&](int m, uint64_t off, uint64_t len) {
    std::vector<uint8_t> b(len);
    EXPECT_TRUE(r.disks[static_cast<size_t>(m)]->store().Read(off, len, b.data()).ok());
    return b;
  };
  if (l.striped()) {
    for (uint64_t s = 0; s < l.stripes(); ++s) {
      std::vector<std::vector<uint8_t>> d;
      std::vector<const uint8_t*> ptr;
      for (int j = 0; j < l.data_disks(); ++j) d.push_back(block(l.DataMember(s, j), s * c, c));
      for (auto& b : d) ptr.push_back(b.data());
      std::vector<uint8_t> p(c), q(c);
      parity::Compute(ptr, c, p.data(), l.QMember(s) >= 0 ? q.data() : nullptr);
      bool ok = p == block(l.PMember(s), s * c, c);
      if (l.QMember(s) >= 0) ok &= q == block(l.QMember(s), s * c, c);
      bad += !ok;
    }
  } else if (l.level() == RaidLevel::kRaid1) {
    auto first = block(0, 0, l.member_size());
    for (int m = 1; m < l.members(); ++m) bad += block(m, 0, l.member_size()) != first;
  } else {
    for (uint64_t ch = 0; ch < l.capacity() / c; ++ch) {
      auto first = block(l.Copy(ch, 0).member, l.Copy(ch, 0).offset, c);
      for (int j = 1; j < l.copies(); ++j)
        bad += block(l.Copy(ch, j).member, l.Copy(ch, j).offset, c) != first;
    }
  }
  return bad;
}

}  // namespace storlab::testing

#endif  // STORLAB_TESTS_SIM_RAID_TEST_UTIL_H_
