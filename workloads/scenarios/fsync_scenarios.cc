// The durability scenarios: `fsync` (the same writes with and without
// fsync, then a power cut) and `usb-pull` (a copy that "finished", then the
// disk pulled without unmount). Every figure comes from the runs.
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "workloads/scenarios/scenario.h"

namespace storlab::scenarios {
namespace {

struct Variant {
  std::string label;
  std::vector<std::string> extra;  // fio options
};

struct Row {
  std::string label;
  CutAfterJob r;
  uint64_t kept() const { return r.oracle.blocks_newest * r.oracle_block; }
  uint64_t lost() const { return r.oracle.blocks_older * r.oracle_block; }
};

Result<std::vector<Row>> RunVariants(const std::string& stack, const std::vector<std::string>& job,
                                     const std::vector<Variant>& variants, Nanos cut_after,
                                     const ScenarioOptions& options) {
  std::vector<Row> rows;
  for (const auto& v : variants) {
    std::vector<std::string> args = job;
    args.insert(args.end(), v.extra.begin(), v.extra.end());
    ASSIGN_OR_RETURN(auto r, RunAndCut(stack, args, cut_after, options));
    if (!r.oracle.ok()) {
      return Status::Internal("scenario: the oracle found violations on " + stack + " (" + v.label +
                              "):\n" + r.oracle.Summary());
    }
    rows.push_back({v.label, std::move(r)});
  }
  return rows;
}

std::string Table(const std::vector<Row>& rows, const char* first_column) {
  std::string s;
  char line[256];
  std::snprintf(line, sizeof line, "  %-14s %12s %14s %12s %20s %14s\n", first_column, "job time",
                "kept on media", "lost", "in the page cache", "in the drive");
  s += line;
  for (const auto& row : rows) {
    std::snprintf(line, sizeof line, "  %-14s %12s %14s %12s %20s %14s\n", row.label.c_str(),
                  Duration(row.r.job_time).c_str(), Bytes(row.kept()).c_str(),
                  Bytes(row.lost()).c_str(), Bytes(row.r.page_cache_dirty).c_str(),
                  Bytes(row.r.device_cache_dirty).c_str());
    s += line;
  }
  return s + "  (the last two columns: what was still volatile when the power went)\n";
}

double Ratio(Nanos a, Nanos b) { return b.count() > 0 ? a.seconds() / b.seconds() : 0; }

}  // namespace

Result<std::string> RunFsync(const ScenarioOptions& options) {
  const std::string stack = "hdd-7200";
  const std::vector<std::string> job = {"--name=notes", "--rw=write", "--bs=4k", "--size=1m",
                                        "--ioengine=psync"};
  const Nanos cut_after = Nanos::FromSeconds(0.1);
  ASSIGN_OR_RETURN(
      auto rows,
      RunVariants(stack, job,
                  {{"none", {}}, {"end_fsync=1", {"--end_fsync=1"}}, {"fsync=1", {"--fsync=1"}}},
                  cut_after, options));
  const Row &none = rows[0], &end = rows[1], &each = rows[2];
  std::string s = "fsync: the same " + std::to_string(none.r.write_ios) + " buffered writes (" +
                  Bytes(none.r.bytes_written) + ", 4 KiB each, ioengine=psync) to one file on " +
                  stack + ", then the power cut " + Duration(cut_after) +
                  " after the job returned; the oracle read every block back.\n\n";
  s += Table(rows, "fsync");
  s += "\nWithout fsync the job returned after " + Duration(none.r.job_time) +
       ": each write() ended once its page was in the host's page cache, which writes dirty "
       "pages back only when they are old (dirty_expire, 30 s) or past its dirty limits. At "
       "the cut " +
       Bytes(none.r.page_cache_dirty) + " were still there, and " + Bytes(none.lost()) +
       " of the file were lost: every write the job believed done.\n";
  s += "With end_fsync=1 the job took " + Duration(end.r.job_time) + " (" +
       std::to_string(std::lround(Ratio(end.r.job_time, none.r.job_time))) +
       "x): one fsync at the end wrote the pages back and flushed the drive's cache; " +
       Bytes(end.kept()) + " were on the platters at the cut, " + Bytes(end.lost()) + " lost.\n";
  s += "With fsync=1 every write waited for the platters before the next: " +
       Duration(each.r.job_time) + " (" +
       std::to_string(std::lround(Ratio(each.r.job_time, end.r.job_time))) +
       "x end_fsync's time), " + Bytes(each.kept()) + " kept";
  if (each.lost() > 0) {
    s += ", " + Bytes(each.lost()) +
         " lost: fio syncs after every N-th write it issues, and the job ends as soon as its "
         "size is issued, so its last write had no fsync after it (end_fsync=1 covers it).\n";
  } else {
    s += ", nothing lost.\n";
  }
  return s;
}

Result<std::string> RunUsbPull(const ScenarioOptions& options) {
  const std::string stack = "usb3-uas-hdd";
  const std::vector<std::string> job = {"--name=copy", "--rw=write", "--bs=1m", "--size=256m",
                                        "--ioengine=psync"};
  const Nanos pull_after = Nanos::FromSeconds(5);
  ASSIGN_OR_RETURN(auto rows,
                   RunVariants(stack, job, {{"pulled", {}}, {"sync, pulled", {"--end_fsync=1"}}},
                               pull_after, options));
  const Row &pulled = rows[0], &synced = rows[1];
  std::string s = "usb-pull: a copy of " + Bytes(pulled.r.bytes_written) +
                  " (1 MiB buffered writes, as cp does) to a USB 3 disk (" + stack +
                  "), and the disk pulled without unmount " + Duration(pull_after) +
                  " after the copy returned; the oracle read every block back.\n\n";
  s += Table(rows, "");
  s += "\nThe copy \"finished\" after " + Duration(pulled.r.job_time) + ", " +
       std::to_string(static_cast<int>(static_cast<double>(pulled.r.bytes_written) / 1e6 /
                                       pulled.r.job_time.seconds())) +
       " MB/s: write() returns once the data is in the host's page cache. When the disk was "
       "pulled " +
       Bytes(pulled.r.page_cache_dirty) + " were still in the page cache and " +
       Bytes(pulled.r.device_cache_dirty) + " in the drive's own cache; " + Bytes(pulled.kept()) +
       " of the file were on the platters, " + Bytes(pulled.lost()) + " lost";
  s += pulled.lost() == 0   ? ".\n"
       : pulled.kept() == 0 ? ": none of the copy reached the disk, and nothing said so.\n"
                            : ": the file on the disk is incomplete, and nothing said so.\n";
  s += "With `sync` before the pull (end_fsync=1: the page cache written back, then the "
       "drive's cache flushed) the copy took " +
       Duration(synced.r.job_time) + " and " + Bytes(synced.kept()) + " were kept, " +
       Bytes(synced.lost()) + " lost.\n";
  return s;
}

}  // namespace storlab::scenarios
