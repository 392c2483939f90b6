// Fuzz target: the stack-file loader (sim/profile/loader.h) and every model it
// can build.
//
// Input: the text of a stack file. Loading must return a built stack or an
// error that names the file ("fuzz.toml") and quotes the input only short
// and printable (FUZZ_CHECK_MESSAGE), never crash, leak or hit undefined
// behaviour. A stack that loads is built three times, timing-only (DataMode
// kNone, as terabyte runs are) and twice with data in RAM, and each gets the
// short conformance run of stack_check.h (the RAM ones must return what was
// written). The two RAM runs must complete at identical times (determinism:
// no uninitialised state, no address-dependent order), and so must the
// timing-only run, except for models whose timing depends on the data by
// design (DataDependentTiming).
//
// `use = "file.toml"` is looked up in a directory that does not exist, so a
// stack can only use catalog stacks (and absolute paths).
#include <cstdint>
#include <string>
#include <string_view>

#include "sim/engine.h"
#include "sim/node.h"
#include "sim/profile/loader.h"
#include "tests/fuzz/fuzz_check.h"
#include "tests/fuzz/stack_check.h"

namespace storlab {
namespace {

constexpr std::string_view kLabel = "fuzz.toml";
constexpr std::string_view kDir = "/nonexistent/storlab-fuzz";
constexpr size_t kBigStack = 256;  // nodes

// Whether `node`'s timing depends on the data by design, so a timing-only
// run (DataMode kNone) may differ from one with data: ZFS compresses the real
// data when there is some, and uses `compress_ratio` when there is none.
bool DataDependentTiming(const Node& node) { return node.type() == "zfs"; }

Result<LoadedStack> Load(std::string_view text, Engine& engine, DataMode::Kind kind) {
  BuildOptions options;
  options.seed = 7;
  options.data_mode.kind = kind;
  return LoadStackText(text, kLabel, kDir, engine, options);
}

}  // namespace
}  // namespace storlab

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace storlab;
  std::string_view text(reinterpret_cast<const char*>(data), size);

  std::vector<int64_t> times[3];
  bool data_dependent = false;
  const DataMode::Kind kinds[3] = {DataMode::Kind::kNone, DataMode::Kind::kRam,
                                   DataMode::Kind::kRam};
  for (int run = 0; run < 3; ++run) {
    Engine engine;
    auto loaded = Load(text, engine, kinds[run]);
    if (!loaded.ok()) {
      const std::string& msg = loaded.status().message();
      FUZZ_CHECK(run == 0, "loads timing-only but not with data in RAM: " + msg);
      FUZZ_CHECK(msg.find(kLabel) != std::string::npos,
                 "a load error does not name the file: " + msg);
      FUZZ_CHECK_MESSAGE(msg);
      return 0;
    }
    for (const auto& node : loaded->stack->nodes()) {
      if (DataDependentTiming(*node)) data_dependent = true;
    }
    times[run] = fuzz::CheckStack(engine, *loaded->stack, kinds[run] != DataMode::Kind::kNone);
    // A stack of hundreds of nodes costs seconds to build (statistics for
    // each): one run is enough, the fuzzer's time is better spent elsewhere.
    if (loaded->stack->nodes().size() > kBigStack) return 0;
  }
  FUZZ_CHECK(times[1] == times[2],
             "two identical runs (same stack, workload and seed) complete at different times:\n"
             "  first:  " +
                 fuzz::Join(times[1]) + "\n  second: " + fuzz::Join(times[2]));
  FUZZ_CHECK(data_dependent || times[0] == times[1],
             "completion times differ between DataMode kNone and kRam (the timing of a run "
             "must not depend on where data is kept):\n  kNone: " +
                 fuzz::Join(times[0]) + "\n  kRam:  " + fuzz::Join(times[1]));
  return 0;
}
