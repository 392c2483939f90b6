// The seed table (shared/reference/seed-results.md §1) in virtual time:
// three fio tests (workloads/jobs/seed-{a,b,c}.fio, 60 s time_based with
// end_fsync) on four storage options, published figure next to simulated
// one, and — for every cell that beats its stack's link or device limit by
// more than 2× — a paragraph, computed from the run's own layer statistics,
// that says where the bytes went (demo_explain.h). CSV and a gnuplot bar
// chart (demo_plot.h) for the same results.
//
// Cells run in parallel threads, each on its own engine and stack, so the
// results do not depend on the thread count. Thread-compatible API.
#ifndef STORLAB_WORKLOADS_DEMO_H_
#define STORLAB_WORKLOADS_DEMO_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "sim/status.h"
#include "sim/time.h"

namespace storlab::demo {

struct Cell {
  char test;           // 'A', 'B', 'C'
  std::string option;  // nvme, nas, ssd-zfs, usb-zfs
  std::string stack;   // catalog stack, or file (a bare *.toml name: in DemoOptions::jobs_dir)
  double published_mbps;
};

// The twelve published cells, in table order.
const std::vector<Cell>& SeedCells();

// The seed's hosts. The author ran fio on his Proxmox nodes (HP EliteDesk
// 800 G1/G2, 4 cores, RAM not published: QuickSpecs allow 8-32 GB). Each
// option's stack carries the node it ran on in its [host] table, and the
// demo uses it unless told otherwise: 32 GiB for the NAS and ZFS options
// (the NAS figure for test B needs test B's 4 GiB under the client's dirty
// limits: freerun = 15 % of the dirtyable memory > 4.29 GB needs >= 28.6 GB;
// with 16 GiB the writers are throttled to the link, ~4 % of the published
// figure), 8 GiB for the NVMe one (workloads/jobs/seed-nvme-node.toml: with
// >= 16 GiB its test B would run at memory speed, above the NAS, which the
// seed does not show). kSeedHostMem is the NAS node's.
constexpr uint64_t kSeedHostMem = uint64_t{32} << 30;
constexpr uint32_t kSeedHostCores = 4;  // 4-core Core i5/i7 of 2013-2015 (seed-results.md)

struct DemoOptions {
  std::vector<Cell> cells = SeedCells();
  uint64_t seed = 1;
  std::optional<uint64_t> host_mem;    // every cell's host RAM; nullopt: each stack's [host]
  std::optional<uint32_t> host_cores;  // every cell's cores; nullopt: each stack's [host]
  std::optional<Nanos> runtime;        // overrides the job files' 60 s (tests)
  // fio options set in every job of the job files (key, value): the
  // scenarios' variants (e.g. direct=1).
  std::vector<std::pair<std::string, std::string>> job_overrides;
  std::string jobs_dir;  // where seed-a.fio ... live
  unsigned threads = 0;  // 0: the machine's cores
  // --report DIR: each cell's run report (workloads/report/html_report.h)
  // as DIR/test-A-nvme.html (+ .csv); "" none.
  std::string report_dir;
};

struct CellResult {
  Cell cell;
  Status status;              // not OK: the cell did not run (e.g. stack missing)
  double simulated_mbps = 0;  // fio's group bandwidth, 10^6 bytes/s
  double ratio = 0;           // simulated / published
  double limit_mbps = 0;      // the stack's narrowest link, or what its device wrote
  std::string limit_what;
  bool flagged = false;     // simulated > 2 × limit
  std::string explanation;  // for flagged cells
  std::string report;       // the report's file, when DemoOptions::report_dir is set
  double wall_seconds = 0;
  uint64_t events = 0;
  // The longest job's end_fsync (fio's final fsync, inside its runtime), and
  // whether the stack is an NFS mount (the report prints its tail).
  double end_fsync_s = 0;
  bool nfs = false;
};

// Runs every cell; `progress` (may be empty) hears of each finished cell.
std::vector<CellResult> RunDemo(const DemoOptions& options,
                                const std::function<void(const CellResult&)>& progress);

// The printed table, its explanations and the acceptance summary.
// `runtime`: the jobs' runtime when DemoOptions::runtime overrode the job
// files' 60 s (the header says so).
std::string DemoReport(const std::vector<CellResult>& results,
                       std::optional<Nanos> runtime = std::nullopt);
// CSV: test,option,published_mbps,simulated_mbps,ratio.
std::string DemoCsv(const std::vector<CellResult>& results);

}  // namespace storlab::demo

#endif  // STORLAB_WORKLOADS_DEMO_H_
