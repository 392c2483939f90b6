#include "workloads/host/fs_prefill.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "sim/random.h"
#include "sim/round.h"

namespace storlab {
namespace {

std::string Name(uint64_t n) {
  char buf[32];
  std::snprintf(buf, sizeof buf, ".prefill/%06llu", static_cast<unsigned long long>(n));
  return buf;
}

}  // namespace

PrefillSummary PrefillFs(ExtentFs& fs, double percent, uint64_t seed) {
  PrefillSummary out;
  const uint64_t cap = fs.capacity(), block = fs.block_size();
  const auto target =
      static_cast<uint64_t>(static_cast<long double>(cap) * percent / 100) / block * block;
  if (target > 0) {
    Random rng(seed, "fs/prefill");
    const uint64_t max_size = RoundUp(std::max<uint64_t>(uint64_t{1} << 20, cap / 4096), block);
    const uint64_t min_size = RoundUp(std::max<uint64_t>(block, cap >> 24), block);
    const double span = std::log(static_cast<double>(max_size) / static_cast<double>(min_size));
    auto size = [&](uint64_t most) {
      const double s = static_cast<double>(min_size) * std::exp(rng.UniformDouble() * span);
      return std::min(most, RoundUp(static_cast<uint64_t>(s), block));
    };
    uint64_t n = 0;
    std::vector<uint32_t> ids;
    // Fill the device, file after file.
    while (fs.free_bytes() >= block) {
      const uint32_t id = fs.Create(Name(++n));
      ids.push_back(id);
      if (!fs.Allocate(id, size(fs.free_bytes())).ok()) break;
    }
    // Delete files in a seeded order until at or below the target.
    for (size_t i = ids.size(); i > 1; --i) std::swap(ids[i - 1], ids[rng.Uniform(i)]);
    for (uint32_t id : ids) {
      if (fs.used_bytes() <= target) break;
      fs.Remove(id);
    }
    // Top up with smaller files, first fit into the holes.
    while (fs.used_bytes() + block <= target) {
      const uint32_t id = fs.Create(Name(++n));
      if (!fs.Allocate(id, size(target - fs.used_bytes())).ok()) break;
    }
  }
  out.files = fs.ids().size();
  out.used_bytes = fs.used_bytes();
  out.free_extents = fs.free_extents();
  return out;
}

}  // namespace storlab
