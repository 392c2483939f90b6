// Fuzz target: the stack-file loader (sim/profile/loader.h) and every model it
// can build.
//
// Input: the text of a stack file. Loading must return a built stack or an
// error that names the file ("fuzz.toml"), never crash, leak or hit undefined
// behaviour. A stack that loads is built twice, timing-only (DataMode kNone,
// as terabyte runs are) and with data in RAM, and both get the short
// conformance run of stack_check.h; both must complete at the same times
// (timing does not depend on the data mode) and the RAM one must return what
// was written.
//
// `use = "file.toml"` is looked up in a directory that does not exist, so a
// stack can only use catalog stacks (and absolute paths).
#include <cstdint>
#include <string>
#include <string_view>

#include "sim/engine.h"
#include "sim/profile/loader.h"
#include "tests/fuzz/fuzz_check.h"
#include "tests/fuzz/stack_check.h"

namespace storlab {
namespace {

constexpr std::string_view kLabel = "fuzz.toml";
constexpr std::string_view kDir = "/nonexistent/storlab-fuzz";

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

  Engine timing_engine;
  auto timing = Load(text, timing_engine, DataMode::Kind::kNone);
  if (!timing.ok()) {
    const std::string& msg = timing.status().message();
    FUZZ_CHECK(msg.find(kLabel) != std::string::npos,
               "a load error does not name the file: " + msg);
    return 0;
  }
  std::vector<int64_t> timing_times =
      fuzz::CheckStack(timing_engine, *timing->stack, /*has_data=*/false);

  Engine ram_engine;
  auto ram = Load(text, ram_engine, DataMode::Kind::kRam);
  FUZZ_CHECK(ram.ok(), "loads timing-only but not with data in RAM: " + ram.status().ToString());
  std::vector<int64_t> ram_times = fuzz::CheckStack(ram_engine, *ram->stack, /*has_data=*/true);
  FUZZ_CHECK(timing_times == ram_times,
             "completion times differ between DataMode kNone and kRam (the timing of a run "
             "must not depend on where data is kept)");
  return 0;
}
