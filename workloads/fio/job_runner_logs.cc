// JobRunner's per-I/O log samples (job_runner.h, job_logs.h): what fio's
// account_io_completion() adds to the lat, slat, clat, bw and iops logs.
#include "workloads/fio/job_runner.h"

namespace storlab::fio {

// fio's account_io_completion() for the logs: per-I/O lines, and the bw /
// iops figures per I/O when a log takes them so.
void JobRunner::LogIo(const IoUnit& u, Nanos reap, uint64_t clat_ns, uint64_t lat_ns) {
  const JobOptions& o = spec_.opts;
  auto ms = [this](Nanos t) { return static_cast<uint64_t>((t - epoch_).count() / 1000000); };
  JobLogs::Io io{.ms = ms(reap),
                 .dir = u.dir,
                 .bs = u.length,
                 .offset = u.offset,
                 .prio = u.ioprio,
                 .clat_ns = clat_ns,
                 .lat_ns = lat_ns,
                 .has_slat = eng_.async && !eng_.no_io && !o.disable_slat && u.dir != kTrim,
                 .slat_ms = u.issue > epoch_ ? ms(u.issue) : 0,
                 .slat_ns = static_cast<uint64_t>((u.issue - u.start).count()),
                 .bw_rate = clat_ns ? u.length * 1000000 / clat_ns : 0,
                 .has_lat = !o.disable_lat,
                 .has_clat = !o.disable_clat,
                 .has_bw = !o.disable_bw,
                 // io_u.c gtod_reduce(): no time taken, no per-I/O IOPS sample.
                 .has_iops = !(o.disable_clat && o.disable_slat && o.disable_bw)};
  if (!bw_windows_ && io.has_bw) ts_.dir[u.dir].bw.Add(io.bw_rate);
  if (!iops_windows_ && io.has_iops) ts_.dir[u.dir].iops.Add(1);
  logs_->OnIo(io, ts_.dir[u.dir].clat);
}

}  // namespace storlab::fio
