// The seeds' three fio random-write tests (seed-results.md §1), driven in
// virtual time against the ZFS stacks and against a page cache over a
// 117.7 MB/s device (the NAS inflation), with a small fio-like driver:
// files laid out first, `numjobs` jobs of `iodepth` writes, 60 s
// time_based, then end_fsync; bandwidth = all bytes / the slowest job's
// runtime (fio stat.c). Prints figures; asserts nothing.
//
//   storlab_bench_seed [STACK ...]     (default: ssd-zfs usb-nvme-zfs-mirror)
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "sim/engine.h"
#include "sim/layers/page_cache/page_cache.h"
#include "sim/profile/loader.h"
#include "sim/random.h"
#include "sim/virtual_driver.h"

namespace storlab {
namespace {

struct Test {
  const char* name;
  uint64_t bs, size;
  uint32_t jobs, iodepth;
};
const Test kTests[] = {{"A: 1 x 4 KiB", 4096, 4ull << 30, 1, 1},
                       {"B: 16 x 64 KiB", 65536, 256ull << 20, 16, 16},
                       {"C: 1 x 1 MiB", 1 << 20, 16ull << 30, 1, 1}};

// Lays the files out (fio writes new files sequentially before the run).
void Layout(Engine& e, Node& n, const Test& t) {
  uint64_t off = 0, end = t.size * t.jobs;
  int inflight = 0;
  std::function<void()> next = [&] {
    if (off >= end) return;
    Request r{.op = Op::kWrite,
              .offset = off,
              .length = std::min<uint64_t>(1 << 20, end - off),
              .file_id = static_cast<uint32_t>(off / t.size) + 1,
              .done = [&](Status) {
                --inflight;
                next();
              }};
    off += r.length;
    ++inflight;
    n.Submit(std::move(r));
  };
  next();
  VirtualDriver(e).RunWhile([&] { return inflight > 0; });
}

double Run(Engine& e, Node& n, const Test& t, Nanos runtime, Nanos* fsync_time) {
  const Nanos start = e.now(), stop = start + runtime;
  uint64_t bytes = 0;
  Nanos slowest;
  uint32_t finished = 0;
  std::vector<Random> rng;
  std::vector<uint32_t> inflight(t.jobs, 0);
  for (uint32_t j = 0; j < t.jobs; ++j) rng.emplace_back(1000 + j);
  std::function<void(uint32_t)> issue = [&](uint32_t j) {
    const uint32_t file = j + 1;
    if (e.now() >= stop) {
      if (inflight[j] > 0) return;  // the last write in flight ends the job
      const Nanos t0 = e.now();
      Request f{.op = Op::kFlush, .file_id = file, .done = [&, t0](Status) {
                  *fsync_time = Max(*fsync_time, e.now() - t0);
                  slowest = Max(slowest, e.now() - start);
                  ++finished;
                }};
      inflight[j] = 1000;  // no more writes
      n.Submit(std::move(f));
      return;
    }
    Request r{.op = Op::kWrite,
              .offset = j * t.size + rng[j].Uniform(t.size / t.bs) * t.bs,
              .length = t.bs,
              .file_id = file,
              .done = [&, j](Status st) {
                --inflight[j];
                if (st.ok()) bytes += t.bs;
                issue(j);
              }};
    ++inflight[j];
    n.Submit(std::move(r));
  };
  for (uint32_t j = 0; j < t.jobs; ++j)
    for (uint32_t q = 0; q < t.iodepth; ++q) issue(j);
  VirtualDriver(e).RunWhile([&] { return finished < t.jobs; });
  return static_cast<double>(bytes) / slowest.seconds() / 1e6;
}

void RunStack(const std::string& text_or_name, bool is_text, const char* label) {
  std::printf("%s\n", label);
  for (const Test& t : kTests) {
    Engine e;
    BuildOptions o;
    o.data_mode.kind = DataMode::Kind::kNone;
    auto s =
        is_text ? LoadStackText(text_or_name, label, ".", e, o) : LoadStack(text_or_name, e, o);
    if (!s.ok()) {
      std::printf("  %s\n", s.status().ToString().c_str());
      return;
    }
    Node& root = s->stack->root();
    Layout(e, root, t);
    Nanos fsync;
    const double mbs = Run(e, root, t, Nanos(60'000'000'000), &fsync);
    StatList stats;
    root.AppendStats(stats);
    std::printf("  %-16s %8.1f MB/s   end_fsync %.1f s  ", t.name, mbs, fsync.seconds());
    for (const auto& v : stats)
      if (v.name == "absorbed_bytes" || v.name == "rewritten_dirty_bytes" ||
          v.name == "written_back_bytes" || v.name == "physical_bytes" || v.name == "rmw_reads" ||
          v.name == "throttle_ns" || v.name == "throttled_ns")
        std::printf(" %s=%.3g", v.name.c_str(), v.value);
    std::printf("\n");
  }
}

std::string NasLike(const std::string& mem) {
  return R"(
[node.pc]
type = "page_cache"
child = "link"
mem = ")" +
         mem + R"("
[node.link]
type = "ram"
capacity = "64GiB"
bandwidth = "117.7MB/s"
queue_depth = 1
)";
}

}  // namespace
}  // namespace storlab

int main(int argc, char** argv) {
  std::vector<std::string> stacks;
  for (int i = 1; i < argc; ++i) stacks.push_back(argv[i]);
  if (stacks.empty()) stacks = {"ssd-zfs", "usb-nvme-zfs-mirror", "nas-like"};
  for (const auto& s : stacks) {
    if (s == "nas-like") {
      storlab::RunStack(storlab::NasLike("16GiB"), true,
                        "page cache (16 GiB host) over a 117.7 MB/s device");
      storlab::RunStack(storlab::NasLike("32GiB"), true,
                        "page cache (32 GiB host) over a 117.7 MB/s device");
    } else {
      storlab::RunStack(s, false, s.c_str());
    }
  }
  return 0;
}
