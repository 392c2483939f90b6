// Stats as JSON: every node of a stack, its counters, latency percentiles
// (fio's geometry and percentile list), queue depth, the model's own figures
// and time series. Used by `storlab sim` (the "storlab" object of its fio
// JSON), the FUSE stats.json file and the NBD plugin's stats dump.
// Thread-compatible: call on the engine's thread.
#ifndef STORLAB_SIM_STATS_JSON_H_
#define STORLAB_SIM_STATS_JSON_H_

#include <nlohmann/json.hpp>

#include "sim/node.h"
#include "sim/stack.h"

namespace storlab {

// {"min", "max", "mean", "stddev", "percentile": {"1.000000": ...}}
// in the histogram's unit (ns), percentiles as fio lists them.
nlohmann::ordered_json HistogramJson(const LatencyHistogram& h);
// {"name", "type", "ops": {"read": {...}, ...}, "queue_depth": {...},
//  "model": {"cache_hits": ...}, "series": {"dirty_bytes": [[t_ns, v], ...]}}
nlohmann::ordered_json NodeStatsJson(const Node& node);
// {"stack": name, "time_ns": now, "nodes": [NodeStatsJson..., root last]}
nlohmann::ordered_json StackStatsJson(const Stack& stack);

}  // namespace storlab

#endif  // STORLAB_SIM_STATS_JSON_H_
