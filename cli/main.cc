// storlab: simulated storage stacks for real tools.
//
//   storlab stacks [show NAME|FILE | types [TYPE] | probe ...]
//   storlab sim --stack STACK [fio options | job files]
//   storlab demo
//   storlab trace summarize FILE
//   storlab mount --stack STACK MOUNTPOINT / storlab umount MOUNTPOINT
//
// Each subcommand parses its own options (Boost.Program_options) and has
// --help. A build configured with STORLAB_CLI_MOUNT_ONLY (the TSan step of
// .ci/run) has only mount and umount: the threaded part, without the
// virtual-time workloads it would otherwise compile again.
#include <cstdio>
#include <cstring>
#include <string>

#include "cli/commands.h"

namespace storlab::cli {
namespace {

void Usage(FILE* out) {
  std::fprintf(out,
               "storlab: a test bed for storage stacks\n\n"
               "usage: storlab COMMAND [OPTIONS]\n\ncommands:\n");
  for (const auto& c : Commands()) std::fprintf(out, "  %-10s %s\n", c.name, c.summary);
  std::fprintf(out, "\n`storlab COMMAND --help` describes each command.\n");
}

}  // namespace

const std::vector<Command>& Commands() {
  static const std::vector<Command> kCommands = {
#ifndef STORLAB_CLI_MOUNT_ONLY
      {"stacks", "list the catalog, show or validate a stack", &StacksCommand},
      {"sim", "run fio jobs (or iozone) in virtual time on a stack", &SimCommand},
      {"demo", "the seed table: published vs simulated, and where the bytes went", &DemoCommand},
      {"trace", "summarize a trace of storlab sim --trace: each write's life", &TraceCommand},
#endif
#ifdef STORLAB_HAVE_FUSE
      {"mount", "a stack as image files or a file tree, in real time, through FUSE", &MountCommand},
      {"umount", "flush a storlab mount's model, then unmount it", &UmountCommand},
#endif
  };
  return kCommands;
}

}  // namespace storlab::cli

int main(int argc, char** argv) {
  using namespace storlab::cli;
  if (argc < 2 || !std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h") ||
      !std::strcmp(argv[1], "help")) {
    Usage(argc < 2 ? stderr : stdout);
    return argc < 2 ? 2 : 0;
  }
  Args args(argv + 2, argv + argc);
  for (const auto& c : Commands()) {
    if (argv[1] == std::string(c.name)) return c.run(args);
  }
  std::fprintf(stderr, "storlab: unknown command '%s'\n\n", argv[1]);
  Usage(stderr);
  return 2;
}
