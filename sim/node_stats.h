// NodeStats: what every node counts about the requests it serves.
//
// Per operation: count, bytes, errors and a latency histogram (submit to
// completion at this node, fio geometry). Queue depth: the number of
// requests in flight at this node, its maximum, and its time average.
// Model-specific figures (cache hits, dirty bytes, seeks) come from the
// node's own AppendStats(). Thread-compatible; the engine thread updates it.
#ifndef STORLAB_SIM_NODE_STATS_H_
#define STORLAB_SIM_NODE_STATS_H_

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sim/histogram.h"
#include "sim/request.h"
#include "sim/time.h"

namespace storlab {

struct OpStats {
  uint64_t ops = 0;
  uint64_t bytes = 0;
  uint64_t errors = 0;
  LatencyHistogram latency_ns;
};

class NodeStats {
 public:
  OpStats& op(Op o) { return ops_[static_cast<int>(o)]; }
  const OpStats& op(Op o) const { return ops_[static_cast<int>(o)]; }

  void OnStart(Nanos now) {
    Integrate(now);
    ++in_flight_;
    if (in_flight_ > max_in_flight_) max_in_flight_ = in_flight_;
  }
  void OnDone(Nanos now) {
    Integrate(now);
    if (in_flight_ > 0) --in_flight_;
  }
  // In-flight requests were abandoned (power cut).
  void DropInFlight(Nanos now) {
    Integrate(now);
    in_flight_ = 0;
  }
  uint32_t in_flight() const { return in_flight_; }
  uint32_t max_in_flight() const { return max_in_flight_; }
  // Time-averaged queue depth from the last reset up to `now`.
  double MeanQueueDepth(Nanos now) const;
  // Time with at least one request in flight, from the last reset up to
  // `now` (a disk's "util" is this over the elapsed time).
  Nanos BusyTime(Nanos now) const { return in_flight_ ? busy_ + (now - last_) : busy_; }
  void Reset(Nanos now);

 private:
  void Integrate(Nanos now) {
    qd_integral_ += static_cast<double>(in_flight_) * static_cast<double>((now - last_).count());
    if (in_flight_) busy_ += now - last_;
    last_ = now;
  }
  std::array<OpStats, kOpCount> ops_;
  uint32_t in_flight_ = 0;
  uint32_t max_in_flight_ = 0;
  double qd_integral_ = 0;  // depth × ns
  Nanos busy_;
  Nanos since_;
  Nanos last_;
};

// One named figure a model reports about itself ("cache_hits", "dirty_bytes").
// `unit` is one of sim/stat_table.h's (empty: not stated, a test fails).
struct StatValue {
  std::string name;
  double value;
  std::string_view unit;
};
using StatList = std::vector<StatValue>;

// A figure sampled over simulated time (dirty bytes, SLC fill), kept at most
// every `min_interval` so long runs stay small.
class TimeSeries {
 public:
  explicit TimeSeries(std::string name, Nanos min_interval = Nanos(100'000'000))
      : name_(std::move(name)), min_interval_(min_interval) {}
  void Record(Nanos now, double value);
  void Clear() { points_.clear(); }
  const std::string& name() const { return name_; }
  const std::vector<std::pair<Nanos, double>>& points() const { return points_; }

 private:
  std::string name_;
  Nanos min_interval_;
  std::vector<std::pair<Nanos, double>> points_;
};

}  // namespace storlab

#endif  // STORLAB_SIM_NODE_STATS_H_
