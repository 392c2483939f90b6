// LatencyHistogram: latency samples in fio's log-linear geometry.
//
// Values (nanoseconds) fall into 29 groups of 64 buckets: values below 128
// are exact, and each later power of two is split into 64 equal buckets, so
// the error is at most 1/128 of the value. Percentiles are computed the way
// fio's stat.c computes them (the first bucket whose running count reaches
// p% of the samples, reported as that bucket's midpoint), and the running
// mean/stddev is fio's add_stat_sample, so our figures are fio's figures.
// Thread-compatible.
#ifndef STORLAB_SIM_HISTOGRAM_H_
#define STORLAB_SIM_HISTOGRAM_H_

#include <array>
#include <cstdint>
#include <vector>

namespace storlab {

class LatencyHistogram {
 public:
  static constexpr unsigned kBits = 6;
  static constexpr unsigned kVal = 1u << kBits;
  static constexpr unsigned kGroups = 29;
  static constexpr unsigned kBuckets = kGroups * kVal;  // 1856

  // fio's default percentile list (--percentile_list).
  static const std::vector<double>& DefaultPercentiles();

  void Add(uint64_t value);
  void Merge(const LatencyHistogram& other);
  void Reset() { *this = LatencyHistogram(); }

  uint64_t samples() const { return samples_; }
  uint64_t min() const { return samples_ ? min_ : 0; }
  uint64_t max() const { return max_; }
  double mean() const { return mean_; }
  double stddev() const;  // sample standard deviation, 0 below two samples
  uint64_t bucket(unsigned idx) const { return buckets_[idx]; }

  // The value fio reports for percentile `p` (0 < p <= 100); 0 if empty.
  uint64_t Percentile(double p) const;
  // Percentiles for a sorted list, in one pass (as fio does).
  std::vector<uint64_t> Percentiles(const std::vector<double>& sorted_list) const;

  // Inline: Add() runs it for every sample of every node and fio stat.
  static unsigned ValueToIndex(uint64_t value) {
    const unsigned msb = value == 0 ? 0 : 63 - static_cast<unsigned>(__builtin_clzll(value));
    if (msb <= kBits) return static_cast<unsigned>(value);
    const unsigned error_bits = msb - kBits;
    const unsigned base = (error_bits + 1) << kBits;
    const unsigned offset = (kVal - 1) & static_cast<unsigned>(value >> error_bits);
    const unsigned idx = base + offset;
    return idx < kBuckets - 1 ? idx : kBuckets - 1;
  }
  static uint64_t IndexToValue(unsigned idx);  // the bucket's midpoint

 private:
  std::array<uint64_t, kBuckets> buckets_{};
  uint64_t samples_ = 0;
  uint64_t min_ = UINT64_MAX;
  uint64_t max_ = 0;
  double mean_ = 0;
  double s_ = 0;  // Welford's running sum of squared deviations
};

}  // namespace storlab

#endif  // STORLAB_SIM_HISTOGRAM_H_
