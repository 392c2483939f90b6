// `wearout`: an SSD's wear as Proxmox shows it ("Wearout": SMART percentage
// used), moving with a VM's writes times the drive's write amplification.
#include <cstdio>
#include <string>

#include "sim/devices/ssd.h"
#include "workloads/fio/fio_run.h"
#include "workloads/fio/job_file.h"
#include "workloads/host/sim_host.h"
#include "workloads/scenarios/scenario.h"

namespace storlab::scenarios {
namespace {

// What made the NAND writes exceed the host's, the largest first.
std::string Largest(const SsdWear& w) {
  struct Part {
    uint64_t bytes;
    const char* what;
  };
  Part parts[] = {
      {w.map_bytes_written,
       "mapping-table pages (a DRAM-less controller writes its map back to NAND as it "
       "changes)"},
      {w.gc_copied_bytes, "garbage collection copying still-valid pages out of blocks it erases"},
      {w.fold_bytes, "SLC-cached data folded into TLC"},
  };
  const Part* best = &parts[0];
  for (const Part& p : parts) {
    if (p.bytes > best->bytes) best = &p;
  }
  if (best->bytes == 0) return "none (padding of partial programs only)";
  return std::string(best->what) + ", " + Bytes(best->bytes);
}

}  // namespace

Result<std::string> RunWearout(const ScenarioOptions& options) {
  // A budget DRAM-less drive, 90 % full of the VMs' data (GC has to move
  // valid pages), and a VM that writes 16 KiB at random, 20 MB/s on
  // average, for two minutes.
  const std::string drive = "sata-ssd-dramless";
  const std::string stack_text = "[node.disk]\nuse = \"" + drive + "\"\nprefill = 0.9\n";
  const std::vector<std::string> args = {"--name=vm",    "--rw=randwrite",    "--bs=16k",
                                         "--direct=1",   "--ioengine=libaio", "--iodepth=4",
                                         "--size=200g",  "--rate=20m",        "--runtime=120",
                                         "--time_based", "--norandommap"};
  HostOptions ho;
  ho.stack = "wearout.toml";
  ho.stack_text = stack_text;
  ho.seed = options.seed;
  ASSIGN_OR_RETURN(auto fio_run, RunFio(ho, args));
  SimHost* host = fio_run.host.get();
  // The job's own time (no layout: a write job without overwrite).
  const auto& x = fio_run.run->runners().front()->extras();
  const Nanos t = x.end - x.start;
  const Ssd* ssd = nullptr;
  for (const auto& n : host->stack().nodes()) {
    if (auto* s = dynamic_cast<const Ssd*>(n.get())) ssd = s;
  }
  if (!ssd) return Status::Internal("wearout: no ssd in " + drive);
  const SsdWear& w = ssd->wear();
  const SsdConfig& c = ssd->config();
  const double used = w.percentage_used(c.raw_bytes(), c.rated_pe_cycles);
  const double host_rate = static_cast<double>(w.host_bytes_written) / t.seconds();
  const double nand_rate = static_cast<double>(w.nand_bytes_written) / t.seconds();
  const double budget = static_cast<double>(c.raw_bytes()) * c.rated_pe_cycles;  // NAND bytes
  const double days = nand_rate > 0 ? budget / nand_rate / 86400 : 0;
  const double tbw = w.write_amplification() > 0 ? budget / w.write_amplification() / 1e12 : 0;
  char buf[1600];
  std::snprintf(
      buf, sizeof buf,
      "wearout: a VM writing 16 KiB at random at %.1f MB/s on average (fio rate=20m) for %s to "
      "%s, %.0f %% full.\n\n"
      "  host writes       %s (%.1f MB/s)\n"
      "  NAND writes       %s (%.1f MB/s): write amplification %.2f (GC copied %s, SLC "
      "folding %s, mapping pages %s)\n"
      "  wear              %.6f %% of the rated %u P/E cycles over %s of NAND (SMART "
      "\"percentage used\", Proxmox's Wearout)\n\n"
      "At this rate the drive reaches 100 %% in %.0f days (%.1f years): it can take %.1f TB "
      "of host writes at this write amplification (its class is rated 72-80 TBW for 240 GB). "
      "The VM's %.1f MB/s becomes %.1f MB/s of NAND programs; the largest part beyond the "
      "VM's own data: %s.\n",
      host_rate / 1e6, Duration(t).c_str(), drive.c_str(), c.prefill * 100,
      Bytes(w.host_bytes_written).c_str(), host_rate / 1e6, Bytes(w.nand_bytes_written).c_str(),
      nand_rate / 1e6, w.write_amplification(), Bytes(w.gc_copied_bytes).c_str(),
      Bytes(w.fold_bytes).c_str(), Bytes(w.map_bytes_written).c_str(), used, c.rated_pe_cycles,
      Bytes(c.raw_bytes()).c_str(), days, days / 365.25, tbw, host_rate / 1e6, nand_rate / 1e6,
      Largest(w).c_str());
  return std::string(buf);
}

}  // namespace storlab::scenarios
