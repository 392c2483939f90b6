// Test helpers for per-file buffered I/O: one request with a file id, and
// a few fio-like jobs (time-based, QD1, end_fsync) in virtual time.
#ifndef STORLAB_TESTS_SIM_PAGE_CACHE_UTIL_H_
#define STORLAB_TESTS_SIM_PAGE_CACHE_UTIL_H_

#include <cstdint>
#include <functional>
#include <vector>

#include "sim/engine.h"
#include "sim/node.h"
#include "sim/random.h"
#include "sim/virtual_driver.h"
#include "tests/sim/test_util.h"

namespace storlab::testing {

// DoIo with a file id.
inline IoResult PcIo(Engine& e, Node& n, Op op, uint64_t off, uint64_t len, uint8_t* data,
                     uint32_t flags, uint32_t file) {
  return DoIo(e, n, op, off, len, data, flags, file);
}

struct Job {
  uint32_t file;
  uint64_t offset;  // where the file lies on the device
  uint64_t size;
  uint64_t block_size;
  bool random = true;
};
struct JobsResult {
  uint64_t bytes = 0;  // written by all jobs
  Nanos elapsed;       // until the last job's end_fsync completed
  Nanos longest_fsync;
  uint64_t errors = 0;
};

// Runs `jobs` writing at QD1 for `runtime` of virtual time, then each
// fsyncs its file (fio's end_fsync). Like fio's group bandwidth, the
// result is all bytes over the slowest job's runtime.
inline JobsResult RunWriteJobs(Engine& e, Node& n, const std::vector<Job>& jobs, Nanos runtime,
                               uint64_t seed = 1) {
  JobsResult res;
  const Nanos start = e.now();
  const Nanos stop = start + runtime;
  size_t finished = 0;
  std::vector<Random> rngs;
  std::vector<uint64_t> next(jobs.size(), 0);
  for (size_t i = 0; i < jobs.size(); ++i) rngs.emplace_back(seed + i);
  std::function<void(size_t)> issue = [&](size_t j) {
    const Job& job = jobs[j];
    if (e.now() >= stop) {
      const Nanos t0 = e.now();
      auto synced = [&, t0](Status st) {
        if (!st.ok()) ++res.errors;
        res.longest_fsync = Max(res.longest_fsync, e.now() - t0);
        res.elapsed = Max(res.elapsed, e.now() - start);
        ++finished;
      };
      n.Submit(Request{.op = Op::kFlush, .file_id = job.file, .done = std::move(synced)});
      return;
    }
    const uint64_t blocks = job.size / job.block_size;
    const uint64_t b = job.random ? rngs[j].Uniform(blocks) : next[j]++ % blocks;
    auto written = [&, j](Status st) {
      if (st.ok()) {
        res.bytes += jobs[j].block_size;
      } else {
        ++res.errors;
      }
      issue(j);
    };
    n.Submit(Request{.op = Op::kWrite,
                     .offset = job.offset + b * job.block_size,
                     .length = job.block_size,
                     .file_id = job.file,
                     .done = std::move(written)});
  };
  for (size_t j = 0; j < jobs.size(); ++j) issue(j);
  VirtualDriver(e).RunWhile([&] { return finished < jobs.size(); });
  return res;
}

}  // namespace storlab::testing

#endif  // STORLAB_TESTS_SIM_PAGE_CACHE_UTIL_H_
