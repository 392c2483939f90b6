// JobRunner's bandwidth and IOPS sample windows (fio's bw_avg_time,
// iops_avg_time) and the rate_min / rate_iops_min check (job_runner.h).
#include <cerrno>
#include <string>

#include "workloads/fio/job_runner.h"

namespace storlab::fio {

void JobRunner::Account(int dir, uint64_t bytes, Nanos t) {
  while (bw_windows_ && t >= next_bw_sample_) CloseBwWindow();
  while (iops_windows_ && t >= next_iops_sample_) CloseIopsWindow();
  win_bytes_[dir] += bytes;
  ++win_ios_[dir];
}

// fio's __add_samples(): one sample per direction that moved data.
void JobRunner::CloseBwWindow() {
  const uint64_t spent_ms = static_cast<uint64_t>(bw_avg_.count() / 1000000);
  const uint64_t ms = static_cast<uint64_t>((next_bw_sample_ - epoch_).count() / 1000000);
  for (int d = 0; d < 3; ++d) {
    if (!win_bytes_[d]) continue;
    const uint64_t rate = win_bytes_[d] * 1000 / spent_ms / 1024;
    ts_.dir[d].bw.Add(rate);
    if (logs_) logs_->OnBwWindow(ms, d, rate);
    win_bytes_[d] = 0;
  }
  next_bw_sample_ += bw_avg_;
}

void JobRunner::CloseIopsWindow() {
  const uint64_t spent_ms = static_cast<uint64_t>(iops_avg_.count() / 1000000);
  const uint64_t ms = static_cast<uint64_t>((next_iops_sample_ - epoch_).count() / 1000000);
  for (int d = 0; d < 3; ++d) {
    if (!win_ios_[d]) continue;
    const uint64_t rate = win_ios_[d] * 1000 / spent_ms;
    ts_.dir[d].iops.Add(rate);
    if (logs_) logs_->OnIopsWindow(ms, d, rate);
    win_ios_[d] = 0;
  }
  next_iops_sample_ += iops_avg_;
}

// backend.c __check_min_rate(): after 2 s, every ratecycle, the bytes (or
// I/Os) done since the last check must reach rate_min (rate_iops_min);
// otherwise the job ends with EIO (check_min_rate's td_verror).
bool JobRunner::MinRateMissed(int dir, Nanos t) {
  const JobOptions& o = spec_.opts;
  const uint64_t min_bytes = o.rate_min[dir], min_ios = o.rate_iops_min[dir];
  if ((!min_bytes && !min_ios) || failed_) return false;
  auto ms_since = [t](Nanos from) { return static_cast<uint64_t>((t - from).count() / 1000000); };
  if (ms_since(epoch_) < 2000) return false;
  if (check_bytes_[dir] || check_ios_[dir]) {
    const uint64_t spent = ms_since(check_time_[dir]);
    if (spent == 0 || spent < static_cast<uint64_t>(o.ratecycle)) return false;
    std::string why;
    if (min_bytes) {
      const uint64_t got = (done_bytes_[dir] - check_bytes_[dir]) * 1000 / spent;
      if (got < min_bytes) {
        why = spec_.name + ": rate_min=" + std::to_string(min_bytes) + "B/s not met, got " +
              std::to_string(got) + "B/s";
      }
    } else {
      const uint64_t got = (done_ios_[dir] - check_ios_[dir]) * 1000 / spent;
      if (got < min_ios) {
        why = spec_.name + ": rate_iops_min=" + std::to_string(min_ios) + " not met, got " +
              std::to_string(got) + " IOPS";
      }
    }
    if (!why.empty()) {
      messages_.push_back(why);
      ts_.error = EIO;
      ts_.verror = "file:backend.c:1131, func=check_min_rate, error=Input/output error";
      return true;
    }
  }
  check_bytes_[dir] = done_bytes_[dir];
  check_ios_[dir] = done_ios_[dir];
  check_time_[dir] = t;
  return false;
}

}  // namespace storlab::fio
