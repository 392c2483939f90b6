// The two outputs of `storlab sim`: fio's JSON (key for key as fio 3.33
// prints it, plus one "storlab" object with the stack's own figures) and
// fio's normal human-readable summary.
// Thread-compatible: call after FioRun::Run().
#ifndef STORLAB_WORKLOADS_FIO_OUTPUT_H_
#define STORLAB_WORKLOADS_FIO_OUTPUT_H_

#include <nlohmann/json.hpp>
#include <string>

#include "workloads/fio/fio_run.h"

namespace storlab::fio {

struct OutputOptions {
  // Print the wall-clock time where fio prints it (timestamps, the job
  // lines' dates). Off by default: output is then a pure function of the
  // stack, the jobs and the seed.
  bool real_time = false;
  // fio's json+: each latency with percentiles also gets its histogram's
  // "bins" (bucket value in ns -> count, the buckets that counted).
  bool json_plus = false;
};

nlohmann::ordered_json FioJson(const FioRun& run, const OutputOptions& options);
std::string FioJsonText(const FioRun& run, const OutputOptions& options);
// fio's terse output, `version` 2 to 5 (--terse-version; fio's default 3):
// one line per job or group.
std::string FioTerseReport(const FioRun& run, int version);
// The header fio prints before the jobs run (job lines, version, "Starting
// N processes", layout lines).
std::string FioNormalHeader(const FioRun& run);
// The report fio prints when the jobs are done.
std::string FioNormalReport(const FioRun& run, const OutputOptions& options);

// fio's "disk_util": the stack's root, the device under the file system.
nlohmann::ordered_json DiskUtilJson(const FioRun& run);

// The "storlab" object: stack, seed, host, layout, per-job timeline and
// every node's statistics.
nlohmann::ordered_json StorlabJson(const FioRun& run);

// fio's date strings: the real time, or the epoch (UTC) when !real_time.
std::string FioTimeString(bool real_time);
int64_t FioTimestamp(bool real_time);

}  // namespace storlab::fio

#endif  // STORLAB_WORKLOADS_FIO_OUTPUT_H_
