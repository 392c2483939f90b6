// What the scenarios share: a fio job, then a power cut and the oracle.
#include <cstdio>
#include <memory>

#include "sim/devices/hdd.h"
#include "sim/devices/ssd.h"
#include "sim/virtual_driver.h"
#include "workloads/fio/fio_run.h"
#include "workloads/fio/job_file.h"
#include "workloads/host/sim_host.h"
#include "workloads/scenarios/scenario.h"

namespace storlab::scenarios {

std::string Bytes(uint64_t n) {
  static const char* const kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double v = static_cast<double>(n);
  int u = 0;
  while (v >= 1024 && u < 4) {
    v /= 1024;
    ++u;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, u == 0 ? "%.0f %s" : "%.1f %s", v, kUnits[u]);
  return buf;
}

std::string Duration(Nanos t) {
  char buf[32];
  const double s = t.seconds();
  if (s < 1) {
    std::snprintf(buf, sizeof buf, "%.2f ms", s * 1e3);
  } else {
    std::snprintf(buf, sizeof buf, "%.3f s", s);
  }
  return buf;
}

Result<FioOnStack> RunFio(const HostOptions& host, const std::vector<std::string>& args) {
  ASSIGN_OR_RETURN(auto sections, fio::ParseCommandLine(args));
  ASSIGN_OR_RETURN(auto jobs, fio::BuildJobs(sections, host.seed));
  FioOnStack out;
  ASSIGN_OR_RETURN(out.host, SimHost::Create(host));
  out.run = std::make_unique<fio::FioRun>(*out.host, std::move(jobs));
  RETURN_IF_ERROR(out.run->Prepare());
  RETURN_IF_ERROR(out.run->Run({}));
  return out;
}

Result<CutAfterJob> RunAndCut(const std::string& stack, const std::vector<std::string>& args,
                              Nanos cut_after, const ScenarioOptions& options) {
  HostOptions ho;
  ho.stack = stack;
  ho.seed = options.seed;
  ho.oracle = true;
  ASSIGN_OR_RETURN(auto fio_run, RunFio(ho, args));
  SimHost* host = fio_run.host.get();
  const fio::FioRun& run = *fio_run.run;
  CutAfterJob out;
  const auto& job = *run.runners().front();
  out.job_time = job.extras().end - job.extras().start;
  out.bytes_written = job.stat().dir[fio::kWrite].io_bytes;
  out.write_ios = job.stat().dir[fio::kWrite].total_ios;
  // The stack goes on (writeback, destaging) until the cut.
  VirtualDriver(host->engine()).RunUntil(host->engine().now() + cut_after);
  if (host->page_cache()) {
    out.page_cache_dirty = host->page_cache()->dirty_bytes();
  }
  for (const auto& n : host->stack().nodes()) {
    if (const auto* h = dynamic_cast<const Hdd*>(n.get())) {
      out.device_cache_dirty += h->write_cache().dirty_bytes();
    } else if (const auto* s = dynamic_cast<const Ssd*>(n.get())) {
      out.device_cache_dirty += s->buffered_bytes();
    }
  }
  host->stack().PowerCut();
  out.oracle = host->oracle()->VerifyNow();
  out.oracle_block = host->oracle()->geometry().logical_block;
  return out;
}

}  // namespace storlab::scenarios
