#include "sim/histogram.h"

#include <cmath>

namespace storlab {

const std::vector<double>& LatencyHistogram::DefaultPercentiles() {
  static const std::vector<double> kList = {1.0,  5.0,  10.0, 20.0, 30.0, 40.0, 50.0,  60.0, 70.0,
                                            80.0, 90.0, 95.0, 99.0, 99.5, 99.9, 99.95, 99.99};
  return kList;
}

uint64_t LatencyHistogram::IndexToValue(unsigned idx) {
  if (idx < (kVal << 1)) return idx;
  unsigned error_bits = (idx >> kBits) - 1;
  uint64_t base = uint64_t{1} << (error_bits + kBits);
  uint64_t k = idx % kVal;
  return base + static_cast<uint64_t>((static_cast<double>(k) + 0.5) *
                                      static_cast<double>(uint64_t{1} << error_bits));
}

void LatencyHistogram::Add(uint64_t value) {
  ++buckets_[ValueToIndex(value)];
  if (value > max_) max_ = value;
  if (value < min_) min_ = value;
  double val = static_cast<double>(value);
  double delta = val - mean_;
  if (delta != 0) {
    mean_ += delta / (static_cast<double>(samples_) + 1.0);
    s_ += delta * (val - mean_);
  }
  ++samples_;
}

void LatencyHistogram::Merge(const LatencyHistogram& o) {
  if (o.samples_ == 0) return;
  for (unsigned i = 0; i < kBuckets; ++i) buckets_[i] += o.buckets_[i];
  if (o.max_ > max_) max_ = o.max_;
  if (o.min_ < min_) min_ = o.min_;
  // Chan et al.'s parallel combination, as fio's sum_stat() does.
  double n1 = static_cast<double>(samples_), n2 = static_cast<double>(o.samples_);
  double delta = o.mean_ - mean_;
  double mean = (n1 * mean_ + n2 * o.mean_) / (n1 + n2);
  s_ = s_ + o.s_ + delta * delta * n1 * n2 / (n1 + n2);
  mean_ = mean;
  samples_ += o.samples_;
}

double LatencyHistogram::stddev() const {
  if (samples_ < 2) return 0;
  return std::sqrt(s_ / (static_cast<double>(samples_) - 1.0));
}

std::vector<uint64_t> LatencyHistogram::Percentiles(const std::vector<double>& list) const {
  std::vector<uint64_t> out(list.size(), 0);
  if (samples_ == 0 || list.empty()) return out;
  uint64_t sum = 0;
  size_t j = 0;
  bool is_last = false;
  for (unsigned i = 0; i < kBuckets && !is_last; ++i) {
    sum += buckets_[i];
    while (static_cast<long double>(sum) >=
           static_cast<long double>(list[j]) / 100.0L * static_cast<long double>(samples_)) {
      out[j] = IndexToValue(i);
      is_last = (j == list.size() - 1);
      if (is_last) break;
      ++j;
    }
  }
  return out;
}

uint64_t LatencyHistogram::Percentile(double p) const { return Percentiles({p})[0]; }

}  // namespace storlab
