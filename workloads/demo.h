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
  std::string stack;   // catalog stack (or file)
  double published_mbps;
};

// The twelve published cells, in table order.
const std::vector<Cell>& SeedCells();

// The seed's host: one Proxmox node ran fio for all four options, so every
// cell gets the same host. Its RAM is not published: assumed 32 GiB, the
// most an HP EliteDesk 800 G1/G2 takes (HP QuickSpecs: 4 slots, up to 32 GB).
// Fitted within 16-32 GiB: the NAS figure for test B needs test B's 4 GiB
// under the client's dirty limits (freerun = 15 % of the dirtyable memory
// > 4.29 GB needs >= 28.6 GB); with 16 GiB the writers are throttled to the
// link and B/nas comes out at ~4 % of the published figure.
constexpr uint64_t kSeedHostMem = uint64_t{32} << 30;
constexpr uint32_t kSeedHostCores = 4;  // 4-core Core i5/i7 of 2013-2015 (seed-results.md)

struct DemoOptions {
  std::vector<Cell> cells = SeedCells();
  uint64_t seed = 1;
  std::optional<uint64_t> host_mem = kSeedHostMem;      // nullopt: each stack's own [host]
  std::optional<uint32_t> host_cores = kSeedHostCores;  // nullopt: each stack's own [host]
  std::optional<Nanos> runtime;                         // overrides the job files' 60 s (tests)
  std::string jobs_dir;                                 // where seed-a.fio ... live
  unsigned threads = 0;                                 // 0: the machine's cores
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
  double wall_seconds = 0;
  uint64_t events = 0;
};

// Runs every cell; `progress` (may be empty) hears of each finished cell.
std::vector<CellResult> RunDemo(const DemoOptions& options,
                                const std::function<void(const CellResult&)>& progress);

// The printed table, its explanations and the acceptance summary.
std::string DemoReport(const std::vector<CellResult>& results);
// CSV: test,option,published_mbps,simulated_mbps,ratio.
std::string DemoCsv(const std::vector<CellResult>& results);

}  // namespace storlab::demo

#endif  // STORLAB_WORKLOADS_DEMO_H_
