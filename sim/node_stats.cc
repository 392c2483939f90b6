#include "sim/node_stats.h"

namespace storlab {

double NodeStats::MeanQueueDepth(Nanos now) const {
  double span = static_cast<double>((now - since_).count());
  if (span <= 0) return 0;
  double integral =
      qd_integral_ + static_cast<double>(in_flight_) * static_cast<double>((now - last_).count());
  return integral / span;
}

void NodeStats::Reset(Nanos now) {
  uint32_t keep = in_flight_;
  *this = NodeStats();
  in_flight_ = keep;
  max_in_flight_ = keep;
  since_ = now;
  last_ = now;
}

void TimeSeries::Record(Nanos now, double value) {
  // Points stay at least min_interval_ apart, except that the last point
  // always holds the newest sample: it moves forward until it is far enough
  // from the one before it, and then a new point opens.
  size_t n = points_.size();
  if (n >= 2 && now - points_[n - 2].first < min_interval_) {
    points_[n - 1] = {now, value};
    return;
  }
  if (n >= 1 && points_[n - 1].first == now) {
    points_[n - 1].second = value;
    return;
  }
  points_.emplace_back(now, value);
}

}  // namespace storlab
