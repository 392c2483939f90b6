// Fuzz target: iozone command lines (workloads/iozone/iozone_args.h).
//
// Input: a command line ("iozone -t 4 -s 256m -r 4k -i0 -i1"). Parsing must
// return a spec or an error, never crash, throw or hit undefined behaviour.
// A spec must be one the runner can use: 1 to 256 children, tests 0, 1 or 2,
// sizes positive, whole KiB and record <= file; and written back as a
// command line (sizes in KiB) it must parse to the same spec.
#include <cstdint>
#include <string>
#include <string_view>

#include "tests/fuzz/fuzz_check.h"
#include "workloads/iozone/iozone_args.h"

namespace storlab::iozone {
namespace {

std::string Command(const IozoneSpec& s) {
  std::string c = "iozone -t " + std::to_string(s.children);
  for (int t : s.tests) c += " -i " + std::to_string(t);
  c += " -s " + std::to_string(s.file_size / 1024) + " -r " + std::to_string(s.record_size / 1024);
  if (s.threads) c += " -T";
  if (s.direct) c += " -I";
  if (s.sync_writes) c += " -o";
  if (s.include_fsync) c += " -e";
  if (s.ops) c += " -O";
  if (s.keep_files) c += " -w";
  return c;
}

}  // namespace
}  // namespace storlab::iozone

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace storlab::iozone;
  std::string text(reinterpret_cast<const char*>(data), size);
  auto spec = ParseIozoneCommand(text);
  if (!spec.ok()) {
    FUZZ_CHECK(!spec.status().message().empty(), "an error without a message");
    FUZZ_CHECK_MESSAGE(spec.status().message());
    return 0;
  }
  const IozoneSpec& s = *spec;
  FUZZ_CHECK(s.children >= 1 && s.children <= 256, "children " + std::to_string(s.children));
  FUZZ_CHECK(!s.tests.empty(), "no tests");
  for (int t : s.tests) FUZZ_CHECK(t >= 0 && t <= 2, "test " + std::to_string(t));
  FUZZ_CHECK(
      s.record_size > 0 && s.record_size % 1024 == 0 && s.file_size % 1024 == 0 &&
          s.record_size <= s.file_size,
      "sizes: file " + std::to_string(s.file_size) + ", record " + std::to_string(s.record_size));
  const std::string again_text = Command(s);
  auto again = ParseIozoneCommand(again_text);
  FUZZ_CHECK(again.ok(), "'" + again_text + "' does not parse: " + again.status().ToString());
  FUZZ_CHECK(again->tests == s.tests && again->children == s.children &&
                 again->file_size == s.file_size && again->record_size == s.record_size &&
                 again->threads == s.threads && again->direct == s.direct &&
                 again->sync_writes == s.sync_writes && again->include_fsync == s.include_fsync &&
                 again->ops == s.ops && again->keep_files == s.keep_files,
             "'" + text + "' and '" + again_text + "' parse differently");
  return 0;
}
