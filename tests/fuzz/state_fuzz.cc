// Fuzz target: the readers of a saved state's node records (storlab sim
// --state, docs/state.md) for the layer types: Node::RestoreState of thin,
// cache (smq with a cache device, lru in RAM), raid, zfs (compression off:
// the sample of a compressed timing-only pool is megabytes of record bytes),
// nfs with a server cache, faults and qcow2.
//
// Input: byte 0 picks the stack (its node `top` is the one restored), byte
// 1's low bit the data mode (timing only, or data in RAM); the rest is the
// node's records, as a node-top.state file holds them after its header
// (tests/fuzz/corpus/state/ has saved ones). Restoring must return OK or an
// error naming the file and offset, never crash or hit undefined
// behaviour; what restores must save again, and that saved state must
// restore and save to the same bytes (a state is one byte string).
#include <cstdint>
#include <string>
#include <string_view>

#include "sim/engine.h"
#include "sim/node.h"
#include "sim/profile/loader.h"
#include "sim/state_coding.h"
#include "tests/fuzz/fuzz_check.h"

namespace storlab {
namespace {

constexpr std::string_view kRam = "[node.ram]\ntype = \"ram\"\ncapacity = \"64MiB\"\n";

// Each stack's `top` is the layer under test; `ram` (or its copies) below.
std::string StackText(uint8_t pick) {
  switch (pick % 8) {
    case 0:
      return "[node.top]\ntype = \"thin\"\nchild = \"ram\"\nvirtual_size = \"256MiB\"\n" +
             std::string(kRam);
    case 1:
      return "[node.top]\ntype = \"cache\"\nchildren = [\"fast\", \"ram\"]\nmode = \"writeback\"\n"
             "size = \"8MiB\"\n[node.fast]\ntype = \"ram\"\ncapacity = \"16MiB\"\n" +
             std::string(kRam);
    case 2:
      return "[node.top]\ntype = \"cache\"\nchildren = [\"ram\"]\npolicy = \"lru\"\n"
             "size = \"4MiB\"\n" +
             std::string(kRam);
    case 3:
      return "[node.top]\ntype = \"raid\"\nlevel = 1\nchildren = [\"ram\"]\n" + std::string(kRam) +
             "count = 2\n";
    case 4:
      return "[node.top]\ntype = \"zfs\"\nlayout = \"mirror\"\nchildren = [\"ram\"]\n"
             "mem = \"256MiB\"\ncompression = \"off\"\n" +
             std::string(kRam) + "count = 2\n";
    case 5:
      return "[node.top]\ntype = \"nfs\"\nchild = \"ram\"\nserver_cache_size = \"4MiB\"\n" +
             std::string(kRam);
    case 6:
      return "[node.top]\ntype = \"faults\"\nchild = \"ram\"\nspike_probability = 0.5\n"
             "spike_latency = \"1ms\"\n" +
             std::string(kRam);
    default:
      return "[node.top]\ntype = \"qcow2\"\nchild = \"ram\"\nsize = \"32MiB\"\n" +
             std::string(kRam);
  }
}

struct Restored {
  Engine engine;
  Result<LoadedStack> loaded = Status::Internal("not loaded");
  Status status;
  std::string saved;  // what the restored node saves, when it restored
};

void Restore(std::string_view records, uint8_t pick, DataMode::Kind kind, Restored& out) {
  BuildOptions options;
  options.data_mode.kind = kind;
  out.loaded =
      LoadStackText(StackText(pick), "state-fuzz.toml", "/nonexistent", out.engine, options);
  FUZZ_CHECK(out.loaded.ok(), "the fuzz stack does not load: " + out.loaded.status().ToString());
  Node* top = out.loaded->stack->Find("top");
  FUZZ_CHECK(top != nullptr && top->CanSaveState(), "no node top that can save");
  StateReader r(records, "state/node-top.state");
  out.status = top->RestoreState(r);
  if (out.status.ok()) out.status = r.Finish();
  if (!out.status.ok()) return;
  StateWriter w;
  const Status saved = top->SaveState(w);
  FUZZ_CHECK(saved.ok(), "a restored node does not save: " + saved.ToString());
  out.saved = w.Take();
}

}  // namespace
}  // namespace storlab

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace storlab;
  if (size < 2) return 0;
  const uint8_t pick = data[0];
  const DataMode::Kind kind = (data[1] & 1) ? DataMode::Kind::kRam : DataMode::Kind::kNone;
  const std::string_view records(reinterpret_cast<const char*>(data + 2), size - 2);
  Restored first;
  Restore(records, pick, kind, first);
  if (!first.status.ok()) {
    const std::string& msg = first.status.message();
    FUZZ_CHECK(msg.find("state/node-top.state") != std::string::npos,
               "a restore error does not name the file: " + msg);
    FUZZ_CHECK_MESSAGE(msg);
    return 0;
  }
  Restored second;
  Restore(first.saved, pick, kind, second);
  FUZZ_CHECK(second.status.ok(), "a saved state does not restore: " + second.status.ToString());
  FUZZ_CHECK(second.saved == first.saved, "save, restore, save changes the bytes");
  return 0;
}
