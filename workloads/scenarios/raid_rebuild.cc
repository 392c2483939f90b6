// `raid-rebuild`: md RAID5 vs RAID6 of six 3 TB 7200 rpm drives (the
// seed's array, hdd-7200-3tb): how long the rebuild of one replaced drive
// takes idle and under a VM load, in simulated time, and the chance of
// losing the array — or blocks of it — during that rebuild, from published
// failure rates (rebuild_risk.h).
//
// A whole rebuild is 3 TB per member: simulated outright it would cost
// minutes. The rate depends on where the heads are (outer tracks are
// faster, and the VMs' data sits at the array's start) and on the
// foreground load, so the scenario measures it in windows spread over the
// member — each a fresh array with the drive replaced and md's
// recovery_start at the window (RaidNode::ReplaceMember) — and integrates:
// each window's rate stands for its slice of the member.
#include <algorithm>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "sim/layers/raid/raid_node.h"
#include "sim/virtual_driver.h"
#include "workloads/fio/fio_run.h"
#include "workloads/fio/job_file.h"
#include "workloads/host/sim_host.h"
#include "workloads/scenarios/rebuild_risk.h"
#include "workloads/scenarios/scenario.h"

namespace storlab::scenarios {
namespace {

constexpr int kWindows = 8;              // slices of the member, one measured window each
constexpr int kWindowSeconds = 60;       // simulated time per window
constexpr uint64_t kTrials = 1000000;    // rebuilds per Monte Carlo row
constexpr int kRebuilt = 1;              // the member failed and replaced
constexpr uint64_t kChunk = 512 * 1024;  // the arrays' chunk (mdadm's default, the seed's)

// The VMs: 4 KiB random I/O, 70 % reads, 200 IOPS in all over a 16 GiB
// image, O_DIRECT (Proxmox's cache=none) — an assumed, modest load of a
// few VMs; the scenario prints it.
std::vector<std::string> VmJob(Nanos runtime) {
  return {"--name=vms",
          "--rw=randrw",
          "--rwmixread=70",
          "--bs=4k",
          "--direct=1",
          "--ioengine=libaio",
          "--iodepth=8",
          "--size=16g",
          "--rate_iops=140,60",
          "--time_based",
          "--runtime=" + std::to_string(runtime.count() / 1000000) + "ms"};
}

struct Window {
  uint64_t member = 0;    // the array's member size
  double rate = 0;        // member bytes rebuilt per second
  double vm_read_ms = 0;  // the VMs' mean read latency
};

// One window: a fresh array, member kRebuilt failed and replaced with
// recovery starting at `start`, then `span` idle or under `vm_job`.
// `rebuild` false: the same without a failure (the VMs' healthy figures).
Result<Window> Measure(const std::string& stack_text, uint64_t start, Nanos span,
                       const std::vector<std::string>& vm_job, bool rebuild, uint64_t seed) {
  HostOptions ho;
  ho.stack = "raid-rebuild.toml";
  ho.stack_text = stack_text;
  ho.seed = seed;
  ASSIGN_OR_RETURN(auto host, SimHost::Create(ho));
  auto* raid = dynamic_cast<RaidNode*>(host->stack().Find("array"));
  if (raid == nullptr) return Status::Internal("raid-rebuild: no raid node 'array'");
  Window w;
  w.member = raid->layout().member_size();
  start = std::min(start, w.member);
  std::unique_ptr<fio::FioRun> run;
  if (!vm_job.empty()) {
    ASSIGN_OR_RETURN(auto sections, fio::ParseCommandLine(vm_job));
    ASSIGN_OR_RETURN(auto jobs, fio::BuildJobs(sections, seed));
    run = std::make_unique<fio::FioRun>(*host, std::move(jobs));
    RETURN_IF_ERROR(run->Prepare());  // the image laid out on the healthy array
  }
  if (rebuild) {
    RETURN_IF_ERROR(raid->FailMember(kRebuilt));
    RETURN_IF_ERROR(raid->ReplaceMember(kRebuilt, nullptr, start));
  }
  const Nanos t0 = host->engine().now();
  if (run) {
    RETURN_IF_ERROR(run->Run({}));
  } else {
    VirtualDriver(host->engine()).RunUntil(t0 + span);
  }
  const double elapsed = (host->engine().now() - t0).seconds();
  if (rebuild) w.rate = static_cast<double>(raid->member_frontier(kRebuilt) - start) / elapsed;
  if (run) w.vm_read_ms = run->runners().front()->stat().dir[fio::kRead].clat.mean() / 1e6;
  return w;
}

std::string Stack(int level) {
  return "[stack]\nroot = \"array\"\n[node.array]\ntype = \"raid\"\nlevel = " +
         std::to_string(level) +
         "\nchunk = \"512KiB\"\nchildren = [\"disk\"]\n"
         "[node.disk]\nuse = \"hdd-7200-3tb\"\ncount = 6\n";
}

// Published failure rates of 3 TB 7200 rpm drives.
struct Rates {
  const char* name;
  double afr;
  double ure;
};
constexpr Rates kRates[] = {
    // Backblaze, "Hard Drive Reliability Update" for 2014 (drive stats through
    // 31 Dec 2014): HGST Deskstar 7K3000 3 TB (HDS723030ALA640) 2.3 % AFR
    // (95 % CI 1.4-3.4 %); Constellation ES.3 data sheet: nonrecoverable read
    // errors max. 1 sector per 10^15 bits read.
    {"AFR 2.3 %, URE 1/10^15", 0.023, 1e-15},
    // The same report: Seagate Barracuda 7200.14 3 TB (ST3000DM001) 43.1 %
    // AFR (CI 40.8-45.4 %), the worst model in it; Barracuda 7200.14 data
    // sheet: max. 1 per 10^14 bits read (desktop class).
    {"AFR 43.1 %, URE 1/10^14", 0.431, 1e-14},
};

std::string Share(uint64_t n, uint64_t of) {
  char buf[64];
  if (n == 0) {
    std::snprintf(buf, sizeof buf, "none of %llu", static_cast<unsigned long long>(of));
  } else {
    std::snprintf(buf, sizeof buf, "%.4f %%", 100.0 * static_cast<double>(n) / of);
  }
  return buf;
}

}  // namespace

double RebuildWindows::hours() const {
  double h = 0;
  for (double s : slice_hours) h += s;
  return h;
}

Result<RebuildWindows> MeasureRebuildWindows(const std::string& stack_text, int windows,
                                             Nanos window, bool vms, uint64_t seed) {
  const std::vector<std::string> job = vms ? VmJob(window) : std::vector<std::string>{};
  RebuildWindows m;
  // A healthy run first: the member's size, and the VMs' figures without a
  // rebuild.
  ASSIGN_OR_RETURN(auto healthy, Measure(stack_text, 0, window, job, false, seed));
  m.member = healthy.member;
  m.healthy_vm_read_ms = healthy.vm_read_ms;
  const uint64_t slice = m.member / static_cast<uint64_t>(windows);
  m.min_rate = 1e300;
  for (int k = 0; k < windows; ++k) {
    // Each window starts mid-slice, on a chunk boundary.
    const uint64_t start = (slice * static_cast<uint64_t>(k) + slice / 2) / kChunk * kChunk;
    ASSIGN_OR_RETURN(auto w, Measure(stack_text, start, window, job, true, seed));
    if (w.rate <= 0) return Status::Internal("raid-rebuild: the rebuild made no progress");
    m.slice_hours.push_back(static_cast<double>(slice) / w.rate / 3600);
    m.min_rate = std::min(m.min_rate, w.rate);
    m.max_rate = std::max(m.max_rate, w.rate);
    m.vm_read_ms += w.vm_read_ms / windows;
  }
  return m;
}

Result<std::string> RunRaidRebuild(const ScenarioOptions& options) {
  std::string s =
      "raid-rebuild: md RAID5 and RAID6 of six 3 TB 7200 rpm drives (hdd-7200-3tb: "
      "Constellation ES.3 class, 175 MB/s outer to 83 MB/s inner), 512 KiB chunks; one drive "
      "fails and a spare is rebuilt at md's default speed_limit_min/max (1000/200000 KiB/s). "
      "The VM load: 4 KiB random I/O, 70 % reads, 140 + 60 IOPS over a 16 GiB image at the "
      "array's start, O_DIRECT, iodepth 8.\n\n";
  char line[512];
  std::snprintf(line, sizeof line,
                "  rebuild of one 3 TB member (measured in %d windows of %d s spread over the "
                "member, integrated):\n",
                kWindows, kWindowSeconds);
  s += line;
  const Nanos window = Nanos::FromSeconds(kWindowSeconds);
  std::vector<std::pair<int, std::pair<RebuildWindows, RebuildWindows>>> levels;
  for (int level : {5, 6}) {
    ASSIGN_OR_RETURN(auto idle,
                     MeasureRebuildWindows(Stack(level), kWindows, window, false, options.seed));
    ASSIGN_OR_RETURN(auto vms,
                     MeasureRebuildWindows(Stack(level), kWindows, window, true, options.seed));
    std::snprintf(line, sizeof line,
                  "    RAID%d  idle %5.1f h (%.1f-%.1f MB/s)   under the VMs %5.1f h "
                  "(%.1f-%.1f MB/s); the VMs' reads %.1f ms on average (%.1f ms healthy)\n",
                  level, idle.hours(), idle.min_rate / 1e6, idle.max_rate / 1e6, vms.hours(),
                  vms.min_rate / 1e6, vms.max_rate / 1e6, vms.vm_read_ms, vms.healthy_vm_read_ms);
    s += line;
    levels.emplace_back(level, std::make_pair(idle, vms));
  }
  std::snprintf(line, sizeof line,
                "\n  chance per rebuild (seeded Monte Carlo, %llu rebuilds a row; a drive that "
                "fails meanwhile is replaced at once and rebuilt after):\n",
                static_cast<unsigned long long>(kTrials));
  s += line;
  s += "    array  load  rates                     array lost       unreadable 4 KiB blocks "
       "(array kept)\n";
  for (const auto& [level, m] : levels) {
    for (int load = 0; load < 2; ++load) {
      const RebuildWindows& r = load == 0 ? m.first : m.second;
      const RebuildProfile profile(r.slice_hours);
      for (const Rates& rates : kRates) {
        RiskInputs in;
        in.members = 6;
        in.parity = level == 5 ? 1 : 2;
        in.member_bytes = static_cast<double>(r.member);
        in.afr = rates.afr;
        in.ure_per_bit = rates.ure;
        in.trials = kTrials;
        in.seed = options.seed;
        const RiskResult res = SimulateRebuildRisk(in, profile);
        std::snprintf(line, sizeof line,
                      "    RAID%d  %-4s  %-24s  %-15s  %s of rebuilds, %.3g a rebuild\n", level,
                      load == 0 ? "idle" : "VMs", rates.name,
                      Share(res.arrays_lost, res.trials).c_str(),
                      Share(res.with_unreadable, res.trials).c_str(), res.mean_unreadable());
        s += line;
      }
    }
  }
  const RebuildWindows& idle5 = levels[0].second.first;
  const RebuildWindows& vms5 = levels[0].second.second;
  std::snprintf(
      line, sizeof line,
      "\nUnder the VMs the RAID5 rebuild takes %.1f times as long (%.1f h instead of %.1f h): "
      "md lets foreground I/O go first whenever the rebuild runs above speed_limit_min "
      "(md_do_sync, is_mddev_idle), and every VM request moves the heads away from the "
      "rebuild's sequential pass.",
      vms5.hours() / idle5.hours(), vms5.hours(), idle5.hours());
  s += line;
  s += " RAID5 has no redundancy left while it rebuilds: a second drive failure loses the "
       "array, and every unrecoverable read error on the five survivors is a 4 KiB block md "
       "cannot rebuild (it records a bad block on the new drive and goes on: raid5.c "
       "handle_failed_sync), so a file there reads EIO. RAID6 corrects those from its second "
       "parity and loses the array only to two more failures. The URE figures are the data "
       "sheets' bounds; real drives usually do better.\n";
  return s;
}

}  // namespace storlab::scenarios
