// iozone's throughput-mode command line (`iozone -T -t 4 -s 256m -r 4k -I
// -O -w -i0 -i1 -i2`), parsed into what the virtual-time runner needs.
//
//   -i N   tests: 0 write/rewrite, 1 read/re-read, 2 random read/write
//          (repeatable; -i0 must come first when the files do not exist)
//   -t N   throughput mode with N children;  -T  children are threads
//   -s S   file size per child (default unit KiB; k, m, g suffixes)
//   -r S   record size (default unit KiB; k, m suffixes)
//   -I     O_DIRECT;  -o  O_SYNC writes;  -e  include fsync in the timing
//   -O     results in operations per second;  -w  keep the files
// Anything else is an error that names it. Thread-safe (pure functions).
#ifndef STORLAB_WORKLOADS_IOZONE_IOZONE_ARGS_H_
#define STORLAB_WORKLOADS_IOZONE_IOZONE_ARGS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "sim/status.h"

namespace storlab::iozone {

struct IozoneSpec {
  std::string command;              // as given, for "Command line used"
  std::vector<int> tests;           // -i values in the order given
  uint32_t children = 0;            // -t
  bool threads = false;             // -T
  uint64_t file_size = 512 * 1024;  // -s (iozone's default 512 KiB)
  uint64_t record_size = 4096;      // -r (iozone's default 4 KiB)
  bool direct = false;              // -I
  bool sync_writes = false;         // -o
  bool include_fsync = false;       // -e
  bool ops = false;                 // -O
  bool keep_files = false;          // -w
};

// Parses `args` (the words after "iozone"), or a whole command string.
Result<IozoneSpec> ParseIozoneArgs(const std::vector<std::string>& args);
Result<IozoneSpec> ParseIozoneCommand(const std::string& command);

}  // namespace storlab::iozone

#endif  // STORLAB_WORKLOADS_IOZONE_IOZONE_ARGS_H_
