// Whether waking a thread on another, idle CPU stalls the waker here — a
// property of the machine (its hypervisor), not of storlab, that the
// real-time exports' fidelity at QD1 depends on (docs/fusefs.md, stop 60).
//
// Each round is what fio's io_submit does to a FUSE server at QD1: a
// "submitter" pinned to one CPU wakes a "worker" pinned to another (a
// futex wake, as the kernel wakes a thread reading /dev/fuse) and goes on
// with 20 us of its own work, timing it; the worker, woken, works
// WORK_US and waits again; the submitter then sleeps 5 ms, so both CPUs
// go idle (and a virtual CPU halts) before the next round, as between an
// HDD's requests. Where the CPUs are the program's own, the submitter's
// 20 us take 20 us. On stop 60's PVM guest it sometimes stops for ~3 ms
// (in ~1 % of the rounds, more often the longer the worker works), with
// no steal time reported — as if the host ran the woken virtual CPU at the
// waker's expense for a scheduling slice; which, the guest cannot tell.
//
// Two passes: a worker that works 2 us (a server that blocks at once, as
// bench/fuse_passthrough.cc's sleeping mode) and one that works WORK_US
// (what `storlab mount`'s worker does for a request before it reads
// /dev/fuse again: 30-50 us here).
//
//   storlab_bench_wake_stall [ROUNDS [WORK_US]]   (defaults 1500, 50)
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <thread>

namespace storlab {
namespace {

using Clock = std::chrono::steady_clock;
constexpr auto kOwnWork = std::chrono::microseconds(20);
constexpr auto kStall = std::chrono::microseconds(300);
constexpr auto kIdle = std::chrono::milliseconds(5);

void Futex(std::atomic<uint32_t>& word, int op, uint32_t value) {
  // NOLINTNEXTLINE(cppcoreguidelines-pro-type-reinterpret-cast): the kernel's futex word
  ::syscall(SYS_futex, reinterpret_cast<uint32_t*>(&word), op, value, nullptr, nullptr, 0);
}

void Pin(int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  if (pthread_setaffinity_np(pthread_self(), sizeof set, &set) != 0)
    std::fprintf(stderr, "storlab_bench_wake_stall: cannot pin a thread to CPU %d\n", cpu);
}

void Busy(Clock::duration d) {
  const auto until = Clock::now() + d;
  while (Clock::now() < until) {
  }
}

struct PassResult {
  int stalls = 0;
  double stalled_ms = 0, worst_ms = 0;
};

PassResult Pass(int rounds, std::chrono::microseconds work, int cpu_a, int cpu_b) {
  std::atomic<uint32_t> word{0};
  std::atomic<bool> stop{false};
  std::thread worker([&] {
    Pin(cpu_b);
    uint32_t seen = 0;
    while (!stop.load()) {
      Futex(word, FUTEX_WAIT_PRIVATE, seen);
      const uint32_t now = word.load();
      if (now == seen) continue;  // a spurious wake-up
      seen = now;
      Busy(work);
    }
  });
  Pin(cpu_a);
  std::this_thread::sleep_for(kIdle);
  PassResult r;
  for (int i = 0; i < rounds; ++i) {
    const auto t0 = Clock::now();
    word.fetch_add(1);
    Futex(word, FUTEX_WAKE_PRIVATE, 1);
    Busy(kOwnWork);
    const auto late = Clock::now() - t0 - kOwnWork;
    const double late_ms = std::chrono::duration<double, std::milli>(late).count();
    if (late > kStall) {
      ++r.stalls;
      r.stalled_ms += late_ms;
    }
    r.worst_ms = std::max(r.worst_ms, late_ms);
    std::this_thread::sleep_for(kIdle);
  }
  stop.store(true);
  word.fetch_add(1);
  Futex(word, FUTEX_WAKE_PRIVATE, 1);
  worker.join();
  return r;
}

}  // namespace
}  // namespace storlab

int main(int argc, char** argv) {
  const int rounds = argc > 1 ? std::atoi(argv[1]) : 1500;
  const int work_us = argc > 2 ? std::atoi(argv[2]) : 50;
  if (rounds <= 0 || work_us < 0 || argc > 3) {
    std::fprintf(stderr, "usage: storlab_bench_wake_stall [ROUNDS [WORK_US]]\n");
    return 2;
  }
  // The first two CPUs this process may run on.
  cpu_set_t allowed;
  if (sched_getaffinity(0, sizeof allowed, &allowed) != 0) return 1;
  int cpus[2] = {-1, -1}, found = 0;
  for (int c = 0; c < CPU_SETSIZE && found < 2; ++c)
    if (CPU_ISSET(c, &allowed)) cpus[found++] = c;
  if (found < 2) {
    std::fprintf(stderr, "storlab_bench_wake_stall: needs two CPUs\n");
    return 1;
  }
  for (const int w : {2, work_us}) {
    const auto r = storlab::Pass(rounds, std::chrono::microseconds(w), cpus[0], cpus[1]);
    std::printf(
        "wake-ups across CPUs, the woken working %3d us: %d of %d stalled the waker > %.1f ms "
        "(%.2f %%, %.1f ms in all, worst %.2f ms)\n",
        w, r.stalls, rounds, std::chrono::duration<double, std::milli>(storlab::kStall).count(),
        100.0 * r.stalls / rounds, r.stalled_ms, r.worst_ms);
  }
  return 0;
}
