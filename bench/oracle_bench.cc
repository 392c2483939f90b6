// What the durability oracle and the RAM store cost per write, in CPU time:
// the work an export does on its engine thread for each request when it
// keeps data (`storlab mount --stack ram`, `nbdkit storlab stack=ram`),
// without the transport. Random 4 KiB writes at queue depth 32 over a `ram`
// device of CAPACITY_MIB (default 8 GiB; 512-byte logical blocks), each
// write's bytes distinct, then random 1 MiB reads at queue depth 8 (every
// block read is hashed and checked by the oracle); with the oracle and
// without it (the store alone), and a FLUSH every FLUSH_EVERY writes (0:
// never, as fio without fsync).
//
//   storlab_bench_oracle [WRITES] [FLUSH_EVERY] [CAPACITY_MIB]
//
// Prints CPU nanoseconds per I/O for each. A figure for comparing two
// builds in one run, never asserted (docs/fusefs.md, "the ceiling").
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <memory>
#include <vector>

#include "sim/devices/ram_disk.h"
#include "sim/engine.h"
#include "sim/oracle.h"
#include "sim/random.h"
#include "sim/stack.h"
#include "sim/store/ram_store.h"

namespace storlab {
namespace {

constexpr uint64_t kBlock = 4096;

double CpuSeconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

struct Figures {
  double write_ns = 0;  // per 4 KiB write
  double read_ns = 0;   // per 1 MiB read
};

// Runs `count` random `op`s of `bs` bytes over the first `capacity` bytes
// of `top` at queue depth `depth` (writes carry distinct bytes; a FLUSH
// every `flush_every` writes); returns CPU ns per I/O.
double RunIo(Engine& e, Node& top, uint64_t capacity, Op op, uint64_t count, uint64_t bs, int depth,
             uint64_t flush_every) {
  Random rng(1, op == Op::kWrite ? "writes" : "reads");
  std::vector<std::vector<uint8_t>> bufs(depth, std::vector<uint8_t>(bs));
  uint64_t issued = 0, stamp = 0;
  int in_flight = 0;
  std::vector<int> free_slots;
  free_slots.reserve(static_cast<size_t>(depth));
  for (int i = 0; i < depth; ++i) free_slots.push_back(i);
  const double t0 = CpuSeconds();
  auto fill = [&] {
    while (in_flight < depth && issued < count) {
      const int slot = free_slots.back();
      free_slots.pop_back();
      std::vector<uint8_t>& buf = bufs[slot];
      if (op == Op::kWrite) {
        // Distinct bytes per write: a stamp in every 512-byte block.
        ++stamp;
        for (uint64_t b = 0; b < bs; b += 512) std::memcpy(&buf[b], &stamp, sizeof stamp);
      }
      Request r;
      r.op = op;
      r.offset = rng.Uniform(capacity / bs) * bs;
      r.length = bs;
      r.data = buf.data();
      r.done = [&, slot](Status) {
        --in_flight;
        free_slots.push_back(slot);
      };
      ++in_flight;
      ++issued;
      top.Submit(std::move(r));
      if (op == Op::kWrite && flush_every != 0 && issued % flush_every == 0) {
        Request f;
        f.op = Op::kFlush;
        f.done = [](Status) {};
        top.Submit(std::move(f));
      }
    }
  };
  fill();
  while (e.Step()) fill();
  return (CpuSeconds() - t0) * 1e9 / static_cast<double>(count);
}

// Random 4 KiB writes at QD32, then random 1 MiB reads at QD8 (one per
// fifty writes) of what they left, on a fresh stack.
Figures Run(uint64_t capacity, uint64_t writes, uint64_t flush_every, bool with_oracle) {
  Engine e;
  Stack stack(e, "bench", 1, DataMode());
  RamDisk::Config cfg;
  cfg.capacity = capacity;
  Node* top = &stack.Adopt(std::make_unique<RamDisk>(e, "ram", cfg, std::make_unique<RamStore>()));
  if (with_oracle) top = &stack.Adopt(std::make_unique<Oracle>(e, *top));
  Figures f;
  f.write_ns = RunIo(e, *top, capacity, Op::kWrite, writes, kBlock, 32, flush_every);
  f.read_ns =
      RunIo(e, *top, capacity, Op::kRead, std::max<uint64_t>(1, writes / 50), 1 << 20, 8, 0);
  return f;
}

}  // namespace
}  // namespace storlab

int main(int argc, char** argv) {
  const uint64_t writes = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 1000000;
  const uint64_t flush_every = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 0;
  const uint64_t capacity =
      argc > 3 ? std::strtoull(argv[3], nullptr, 10) << 20 : uint64_t{8} << 30;  // bytes
  const storlab::Figures store = storlab::Run(capacity, writes, flush_every, false);
  const storlab::Figures oracle = storlab::Run(capacity, writes, flush_every, true);
  std::printf(
      "%llu random 4 KiB writes at QD32 on %llu MiB of ram (a FLUSH every %llu), then\n"
      "%llu random 1 MiB reads at QD8; CPU per I/O\n",
      static_cast<unsigned long long>(writes), static_cast<unsigned long long>(capacity >> 20),
      static_cast<unsigned long long>(flush_every),
      static_cast<unsigned long long>(std::max<uint64_t>(1, writes / 50)));
  std::printf("                  4 KiB write   1 MiB read\n");
  std::printf("store only:       %8.0f ns  %8.0f ns\n", store.write_ns, store.read_ns);
  std::printf("store and oracle: %8.0f ns  %8.0f ns\n", oracle.write_ns, oracle.read_ns);
  return 0;
}
