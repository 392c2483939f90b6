// Fuzz target: read_iolog trace files (workloads/fio/iolog_read.h): fio's
// iolog v2/v3 text and blktrace binary records.
//
// Input: the bytes of a trace file. Parsing must return a trace or an error
// naming the file, never crash or hit undefined behaviour, and a trace must
// be one the runner can use: every entry's file exists, reads and writes
// counted as the entries say, each file's extent covers its I/O.
#include <cstdint>
#include <string>
#include <string_view>

#include "tests/fuzz/fuzz_check.h"
#include "workloads/fio/iolog_read.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace storlab::fio;
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  for (int variant = 0; variant < 2; ++variant) {
    JobOptions o;
    if (variant) {  // the replay_* options on
      o.replay_scale = 3;
      o.replay_align = 4096;
      o.replay_time_scale = 250;
      o.replay_redirect = "/r";
    }
    auto t = ParseReplayTrace("fuzz.log", bytes, o);
    if (!t.ok()) {
      FUZZ_CHECK(t.status().message().rfind("fuzz.log", 0) == 0,
                 "an error that does not name the file: " + t.status().message());
      continue;
    }
    uint64_t ios[2] = {0, 0};
    for (const ReplayEntry& e : t->entries) {
      FUZZ_CHECK(e.file < t->files.size(), "entry of a file that is not there");
      if (e.kind == ReplayEntry::kRead || e.kind == ReplayEntry::kWrite) {
        ++ios[e.kind == ReplayEntry::kWrite];
        FUZZ_CHECK(e.offset + e.length <= t->extent[e.file], "I/O past the file's extent");
        FUZZ_CHECK(e.length <= t->max_bs[e.kind == ReplayEntry::kWrite], "I/O above max_bs");
      }
      if (variant && e.kind != ReplayEntry::kWait) {
        FUZZ_CHECK(e.offset % 4096 == 0, "replay_align not applied");
      }
    }
    FUZZ_CHECK(ios[0] == t->ios[0] && ios[1] == t->ios[1], "I/O counts disagree");
    if (variant) FUZZ_CHECK(t->files.size() == 1 && t->files[0] == "/r", "replay_redirect");
  }
  return 0;
}
