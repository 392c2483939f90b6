#include "cli/probe.h"

#include <cstdio>

#include "sim/engine.h"
#include "sim/profile/loader.h"
#include "workloads/node_probe.h"

namespace storlab::cli {
namespace {

struct Column {
  const char* header;
  Op op;
  uint64_t block_size;
  uint32_t queue_depth;
  bool random;
  bool latency;  // print the mean latency rather than the rate
};

// CrystalDiskMark's tests: RND4K Q1T1 and Q32T1, SEQ1M Q8T1.
const Column kColumns[] = {
    {"4K QD1 read", Op::kRead, 4096, 1, true, false},
    {"4K QD32 read", Op::kRead, 4096, 32, true, false},
    {"4K QD1 write", Op::kWrite, 4096, 1, true, false},
    {"4K QD32 write", Op::kWrite, 4096, 32, true, false},
    {"1M QD8 read", Op::kRead, 1 << 20, 8, false, false},
    {"1M QD8 write", Op::kWrite, 1 << 20, 8, false, false},
    {"QD1 read lat", Op::kRead, 4096, 1, true, true},
};

std::string Cell(const Column& c, const ProbeResult& r) {
  char buf[32];
  if (r.ios == 0 || !r.status.ok()) return "error";
  if (r.elapsed == Nanos(0)) return c.latency ? "0" : "no limit";
  if (c.latency) {
    double us = r.mean_latency_us;
    if (us >= 1000)
      std::snprintf(buf, sizeof buf, "%.2f ms", us / 1000);
    else
      std::snprintf(buf, sizeof buf, "%.1f us", us);
  } else if (c.block_size >= (1 << 20)) {
    std::snprintf(buf, sizeof buf, "%.0f MB/s", r.bytes_per_s / 1e6);
  } else if (r.iops >= 10000) {
    std::snprintf(buf, sizeof buf, "%.0fK IOPS", r.iops / 1000);
  } else {
    std::snprintf(buf, sizeof buf, "%.0f IOPS", r.iops);
  }
  return buf;
}

}  // namespace

int ProbeStacks(const std::vector<std::string>& stacks, const ProbeOptions& o) {
  std::printf("%-22s", "stack");
  for (const auto& c : kColumns) std::printf(" %13s", c.header);
  std::printf("\n");
  int status = 0;
  for (const auto& name : stacks) {
    std::printf("%-22s", name.c_str());
    std::fflush(stdout);
    std::vector<std::string> why;  // each failed cell's reason, after the row
    for (const auto& c : kColumns) {
      // A fresh stack per measurement: no cache or SLC state carries over.
      Engine engine;
      BuildOptions bo;
      bo.seed = o.seed;
      bo.data_mode.kind = DataMode::Kind::kNone;
      auto loaded = LoadStack(name, engine, bo);
      if (!loaded.ok()) {
        std::printf("\n");
        std::fprintf(stderr, "storlab stacks probe: %s\n", loaded.status().ToString().c_str());
        status = 1;
        break;
      }
      ProbeSpec spec;
      spec.op = c.op;
      spec.block_size = c.block_size;
      spec.queue_depth = c.queue_depth;
      spec.random = c.random;
      spec.span = c.random ? o.span : 0;
      spec.duration = Nanos::FromSeconds(o.seconds);
      spec.seed = o.seed;
      ProbeResult r = RunProbe(engine, loaded->stack->root(), spec, loaded->stack.get());
      if (r.ios == 0 || !r.status.ok()) {
        why.push_back(std::string(c.header) + ": " +
                      (r.status.ok() ? "no I/O completed" : r.status.message()));
        status = 1;
      }
      std::printf(" %13s", Cell(c, r).c_str());
      std::fflush(stdout);
    }
    std::printf("\n");
    std::fflush(stdout);
    for (const auto& w : why)
      std::fprintf(stderr, "storlab stacks probe: %s: %s\n", name.c_str(), w.c_str());
  }
  return status;
}

}  // namespace storlab::cli
