// `thin-full`: Proxmox's local-lvm over-allocated — three 100 GB thin
// volumes on a 200 GB LVM-thin pool — written full by their VMs: writes
// succeed until the pool is full, then every VM's writes fail; dm-thin's
// default queues them for no_space_timeout (60 s) first, error_if_no_space
// fails them at once (sim/layers/thin/thin_node.h).
#include <cstdio>
#include <string>
#include <vector>

#include "sim/layers/thin/thin_node.h"
#include "workloads/fio/fio_run.h"
#include "workloads/fio/job_file.h"
#include "workloads/host/sim_host.h"
#include "workloads/scenarios/scenario.h"

namespace storlab::scenarios {
namespace {

std::string Stack(const std::string& when_full) {
  return "[stack]\n"
         "description = \"LVM-thin pool of 200 GiB (Proxmox local-lvm), three 100 GiB thin "
         "volumes\"\n"
         "[node.vms]\ntype = \"thin\"\nchild = \"ssd\"\nvirtual_size = \"100GiB\"\nvolumes = 3\n"
         "pool_size = \"200GiB\"\nwhen_full = \"" +
         when_full + "\"\n[node.ssd]\nuse = \"sata-ssd\"\n";
}

struct Outcome {
  std::vector<std::string> lines;  // per VM
  double data_percent = 0;
  uint64_t mapped = 0;
  Nanos last_end;  // when the last VM stopped
};

Result<Outcome> Fill(const std::string& when_full, const ScenarioOptions& options) {
  // Each VM writes its whole disk (90 GiB of 100 GB: its file system's
  // data), 1 MiB at a time, O_DIRECT: a restore, a copy, a database load.
  const std::vector<std::string> args = {"--name=vm",         "--numjobs=3", "--rw=write",
                                         "--bs=1m",           "--size=90g",  "--direct=1",
                                         "--ioengine=libaio", "--iodepth=4"};
  HostOptions ho;
  ho.stack = "thin-full.toml";
  ho.stack_text = Stack(when_full);
  ho.seed = options.seed;
  ASSIGN_OR_RETURN(auto fio_run, RunFio(ho, args));
  SimHost* host = fio_run.host.get();
  const fio::FioRun& run = *fio_run.run;
  Outcome out;
  for (const auto& r : run.runners()) {
    const auto& x = r->extras();
    const auto& ts = r->stat();
    char line[512];
    std::snprintf(line, sizeof line, "    %s.%d wrote %.1f GB in %s, then %s\n", ts.name.c_str(),
                  r->spec().clone, static_cast<double>(ts.dir[fio::kWrite].io_bytes) / 1e9,
                  Duration(x.end - x.start).c_str(),
                  ts.error ? ("stopped: " + ts.verror).c_str() : "finished");
    out.lines.emplace_back(line);
    out.last_end = Max(out.last_end, x.end - x.start);
  }
  for (const auto& n : host->stack().nodes()) {
    if (auto* t = dynamic_cast<const ThinNode*>(n.get())) {
      out.data_percent = t->data_percent();
      out.mapped = t->mapped_bytes();
    }
  }
  return out;
}

}  // namespace

Result<std::string> RunThinFull(const ScenarioOptions& options) {
  std::string s =
      "thin-full: three VMs, each with a 100 GiB thin volume (300 GiB promised) on a 200 GiB "
      "LVM-thin pool over a SATA SSD, each writing 90 GiB to its disk (1 MiB writes, "
      "O_DIRECT, iodepth 4).\n";
  std::vector<Nanos> ends;
  for (const char* mode : {"queue", "error"}) {
    ASSIGN_OR_RETURN(auto o, Fill(mode, options));
    ends.push_back(o.last_end);
    s += std::string("\n  when_full = ") +
         (std::string(mode) == "queue"
              ? "queue (dm-thin's default: a write to a full pool waits up to 60 s for space)"
              : "error (error_if_no_space: it fails at once)") +
         ":\n";
    for (const auto& l : o.lines) s += l;
    char line[160];
    std::snprintf(line, sizeof line, "    the pool: %.1f GB mapped, Data%% %.1f\n",
                  static_cast<double>(o.mapped) / 1e9, o.data_percent);
    s += line;
  }
  s += "\nEvery write that needed a new chunk failed once the pool was full, in every VM at "
       "once, although each VM's own disk was far from full; queued, the VMs hung " +
       Duration(ends[0] - ends[1]) +
       " longer first, with nothing to show for it. A guest sees these as write "
       "errors of its disk: ext4 aborts its journal and remounts read-only (errors=remount-ro), "
       "a database stops. Space returns only when the VMs discard what they no longer use "
       "(fstrim in the guests, with discard passed through to the thin volume), or when the "
       "pool is extended (lvextend). Not simulated here: the discards.\n";
  return s;
}

}  // namespace storlab::scenarios
