#include "sim/serve/model_speed.h"

#include "sim/profile/loader.h"
#include "sim/quoted.h"
#include "sim/random.h"
#include "sim/virtual_driver.h"

namespace storlab {
namespace {

// Keeps `depth` 4 KiB random reads in flight until `total` have completed;
// returns the simulated time taken.
Nanos RandomReads(Engine& engine, Node& node, uint32_t depth, uint64_t total, uint64_t seed) {
  struct State {
    Engine& engine;
    Node& node;
    Random rng;
    uint64_t issued = 0, done = 0, total, blocks;
    void Issue() {
      if (issued == total) return;
      ++issued;
      Request r{.op = Op::kRead,
                .offset = rng.Uniform(blocks) * 4096,
                .length = 4096,
                .done = [this](Status) {
                  ++done;
                  Issue();
                }};
      node.Submit(std::move(r));
    }
  };
  State s{engine, node, Random(seed, "model-speed"), 0, 0, total, node.geometry().capacity / 4096};
  if (s.blocks == 0) return Nanos(0);
  const Nanos start = engine.now();
  for (uint32_t i = 0; i < depth; ++i) s.Issue();
  VirtualDriver(engine).RunWhile([&] { return s.done < total; });
  return engine.now() - start;
}

}  // namespace

Result<ModelSpeed> MeasureModelSpeed(std::string_view stack, std::string_view node, uint64_t seed) {
  Engine engine;
  BuildOptions bo;
  bo.seed = seed;
  bo.data_mode.kind = DataMode::Kind::kNone;
  ASSIGN_OR_RETURN(LoadedStack loaded, LoadStack(stack, engine, bo));
  Node* n = loaded.stack->Find(node);
  if (n == nullptr) return Status::NotFound("model speed: no node " + Quoted(node));
  ModelSpeed out;
  constexpr uint64_t kQd1 = 200, kQd32 = 2000;
  Nanos t1 = RandomReads(engine, *n, 1, kQd1, seed);
  Nanos t32 = RandomReads(engine, *n, 32, kQd32, seed + 1);
  if (t1 > Nanos(0)) {
    out.qd1_latency_us = t1.micros() / kQd1;
    out.qd1_iops = kQd1 / t1.seconds();
  }
  if (t32 > Nanos(0)) out.qd32_iops = kQd32 / t32.seconds();
  return out;
}

}  // namespace storlab
