// ModelSpeed: how fast a node of a stack is by itself — 4 KiB random reads
// at queue depth 1 and 32, in virtual time on a copy of the stack that keeps
// no data — so that an export can say at start-up when the transport in
// front of it will be the slower part (nvme-gen3 behind NBD on two cores).
// Thread-compatible: builds its own engine and stack.
#ifndef STORLAB_SIM_SERVE_MODEL_SPEED_H_
#define STORLAB_SIM_SERVE_MODEL_SPEED_H_

#include <cstdint>
#include <string_view>

#include "sim/status.h"

namespace storlab {

struct ModelSpeed {
  double qd1_latency_us = 0;  // mean, 4 KiB random read at QD1
  double qd1_iops = 0;
  double qd32_iops = 0;  // 4 KiB random read at QD32
};

Result<ModelSpeed> MeasureModelSpeed(std::string_view stack, std::string_view node, uint64_t seed);

}  // namespace storlab

#endif  // STORLAB_SIM_SERVE_MODEL_SPEED_H_
