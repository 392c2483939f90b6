#include "cli/sim_args.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>

#include "sim/profile/host.h"
#include "sim/quoted.h"
#include "workloads/fio/fio_known_options.h"
#include "workloads/fio/fio_units.h"
#include "workloads/fio/options.h"

namespace storlab::cli {

const char kSimUsage[] =
    "usage: storlab sim --stack STACK [options] [JOBFILE ...] [--fio-option=value ...]\n"
    "       storlab sim --stack STACK --iozone \"IOZONE ARGS\" [--repeat N]\n"
    "       storlab sim --cmdhelp[=OPTION]\n"
    "\n"
    "Runs fio jobs in virtual time on a simulated stack and prints fio's output.\n"
    "\n"
    "  --stack STACK          catalog name or stack file (required)\n"
    "  --seed N               run seed (default 1): the same seed gives the same bytes every\n"
    "                         time. Seed 1 is the reference run; another seed varies what\n"
    "                         varies between runs on real hardware: an HDD's spindle angle\n"
    "                         and resting head at the start and each seek (seek_jitter), an\n"
    "                         SSD's write stripe and each NAND program (program_jitter), an\n"
    "                         NFS network's latency (rtt_jitter), and the offsets of jobs\n"
    "                         with randrepeat=0 (docs/sim.md, \"Seeds\")\n"
    "  --repeat N             run the jobs N times, each on a fresh stack (iozone: N times\n"
    "                         in a row on one stack, files persist)\n"
    "  --seed-step[=K]        with --repeat: run i uses seed + i*K (K = 1 if not given), and\n"
    "                         a summary gives each group's mean, min, max and stdev\n"
    "  --output-format F      normal (default), json, json+ (with the latency bins), terse\n"
    "                         (or minimal, csv), or a comma list (json,normal), as in fio\n"
    "  --minimal              fio's --minimal: terse output only\n"
    "  --append-terse         fio's --append-terse: terse output too, before the others\n"
    "  --terse-version N      fio's --terse-version: 2 to 5 (default 3)\n"
    "  --output FILE          fio's --output: the report goes to FILE (checked first)\n"
    "  --eta WHEN             fio's --eta: fio's ETA line on stderr, in simulated time: auto\n"
    "                         (default: when stderr is a terminal), always or never\n"
    "  --eta-newline T        fio's --eta-newline: a new ETA line every T of simulated time\n"
    "  --eta-interval T       fio's --eta-interval: the ETA line every T of simulated time\n"
    "                         (default 1s, at least 250ms)\n"
    "  --status-interval T    fio's --status-interval: the report so far every T of simulated\n"
    "                         time (seconds by default), then the final one\n"
    "  --host-mem SIZE        override the stack's [host] mem (e.g. 32GiB)\n"
    "  --host-cores N         override the stack's [host] cores\n"
    "  --timestamp            print the wall-clock time where fio does (default: the epoch)\n"
    "  --power-cut-at TIME    cut the power TIME after the jobs start (fio's time units,\n"
    "                         seconds by default): the stack powers up with what its media\n"
    "                         hold, the oracle reads back every block written and reports\n"
    "                         what was kept, lost as allowed, or lost against the promise;\n"
    "                         the jobs' own report is the run's without the cut\n"
    "  --power-cuts N         N cuts at seeded times over the jobs' run, each verified\n"
    "                         (one run: each cut is checked in a copy of the process)\n"
    "  --fault 'TIME: CMD'    run a control command (docs/nbd.md) TIME after the jobs start:\n"
    "                         fail NAME, replace NAME, detach NAME, attach NAME, delay NAME\n"
    "                         DURATION for DURATION, media-error NAME OFFSET+LENGTH,\n"
    "                         corrupt NAME OFFSET, ignore-fua NAME (repeatable)\n"
    "  --trace FILE           write the write's life to FILE: one line per request per node\n"
    "                         (submit, complete), where caches destage and data becomes\n"
    "                         durable, power cuts (format: docs/sim.md); read it with\n"
    "                         `storlab trace summarize FILE`\n"
    "  --trace-limit N        at most N event lines in the trace (default 1000000)\n"
    "  --max-runtime DUR      cap every job at DUR of simulated time (fio's time units,\n"
    "                         seconds by default): runtime= above DUR becomes DUR, a job\n"
    "                         without runtime= stops at DUR as fio's runtime stops it,\n"
    "                         ramp_time= is capped too; the report says so (not a fio\n"
    "                         option: for running fio's own 900 s job files in a test)\n"
    "  --report FILE.html     draw the run into one self-contained HTML page (inline SVG,\n"
    "                         no script): the stack as a tree with each node's figures,\n"
    "                         throughput, cache fill, SLC, GC and queue depth over\n"
    "                         simulated time, latency histograms, where the bytes went;\n"
    "                         the series also to FILE.csv (docs/sim.md, \"Reports\")\n"
    "  --report-csv FILE      the report's time series as CSV (time_s, then one column per\n"
    "                         series drawn, named with its unit), with or without --report\n"
    "  --state DIR            keep the stack's state in DIR from run to run: restored at the\n"
    "                         start when DIR holds one (same stack, same host), saved once\n"
    "                         the stack is idle after the jobs; the clock goes on from the\n"
    "                         saved run's (docs/state.md)\n"
    "  --reboot               with --state: reboot the restored machine first: every node\n"
    "                         drops what it holds in volatile memory (the host's page cache,\n"
    "                         drive caches, an SSD's map cache); the stack was idle when\n"
    "                         saved, so nothing written is lost\n"
    "  --prefill PERCENT      start from a file system PERCENT full (0 to 100) of aged files\n"
    "                         with fragmented free space, over the stack file's [fs] prefill;\n"
    "                         fio's layout then meets ENOSPC as on a nearly full disk\n"
    "  --profile NAME         fio's built-in profile: tiobench adds its four jobs after\n"
    "                         the others, as fio 3.33 makes them (act: not supported)\n"
    "  --iozone \"ARGS\"        run an iozone throughput-mode command line instead\n"
    "  --cmdhelp[=OPTION]     list the fio options storlab sim supports, or one in full\n"
    "  --help                 this text\n"
    "\n"
    "Every other --option is a fio option (--name=x starts a job, as in fio).\n"
    "\n"
    "Sizes in job files and fio options follow fio's kb_base=1024: 4k and 4kb are\n"
    "4096, but 4KiB is 4000 (fio's compatibility mode). Stack files read sizes as\n"
    "datasheets write them (64KiB = 65536, 6TB = 6000000000000); `storlab stacks\n"
    "show` prints each with its byte count.\n";

namespace {

const char kSizeNote[] =
    "\nSizes (bs, size, ...) follow fio's kb_base=1024: 4k and 4kb are 4096 bytes,\n"
    "but 4KiB is 4000 (fio's compatibility mode). Stack files differ: there KiB is\n"
    "1024 and KB 1000, as datasheets write them (storlab stacks show prints bytes).\n";

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

// A positive count: "4", not "4x", "0" or "-1".
bool ParseCount(const std::string& v, uint64_t max, uint64_t* out) {
  if (v.empty() || v.size() > 19 || v.find_first_not_of("0123456789") != std::string::npos) {
    return false;
  }
  *out = std::strtoull(v.c_str(), nullptr, 10);
  return *out >= 1 && *out <= max;
}

// fio's command-line options that are not job options, and what we say.
int UnsupportedFioFlag(const std::string& key) {
  const bool output = key == "bandwidth-log";
  return SimFail(
      "--" + key + " is a " + std::string(fio::FioVersion()) +
      " command-line option that storlab sim does not support" +
      (output ? " (its outputs are normal, json, json+ and terse, --output and --eta)" : ""));
}

// fio's parse_output_format(): a comma list of normal, json, json+, terse
// (minimal, csv).
int ParseOutputFormat(const std::string& v, SimArgs* out) {
  out->normal = out->json = out->json_plus = out->terse = false;
  size_t start = 0;
  while (true) {
    size_t comma = v.find(',', start);
    std::string f = v.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (f == "normal") {
      out->normal = true;
    } else if (f == "json") {
      out->json = true;
    } else if (f == "json+") {
      out->json = out->json_plus = true;
    } else if (f == "terse" || f == "minimal" || f == "csv") {
      out->terse = true;
    } else {
      return SimFail("--output-format: " + Quoted(v) + ": " + Quoted(f) +
                     " is not an output format (expected normal, json, json+ or terse, "
                     "or a comma list of them)");
    }
    if (comma == std::string::npos) return -1;
    start = comma + 1;
  }
}

}  // namespace

int SimFail(const std::string& msg) {
  std::fprintf(stderr, "storlab sim: %s\n", msg.c_str());
  return 1;
}

int ParseSimArgs(const Args& args, SimArgs* out) {
  bool have_stack = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    std::string v;
    if (a == "--help" || a == "-h") {
      std::fputs(kSimUsage, stdout);
      return 0;
    }
    if (a == "--cmdhelp" || a.rfind("--cmdhelp=", 0) == 0) {
      std::string opt = a.size() > 10 ? a.substr(10) : "";
      std::fputs(fio::OptionHelp(opt).c_str(), stdout);
      const fio::OptionDef* def = fio::FindOption(opt);
      const bool sizes =
          def && (def->type == fio::OptType::kSize || def->type == fio::OptType::kSizeDirs);
      if (opt.empty() || opt == "all" || sizes) std::fputs(kSizeNote, stdout);
      return fio::FindOption(opt) || opt.empty() || opt == "all" ? 0 : 1;
    }
    if (TakeValue(args, &i, "stack", &v)) {
      out->host.stack = v;
      have_stack = true;
    } else if (TakeValue(args, &i, "seed", &v)) {
      if (v.empty() || v.size() > 20 || v.find_first_not_of("0123456789") != std::string::npos) {
        return SimFail("--seed: " + Quoted(v) + " is not a number (0 to 2^64 - 1)");
      }
      errno = 0;
      out->host.seed = std::strtoull(v.c_str(), nullptr, 10);
      if (errno) return SimFail("--seed: " + Quoted(v) + " is not a number (0 to 2^64 - 1)");
    } else if (TakeValue(args, &i, "output-format", &v)) {
      if (int rc = ParseOutputFormat(v, out); rc >= 0) return rc;
    } else if (a == "--minimal") {
      out->normal = out->json = out->json_plus = false;
      out->terse = true;
    } else if (a == "--append-terse") {
      out->terse = true;
    } else if (TakeValue(args, &i, "terse-version", &v)) {
      if (v.size() != 1 || v[0] < '2' || v[0] > '5') {
        return SimFail("--terse-version: " + Quoted(v) + " (expected 2, 3, 4 or 5)");
      }
      out->terse_version = v[0] - '0';
    } else if (TakeValue(args, &i, "profile", &v)) {
      // fio's command-line --profile (init.c exec_profile), not the job
      // option profile= (which fio 3.33 ignores): the jobs are added after
      // every other job (cli/sim_sections.cc).
      if (v.empty()) return SimFail("--profile needs a name (tiobench)");
      out->profile = v;
    } else if (TakeValue(args, &i, "output", &v)) {
      if (v.empty()) return SimFail("--output needs a file name");
      out->output = v;
    } else if (TakeValue(args, &i, "eta", &v)) {
      using Eta = ProgressOptions::Eta;
      if (v == "auto")
        out->progress.eta = Eta::kAuto;
      else if (v == "always")
        out->progress.eta = Eta::kAlways;
      else if (v == "never")
        out->progress.eta = Eta::kNever;
      else
        return SimFail("--eta: " + Quoted(v) + " (expected auto, always or never)");
    } else if (TakeValue(args, &i, "status-interval", &v)) {
      // fio's parse_cmd_line() 'L': check_str_time(), seconds by default.
      auto t = fio::ParseFioTime(v, fio::TimeUnit::kSeconds);
      if (!t.ok() || *t < Nanos(1000000)) {
        return SimFail("--status-interval: " + Quoted(v) +
                       " (expected a time of 1ms or more: 1, 500ms, 2s)");
      }
      out->status_interval = *t;
    } else if (TakeValue(args, &i, "eta-newline", &v)) {
      auto t = fio::ParseFioTime(v, fio::TimeUnit::kSeconds);
      if (!t.ok() || *t <= Nanos(0)) {
        return SimFail("--eta-newline: " +
                       (t.ok() ? Quoted(v) + " must be more than 0" : t.status().message()));
      }
      out->progress.newline_every = *t;
    } else if (TakeValue(args, &i, "eta-interval", &v)) {
      // fio's parse_cmd_line() 'O': check_str_time(), at least DISK_UTIL_MSEC.
      auto t = fio::ParseFioTime(v, fio::TimeUnit::kSeconds);
      if (!t.ok() || *t < Nanos(250000000)) {
        return SimFail("--eta-interval: " + Quoted(v) +
                       " (expected a time of 250ms or more: 1, 500ms, 2s)");
      }
      out->progress.interval = *t;
    } else if (TakeValue(args, &i, "host-mem", &v)) {
      HostSpec h;
      Status st = OverrideHost("mem", v, "--host-mem", &h);
      if (!st.ok()) return SimFail(st.message());
      out->host.mem_bytes = h.mem_bytes;
    } else if (TakeValue(args, &i, "host-cores", &v)) {
      HostSpec h;
      Status st = OverrideHost("cores", v, "--host-cores", &h);
      if (!st.ok()) return SimFail(st.message());
      out->host.cores = h.cores;
    } else if (a == "--timestamp") {
      out->real_time = true;
    } else if (TakeValue(args, &i, "power-cut-at", &v)) {
      auto t = fio::ParseFioTime(v, fio::TimeUnit::kSeconds);
      if (!t.ok()) return SimFail("--power-cut-at: " + t.status().message());
      out->power_cut_at = *t;
    } else if (TakeValue(args, &i, "power-cuts", &v)) {
      if (!ParseCount(v, 10'000'000, &out->power_cuts)) {
        return SimFail("--power-cuts: " + Quoted(v) + " (expected a count from 1 to 10000000)");
      }
    } else if (TakeValue(args, &i, "fault", &v)) {
      auto f = ParseSimFault(v);
      if (!f.ok()) return SimFail(f.status().message());
      out->faults.push_back(std::move(*f));
    } else if (TakeValue(args, &i, "trace-limit", &v)) {
      if (!ParseCount(v, UINT64_MAX / 2, &out->trace_limit)) {
        return SimFail("--trace-limit: " + Quoted(v) + " (expected a count of lines, 1 or more)");
      }
    } else if (TakeValue(args, &i, "report-csv", &v)) {
      if (v.empty()) return SimFail("--report-csv needs a file name (FILE.csv)");
      out->report_csv = v;
    } else if (TakeValue(args, &i, "report", &v)) {
      if (v.empty()) return SimFail("--report needs a file name (FILE.html)");
      out->report = v;
    } else if (TakeValue(args, &i, "trace", &v)) {
      if (v.empty()) return SimFail("--trace needs a file name");
      out->trace = v;
    } else if (TakeValue(args, &i, "max-runtime", &v)) {
      auto t = fio::ParseFioTime(v, fio::TimeUnit::kSeconds);
      if (!t.ok() || *t <= Nanos(0)) {
        return SimFail("--max-runtime: " +
                       (t.ok() ? Quoted(v) + " must be more than 0" : t.status().message()));
      }
      out->max_runtime = *t;
    } else if (TakeValue(args, &i, "state", &v)) {
      if (v.empty()) return SimFail("--state needs a directory");
      out->state = v;
    } else if (a == "--reboot") {
      out->reboot = true;
    } else if (TakeValue(args, &i, "prefill", &v)) {
      std::string num = !v.empty() && v.back() == '%' ? v.substr(0, v.size() - 1) : v;
      char* end = nullptr;
      const double p = num.empty() ? -1 : std::strtod(num.c_str(), &end);
      if (num.empty() || *end || num.find_first_not_of("0123456789.") != std::string::npos ||
          !(p >= 0 && p <= 100)) {
        return SimFail("--prefill: " + Quoted(v) +
                       " (expected a percentage from 0 to 100: 90, 90% or 99.5)");
      }
      out->host.prefill = p;
    } else if (TakeValue(args, &i, "iozone", &v)) {
      out->iozone = v;
    } else if (TakeValue(args, &i, "repeat", &v)) {
      uint64_t n = 0;
      if (!ParseCount(v, 100000, &n)) {
        return SimFail("--repeat: " + Quoted(v) + " (expected a count from 1 to 100000)");
      }
      out->repeat = static_cast<int>(n);
    } else if (a == "--seed-step" || a.rfind("--seed-step=", 0) == 0) {
      v = a.size() > 12 ? a.substr(12) : "1";
      if (!ParseCount(v, UINT64_MAX / 2, &out->seed_step)) {
        return SimFail("--seed-step: " + Quoted(v) + " (expected a positive step)");
      }
    } else if (a.rfind("--", 0) == 0) {
      const std::string key =
          a.substr(2, a.find('=') == std::string::npos ? std::string::npos : a.find('=') - 2);
      if (!fio::FindOption(key) && !fio::IsFioJobOption(key) && fio::IsFioCommandLineOption(key)) {
        return UnsupportedFioFlag(key);
      }
      // A fio option; "--key value" takes the next word when the option
      // needs a value, as fio's getopt does.
      out->fio_args.push_back(a);
      if (a.find('=') == std::string::npos) {
        const fio::OptionDef* d = fio::FindOption(key);
        if (d && !fio::TakesNoNextWord(*d) && i + 1 < args.size() &&
            args[i + 1].rfind("--", 0) != 0) {
          out->fio_args.push_back(args[++i]);
        }
      }
    } else {
      out->job_files.push_back(a);
    }
  }
  if (!have_stack) return SimFail("--stack is required\n" + std::string(kSimUsage));
  if (out->seed_step && out->repeat < 2) return SimFail("--seed-step needs --repeat N (N > 1)");
  const bool cuts = out->power_cut_at || out->power_cuts;
  if (out->power_cut_at && out->power_cuts) {
    return SimFail("--power-cut-at and --power-cuts: give one of them");
  }
  if (cuts && (out->repeat > 1 || out->iozone)) {
    return SimFail(
        "--power-cut-at / --power-cuts: one run of fio jobs (not with --repeat or --iozone)");
  }
  if (!out->faults.empty() && (out->repeat > 1 || out->iozone)) {
    return SimFail("--fault: one run of fio jobs (not with --repeat or --iozone)");
  }
  if (!out->report.empty() && (out->repeat > 1 || out->iozone)) {
    return SimFail("--report: one run of fio jobs (not with --repeat or --iozone)");
  }
  if (!out->report_csv.empty() && (out->repeat > 1 || out->iozone)) {
    return SimFail("--report-csv: one run of fio jobs (not with --repeat or --iozone)");
  }
  if (!out->trace.empty() && (out->repeat > 1 || out->iozone)) {
    return SimFail("--trace: one run of fio jobs (not with --repeat or --iozone)");
  }
  if (!out->state.empty() && (out->repeat > 1 || out->iozone || cuts)) {
    return SimFail(
        "--state: one run of fio jobs (not with --repeat, --iozone, --power-cut-at or "
        "--power-cuts)");
  }
  if (out->reboot && out->state.empty()) return SimFail("--reboot needs --state DIR");
  if (out->host.prefill && (out->repeat > 1 || out->iozone)) {
    return SimFail("--prefill: fio jobs (not with --repeat or --iozone)");
  }
  out->host.oracle = cuts;
  return -1;
}

}  // namespace storlab::cli
