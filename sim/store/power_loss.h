// PowerLoss: what a device's volatile write cache leaves on the media when
// the power goes.
//
// The models drop their cache at a cut by default. Real drives are less
// tidy: what they had acknowledged but not flushed may or may not have been
// programmed or written out when the power failed, in any order, and a
// write in progress may be torn at sector granularity. A device's
// `power_cut` key chooses:
//   drop        the cache is lost, nothing of it reached the media (default);
//   any-subset  each cached 4 KiB page reached the media or did not, seeded
//               (an unflushed write spanning pages may land in part);
//   torn        each cached logical block (the device's atomic unit)
//               reached the media or did not, seeded: torn writes.
// Every outcome is one the durability contract allows: only unflushed data
// is at stake, so the oracle must accept each (sim/oracle.h).
#ifndef STORLAB_SIM_STORE_POWER_LOSS_H_
#define STORLAB_SIM_STORE_POWER_LOSS_H_

#include <cstdint>
#include <string_view>

#include "sim/random.h"
#include "sim/status.h"
#include "sim/store/overlay.h"
#include "sim/store/store.h"

namespace storlab {

enum class PowerCutMode { kDrop, kAnySubset, kTorn };

// "drop", "any-subset", "torn".
std::string_view PowerCutModeName(PowerCutMode mode);
// The inverse; false for an unknown name.
bool ParsePowerCutMode(std::string_view name, PowerCutMode* mode);

// Applies `mode` to `cache` over `media` and clears the cache. `unit` is the
// device's logical block (torn's granularity). Returns the bytes that
// reached the media; an error if writing the media failed.
Result<uint64_t> LosePower(Overlay& cache, Store& media, PowerCutMode mode, uint32_t unit,
                           Random& rng);

}  // namespace storlab

#endif  // STORLAB_SIM_STORE_POWER_LOSS_H_
