// The storlab subcommands. Each takes the arguments after its name and
// returns the process exit status; errors go to stderr.
#ifndef STORLAB_CLI_COMMANDS_H_
#define STORLAB_CLI_COMMANDS_H_

#include <string>
#include <vector>

#include "workloads/host/sim_host.h"

namespace storlab::cli {

using Args = std::vector<std::string>;

struct Command {
  const char* name;
  const char* summary;
  int (*run)(const Args& args);
};

// The table of subcommands, in the order `storlab --help` lists them.
const std::vector<Command>& Commands();

int StacksCommand(const Args& args);
int SimCommand(const Args& args);
int DemoCommand(const Args& args);
int TraceCommand(const Args& args);  // storlab trace summarize FILE
// cli/mount_cmd.cc, built where libfuse3 is (STORLAB_HAVE_FUSE).
int MountCommand(const Args& args);
int UmountCommand(const Args& args);
// The --iozone half of `storlab sim`.
int RunIozoneCommand(const HostOptions& host, const std::string& command, int repeat, bool json);

}  // namespace storlab::cli

#endif  // STORLAB_CLI_COMMANDS_H_
