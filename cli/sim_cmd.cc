// storlab sim: fio jobs (and iozone's throughput mode) in virtual time on a
// simulated stack, with fio's output.
//
//   storlab sim --stack STACK [--seed N] [--output-format=normal|json]
//               [--host-mem SIZE] [--host-cores N] [--timestamp]
//               [JOBFILE ...] [--fio-option=value ...]
//   storlab sim --stack STACK --iozone "-T -t 4 -s 256m ..." [--repeat N]
//   storlab sim --cmdhelp[=OPTION]
//
// Options that are not storlab's are fio's, taken exactly as fio takes them.
#include <cstdio>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "cli/progress.h"
#include "sim/profile/host.h"
#include "sim/profile/units.h"
#include "workloads/fio/fio_run.h"
#include "workloads/fio/job_file.h"
#include "workloads/fio/options.h"
#include "workloads/fio/output.h"

namespace storlab::cli {
namespace {

const char kUsage[] =
    "usage: storlab sim --stack STACK [options] [JOBFILE ...] [--fio-option=value ...]\n"
    "       storlab sim --stack STACK --iozone \"IOZONE ARGS\" [--repeat N]\n"
    "       storlab sim --cmdhelp[=OPTION]\n"
    "\n"
    "Runs fio jobs in virtual time on a simulated stack and prints fio's output.\n"
    "\n"
    "  --stack STACK          catalog name or stack file (required)\n"
    "  --seed N               run seed (default 1)\n"
    "  --output-format F      normal (default) or json\n"
    "  --host-mem SIZE        override the stack's [host] mem (e.g. 32GiB)\n"
    "  --host-cores N         override the stack's [host] cores\n"
    "  --timestamp            print the wall-clock time where fio does (default: the epoch)\n"
    "  --iozone \"ARGS\"        run an iozone throughput-mode command line instead\n"
    "  --repeat N             run the iozone command N times in a row (files persist)\n"
    "  --cmdhelp[=OPTION]     list the fio options storlab sim supports, or one in full\n"
    "  --help                 this text\n"
    "\n"
    "Every other --option is a fio option (--name=x starts a job, as in fio).\n";

struct SimArgs {
  HostOptions host;
  bool json = false;
  bool real_time = false;
  std::string iozone;
  int repeat = 1;
  std::vector<std::string> job_files;
  std::vector<std::string> fio_args;
};

int Fail(const std::string& msg) {
  std::fprintf(stderr, "storlab sim: %s\n", msg.c_str());
  return 1;
}

// Splits "--key=value" / "--key value" for storlab's own options.
bool TakeValue(const Args& args, size_t* i, const std::string& key, std::string* value) {
  const std::string& a = args[*i];
  if (a == "--" + key) {
    if (*i + 1 >= args.size()) return false;
    *value = args[++*i];
    return true;
  }
  if (a.rfind("--" + key + "=", 0) == 0) {
    *value = a.substr(key.size() + 3);
    return true;
  }
  return false;
}

// Parses the command line; returns -1 to go on, else an exit status.
int ParseArgs(const Args& args, SimArgs* out) {
  bool have_stack = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    std::string v;
    if (a == "--help" || a == "-h") {
      std::fputs(kUsage, stdout);
      return 0;
    }
    if (a == "--cmdhelp" || a.rfind("--cmdhelp=", 0) == 0) {
      std::string opt = a.size() > 10 ? a.substr(10) : "";
      std::fputs(fio::OptionHelp(opt).c_str(), stdout);
      return fio::FindOption(opt) || opt.empty() || opt == "all" ? 0 : 1;
    }
    if (TakeValue(args, &i, "stack", &v)) {
      out->host.stack = v;
      have_stack = true;
    } else if (TakeValue(args, &i, "seed", &v)) {
      try {
        out->host.seed = std::stoull(v);
      } catch (...) {
        return Fail("--seed: '" + v + "' is not a number");
      }
    } else if (TakeValue(args, &i, "output-format", &v)) {
      if (v != "normal" && v != "json") {
        return Fail("--output-format: '" + v + "' (expected normal or json)");
      }
      out->json = v == "json";
    } else if (TakeValue(args, &i, "host-mem", &v)) {
      HostSpec h;
      Status st = OverrideHost("mem", v, "--host-mem", &h);
      if (!st.ok()) return Fail(st.message());
      out->host.mem_bytes = h.mem_bytes;
    } else if (TakeValue(args, &i, "host-cores", &v)) {
      HostSpec h;
      Status st = OverrideHost("cores", v, "--host-cores", &h);
      if (!st.ok()) return Fail(st.message());
      out->host.cores = h.cores;
    } else if (a == "--timestamp") {
      out->real_time = true;
    } else if (TakeValue(args, &i, "iozone", &v)) {
      out->iozone = v;
    } else if (TakeValue(args, &i, "repeat", &v)) {
      try {
        out->repeat = std::stoi(v);
      } catch (...) {
        out->repeat = 0;
      }
      if (out->repeat < 1) return Fail("--repeat: '" + v + "' (expected a positive count)");
    } else if (a.rfind("--", 0) == 0) {
      // A fio option; "--key value" takes the next word when the option
      // needs a value, as fio's getopt does.
      out->fio_args.push_back(a);
      if (a.find('=') == std::string::npos) {
        const fio::OptionDef* d = fio::FindOption(a.substr(2));
        if (d && d->type != fio::OptType::kSet && i + 1 < args.size() &&
            args[i + 1].rfind("--", 0) != 0) {
          out->fio_args.push_back(args[++i]);
        }
      }
    } else {
      out->job_files.push_back(a);
    }
  }
  if (!have_stack) return Fail("--stack is required\n" + std::string(kUsage));
  return -1;
}

int RunFioJobs(const SimArgs& a) {
  std::vector<fio::RawSection> sections;
  auto cmd = fio::ParseCommandLine(a.fio_args);
  if (!cmd.ok()) return Fail(cmd.status().message());
  // Command-line globals first, then job files, then command-line jobs.
  sections.push_back(cmd->front());
  for (const auto& f : a.job_files) {
    auto parsed = fio::ParseJobFile(f, fio::ProcessEnv());
    if (!parsed.ok()) return Fail(parsed.status().message());
    for (auto& s : *parsed) sections.push_back(std::move(s));
  }
  for (size_t i = 1; i < cmd->size(); ++i) sections.push_back((*cmd)[i]);
  auto jobs = fio::BuildJobs(sections, a.host.seed);
  if (!jobs.ok()) return Fail(jobs.status().message());
  auto host = SimHost::Create(a.host);
  if (!host.ok()) return Fail(host.status().message());
  Nanos expect;
  for (const auto& j : jobs->jobs) {
    expect = Max(expect, j.opts.startdelay + j.opts.ramp_time + j.opts.runtime);
  }
  fio::FioRun run(**host, std::move(*jobs));
  Status st = run.Prepare();
  for (const auto& m : run.Messages()) std::fprintf(stderr, "%s\n", m.c_str());
  if (!st.ok()) return Fail(st.message());
  fio::OutputOptions out;
  out.real_time = a.real_time;
  if (!a.json) {
    std::fputs(fio::FioNormalHeader(run).c_str(), stdout);
    std::fflush(stdout);
  }
  size_t before = run.Messages().size();
  {
    // The layout ran in Prepare(): count the jobs' time from here.
    const Nanos t0 = (*host)->engine().now();
    Progress progress(expect);
    st = run.Run([&](Nanos t) { progress(t - t0); });
  }
  if (!st.ok()) return Fail(st.message());
  auto messages = run.Messages();
  for (size_t i = before; i < messages.size(); ++i) {
    std::fprintf(stderr, "%s\n", messages[i].c_str());
  }
  std::fputs(a.json ? fio::FioJsonText(run, out).c_str() : fio::FioNormalReport(run, out).c_str(),
             stdout);
  for (const auto& r : run.runners()) {
    if (r->stat().error) return 1;
  }
  return 0;
}

}  // namespace

int SimCommand(const Args& args) {
  SimArgs a;
  int rc = ParseArgs(args, &a);
  if (rc >= 0) return rc;
  if (!a.iozone.empty()) {
    if (!a.job_files.empty() || !a.fio_args.empty()) {
      return Fail("--iozone runs alone: no fio options or job files with it");
    }
    return RunIozoneCommand(a.host, a.iozone, a.repeat, a.json);
  }
  if (a.job_files.empty() && a.fio_args.empty()) {
    return Fail("no jobs: give a job file or fio options (--name=...)\n" + std::string(kUsage));
  }
  return RunFioJobs(a);
}

}  // namespace storlab::cli
