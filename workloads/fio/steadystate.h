// SteadyState: fio's steady-state detection (steadystate.c) for one job or
// one reporting group: once a second, the IOPS and bandwidth of the last
// second go into a ring of ss_dur samples; when it is full, the criterion
// is checked — the largest deviation from the mean (iops, bw) or the
// least-squares slope (iops_slope, bw_slope), in percent of the mean or
// absolute — and a job that attains it ends. ss= is parsed here too.
// Thread-compatible.
#ifndef STORLAB_WORKLOADS_FIO_STEADYSTATE_H_
#define STORLAB_WORKLOADS_FIO_STEADYSTATE_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sim/status.h"

namespace storlab::fio {

// steadystate=iops|iops_slope|bw|bw_slope:LIMIT[%] (options.c
// str_steadystate_cb): a bandwidth limit without '%' is in bytes/s.
struct SteadyStateCriterion {
  bool iops = true;   // FIO_SS_IOPS, else bandwidth
  bool slope = true;  // FIO_SS_SLOPE, else mean deviation
  bool pct = true;    // FIO_SS_PCT
  double limit = 0.01;
};
Result<SteadyStateCriterion> ParseSteadyState(std::string_view value);
Status CheckSteadyState(std::string_view value);

class SteadyState {
 public:
  SteadyState(const SteadyStateCriterion& c, int dur_s);

  // One second's figures (steadystate_slope() / steadystate_deviation()):
  // true when the criterion is met.
  bool Add(uint64_t iops, uint64_t bw);
  void MarkAttained() { attained_ = true; }

  const SteadyStateCriterion& criterion_spec() const { return c_; }
  int dur() const { return dur_; }
  bool attained() const { return attained_; }
  bool buffer_full() const { return full_; }
  double slope() const { return slope_; }
  double deviation() const { return deviation_; }
  double criterion() const { return criterion_; }
  // The samples oldest first, as stat.c's JSON lists them.
  std::vector<uint64_t> Ordered(bool bw) const;
  uint64_t bw_mean() const;
  uint64_t iops_mean() const;

 private:
  SteadyStateCriterion c_;
  int dur_;
  std::vector<uint64_t> bw_, iops_;
  int head_ = 0, tail_ = 0;
  bool full_ = false, attained_ = false;
  uint64_t sum_y_ = 0, sum_xy_ = 0, oldest_y_ = 0;
  uint64_t sum_x_, sum_x_sq_;
  double slope_ = 0, deviation_ = 0, criterion_ = 0;
};

}  // namespace storlab::fio

#endif  // STORLAB_WORKLOADS_FIO_STEADYSTATE_H_
