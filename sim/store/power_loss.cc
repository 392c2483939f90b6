#include "sim/store/power_loss.h"

#include <algorithm>

namespace storlab {

std::string_view PowerCutModeName(PowerCutMode mode) {
  switch (mode) {
    case PowerCutMode::kDrop:
      return "drop";
    case PowerCutMode::kAnySubset:
      return "any-subset";
    case PowerCutMode::kTorn:
      return "torn";
  }
  return "drop";
}

bool ParsePowerCutMode(std::string_view name, PowerCutMode* mode) {
  for (PowerCutMode m : {PowerCutMode::kDrop, PowerCutMode::kAnySubset, PowerCutMode::kTorn}) {
    if (name == PowerCutModeName(m)) {
      *mode = m;
      return true;
    }
  }
  return false;
}

Result<uint64_t> LosePower(Overlay& cache, Store& media, PowerCutMode mode, uint32_t unit,
                           Random& rng) {
  uint64_t landed = 0;
  if (mode != PowerCutMode::kDrop) {
    const uint64_t step = mode == PowerCutMode::kTorn
                              ? std::clamp<uint64_t>(unit, Overlay::kSector, Overlay::kPage)
                              : Overlay::kPage;
    for (uint64_t page : cache.HeldPages()) {
      for (uint64_t pos = page * Overlay::kPage; pos < (page + 1) * Overlay::kPage; pos += step) {
        if (!rng.Bernoulli(0.5)) continue;
        for (auto [off, len] : cache.Runs(pos, step)) landed += len;
        RETURN_IF_ERROR(cache.DrainTo(media, pos, step));
      }
    }
  }
  cache.Clear();
  return landed;
}

}  // namespace storlab
