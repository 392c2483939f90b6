// storlab trace summarize FILE: a trace written by `storlab sim --trace`
// (sim/trace.h) told as the life of each write (sim/trace_summary.h).
#include <cstdio>
#include <string>

#include "cli/commands.h"
#include "sim/trace_read.h"
#include "sim/trace_summary.h"

namespace storlab::cli {
namespace {

constexpr char kTraceUsage[] =
    "usage: storlab trace summarize FILE\n"
    "\n"
    "Reads a trace written by `storlab sim --trace FILE` and prints, for each write the\n"
    "jobs submitted, when it was acknowledged, when all of it was on durable media, and\n"
    "which nodes held it in volatile memory meanwhile; for each power cut in the trace,\n"
    "which acknowledged writes survived and which were lost (docs/sim.md, \"Traces\").\n";

}  // namespace

int TraceCommand(const Args& args) {
  if (!args.empty() && (args[0] == "--help" || args[0] == "-h")) {
    std::fputs(kTraceUsage, stdout);
    return 0;
  }
  if (args.size() != 2 || args[0] != "summarize") {
    std::fprintf(stderr, "storlab trace: expected 'summarize FILE'\n%s", kTraceUsage);
    return 2;
  }
  auto t = ReadTrace(args[1]);
  if (!t.ok()) {
    std::fprintf(stderr, "storlab trace: %s\n", t.status().message().c_str());
    return 1;
  }
  std::fputs(SummarizeTrace(*t).c_str(), stdout);
  return 0;
}

}  // namespace storlab::cli
