#include "workloads/node_probe.h"

#include <functional>
#include <vector>

#include "sim/random.h"
#include "sim/virtual_driver.h"
#include "sim/watchdog.h"

namespace storlab {
namespace {
constexpr uint64_t kMaxIos = 20'000'000;
}  // namespace

ProbeResult RunProbe(Engine& engine, Node& node, const ProbeSpec& spec, const Stack* watched) {
  ProbeResult res;
  const uint64_t bs = spec.block_size;
  const uint64_t cap = node.geometry().capacity;
  const uint64_t span = spec.span ? std::min(spec.span, cap - spec.offset) : cap - spec.offset;
  const uint64_t blocks = span / bs;
  if (blocks == 0) {
    res.status = Status::InvalidArgument("the span (" + std::to_string(span) + " bytes) holds no " +
                                         std::to_string(bs) + "-byte block");
    return res;
  }
  Random rng(spec.seed, "probe");
  const Nanos start = engine.now();
  const Nanos stop = start + spec.duration;
  uint64_t next_seq = 0;
  uint64_t issued = 0;
  double latency_sum_ns = 0;
  bool stopping = false;
  uint32_t in_flight = 0;

  std::function<void()> issue = [&]() {
    // A device without latency would run forever at one instant: stop once
    // that is clear.
    const uint64_t cap = spec.max_ios ? spec.max_ios : kMaxIos;
    const bool timeless = issued >= 10000 && engine.now() == start;
    if (stopping || engine.now() >= stop || issued >= cap || timeless) {
      stopping = true;
      return;
    }
    ++issued;
    ++in_flight;
    uint64_t blk = spec.random ? rng.Uniform(blocks) : (next_seq++ % blocks);
    Nanos t0 = engine.now();
    auto on_done = [&, t0](Status st) {
      auto finish = [&, t0](Status s2) {
        --in_flight;
        if (!s2.ok()) {
          if (res.status.ok()) res.status = s2;
          ++res.errors;
        } else {
          ++res.ios;
          res.bytes += bs;
          latency_sum_ns += static_cast<double>((engine.now() - t0).count());
        }
        res.elapsed = engine.now() - start;
        issue();
      };
      if (st.ok() && spec.flush_each && spec.op == Op::kWrite) {
        node.Submit(Request{.op = Op::kFlush, .done = std::move(finish)});
      } else {
        finish(std::move(st));
      }
    };
    node.Submit(Request{.op = spec.op,
                        .flags = (spec.fua ? kFua : 0U) | (spec.direct ? kDirect : 0U),
                        .offset = spec.offset + blk * bs,
                        .length = bs,
                        .done = std::move(on_done)});
  };
  for (uint32_t q = 0; q < spec.queue_depth; ++q) issue();
  // Requests issued within the window count, so run until the last one is
  // done (not until idle: a model may have background work of its own).
  // Probes run on the node's own stack only if one is given.
  if (watched) {
    Watchdog watchdog(*watched);
    Status st = VirtualDriver(engine).RunWatched([&] { return in_flight > 0; }, watchdog);
    if (!st.ok()) {
      res.status = st;
      engine.Clear();  // the stuck requests' callbacks point into this frame
      return res;
    }
  } else {
    VirtualDriver(engine).RunWhile([&] { return in_flight > 0; });
  }
  if (res.elapsed > Nanos(0)) {
    res.iops = static_cast<double>(res.ios) / res.elapsed.seconds();
    res.bytes_per_s = static_cast<double>(res.bytes) / res.elapsed.seconds();
  }
  if (res.ios) res.mean_latency_us = latency_sum_ns / static_cast<double>(res.ios) / 1e3;
  return res;
}

}  // namespace storlab
