// storlab sim: fio jobs (and iozone's throughput mode) in virtual time on a
// simulated stack, with fio's output.
//
//   storlab sim --stack STACK [--seed N] [--output-format=normal|json|json+|terse,...]
//               [--host-mem SIZE] [--host-cores N] [--timestamp]
//               [--repeat N [--seed-step[=K]]] [--output FILE] [--eta WHEN]
//               [--report FILE.html] [--report-csv FILE] [--state DIR [--reboot]]
//               [--prefill PERCENT]
//               [JOBFILE ...] [--fio-option=value ...]
//   storlab sim --stack STACK --iozone "-T -t 4 -s 256m ..." [--repeat N]
//   storlab sim --cmdhelp[=OPTION]
//
// Options that are not storlab's are fio's, taken exactly as fio takes them
// (cli/sim_args.h).
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "cli/commands.h"
#include "cli/eta_display.h"
#include "cli/sim_args.h"
#include "cli/sim_cuts.h"
#include "cli/sim_faults.h"
#include "cli/sim_sections.h"
#include "cli/sim_state.h"
#include "cli/sim_status.h"
#include "sim/quoted.h"
#include "sim/trace.h"
#include "sim/trace_read.h"
#include "workloads/demo_explain.h"
#include "workloads/fio/fio_json_print.h"
#include "workloads/fio/fio_run.h"
#include "workloads/fio/iolog_write.h"
#include "workloads/fio/job_file.h"
#include "workloads/fio/job_logs.h"
#include "workloads/fio/output.h"
#include "workloads/fio/run_cap.h"
#include "workloads/fio/verify_state.h"
#include "workloads/report/cut_timeline.h"
#include "workloads/report/html_report.h"
#include "workloads/report/report_series.h"
#include "workloads/report/run_sampler.h"

namespace storlab::cli {
namespace {

// The events a report's power-cut timeline keeps in memory (about 60 bytes
// each) when no --trace file is written.
constexpr uint64_t kReportTraceLimit = 400000;

// Each group's bandwidth per direction in one run, for --repeat's summary.
using GroupFigures = std::map<std::pair<int, int>, double>;  // (group, dir) -> bytes/s

struct Output {
  FILE* f = stdout;
  ~Output() {
    if (f != stdout && f) std::fclose(f);
  }
};

// One run of the jobs on a fresh host with `seed`; the report goes to
// `out` (JSON documents are returned in *json instead). Returns 0, 1 when
// a job failed, or -1 when the run could not start or got stuck (the
// error is printed).
int RunOnce(const SimArgs& a, const std::vector<fio::RawSection>& sections, uint64_t seed,
            FILE* out, std::string* json, GroupFigures* figures) {
  auto jobs = fio::BuildJobs(sections, seed);
  if (!jobs.ok()) return -SimFail(jobs.status().message());
  const std::string capped = a.max_runtime ? fio::CapRuntime(&*jobs, *a.max_runtime) : "";
  if (!capped.empty() && !a.normal) std::fputs(capped.c_str(), stderr);
  HostOptions ho = a.host;
  ho.seed = seed;
  // verify= checks the data the stack returns: the host keeps it.
  for (const auto& j : jobs->jobs) ho.keep_data |= j.verify != fio::VerifyKind::kNone;
  auto host = SimHost::Create(ho);
  if (!host.ok()) return -SimFail(host.status().message());
  Status state_st = BeforeRun(a, **host);
  if (!state_st.ok()) return -SimFail(state_st.message());
  // The stack file's faults first, then the command line's.
  if (!(*host)->stack_faults().empty() && a.repeat > 1) {
    return -SimFail((*host)->stack_faults().front().where +
                    ": [stack] faults: one run of fio jobs (not with --repeat), as --fault");
  }
  auto stack_faults = ParseStackFaults((*host)->stack_faults());
  if (!stack_faults.ok()) return -SimFail(stack_faults.status().message());
  std::vector<SimFault> faults = std::move(*stack_faults);
  faults.insert(faults.end(), a.faults.begin(), a.faults.end());
  Status fst = CheckSimFaults(faults, (*host)->stack());
  if (!fst.ok()) return -SimFail(fst.message());
  fio::FioRun run(**host, std::move(*jobs));
  Status st = run.Prepare();
  for (const auto& m : run.Messages()) std::fprintf(stderr, "%s\n", m.c_str());
  if (!st.ok()) return -SimFail(st.message());
  fio::OutputOptions opts;
  opts.real_time = a.real_time;
  opts.json_plus = a.json_plus;
  if (a.normal) {
    std::fputs(fio::FioNormalHeader(run).c_str(), out);
    std::fflush(out);
  }
  size_t before = run.Messages().size();
  std::unique_ptr<Tracer> tracer;
  if (!a.trace.empty()) {
    auto t = Tracer::Open(a.trace, a.trace_limit);
    if (!t.ok()) return -SimFail("--trace: " + t.status().message());
    tracer = std::move(*t);
    tracer->set_origin((*host)->engine().now());
    (*host)->stack().SetTracer(tracer.get());
  }
  // --report with power cuts: the report's timeline reads the run's trace
  // (--trace's file, or one kept in memory, cut short at kReportTraceLimit).
  if (!tracer && !a.report.empty() && (*host)->oracle()) {
    tracer = std::make_unique<Tracer>(kReportTraceLimit);
    tracer->set_origin((*host)->engine().now());
    (*host)->stack().SetTracer(tracer.get());
  }
  std::optional<PowerCuts> cuts;
  if ((*host)->oracle()) {
    auto times = CutTimes(a, sections, seed, (*host)->engine().now());
    if (!times.ok()) return -SimFail(times.status().message());
    const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    cuts.emplace((*host)->stack(), *(*host)->oracle(), cores, (*host)->engine().now());
    run.SetCuts(*times, [&] { return cuts->CutHere(); });
  }
  // The layout ran in Prepare(): count the jobs' time from here.
  const Nanos t0 = (*host)->engine().now();
  // --report: a sampler that only reads the stack between events.
  std::optional<report::RunSampler> sampler;
  if (!a.report.empty() || !a.report_csv.empty()) {
    sampler.emplace(run, t0);
    run.SetObserver([&sampler](Nanos until) { sampler->Observe(until); });
  }
  EtaDisplay* shown = nullptr;  // fio's ETA line, while the jobs run
  AddSimFaults(faults, t0, (*host)->stack(), run, [&shown](const std::string& line) {
    if (shown) return shown->Note(line);
    std::fprintf(stderr, "%s\n", line.c_str());
  });
  SetStatusReports(a, opts, run, t0, out);
  {
    EtaDisplay eta(run, t0, a.progress);
    shown = &eta;
    st = run.Run(nullptr);
    shown = nullptr;
  }
  if (st.ok() && cuts) st = cuts->Finish();
  if (!st.ok()) return -SimFail(st.message());
  if (sampler) sampler->Finish(run.end_time());
  NoteFaultsNotRun(faults, t0, run.end_time());
  if (tracer) {
    (*host)->stack().SetTracer(nullptr);
    st = tracer->Close();
    if (!st.ok()) return -SimFail("--trace: " + st.message());
    if (tracer->dropped() && !a.trace.empty()) {
      std::fprintf(stderr,
                   "storlab sim: note: --trace-limit %llu cut the trace short: %llu later events "
                   "were not written to %s\n",
                   static_cast<unsigned long long>(tracer->limit()),
                   static_cast<unsigned long long>(tracer->dropped()), a.trace.c_str());
    }
  }
  auto messages = run.Messages();
  for (size_t i = before; i < messages.size(); ++i) {
    std::fprintf(stderr, "%s\n", messages[i].c_str());
  }
  // fio writes its logs (write_bw_log, ...) when the jobs are done, in the
  // current directory.
  for (const auto& r : run.runners()) {
    if (r->iolog() && !r->spec().trace) {  // write_iolog (read_iolog overrides it)
      st = r->iolog()->Write();
      if (!st.ok()) return -SimFail(st.message());
    }
    st = fio::WriteVerifyDumps(*r);  // verify_dump
    if (!st.ok()) return -SimFail(st.message());
    if (!r->verify_state_file().empty()) {  // verify_state_save (fio's default)
      st = fio::WriteVerifyStateFile(r->verify_state_file(), r->spec().name,
                                     static_cast<uint64_t>(r->spec().thread_number - 1));
      if (!st.ok()) return -SimFail(st.message());
    }
    if (!r->logs()) continue;
    st = r->logs()->Write();
    if (!st.ok()) return -SimFail(st.message());
  }
  // fio's order (stat.c __show_run_stats): terse, JSON, normal. With
  // normal output too, the JSON goes out here; alone it is returned, for
  // --repeat's array.
  // Where the bytes went, when fio's figure beats the stack's limit by
  // more than 2× (the demo's paragraph, workloads/demo_explain.h).
  const std::string why = demo::ExplainIfInflated(run);
  if (a.terse) std::fputs(fio::FioTerseReport(run, a.terse_version).c_str(), out);
  if (a.json) {
    auto doc = fio::FioJson(run, opts);
    if (cuts) doc["storlab"]["oracle"] = CutsJson(cuts->summary());
    if (!capped.empty()) {
      doc["storlab"]["max_runtime_ms"] = a.max_runtime->count() / 1000000;
      doc["storlab"]["capped"] = capped.substr(0, capped.size() - 1);
    }
    if (!why.empty()) doc["storlab"]["explanation"] = why;
    *json = fio::FioJsonDump(doc);
  }
  if (a.json && a.normal) {
    std::fputs(json->c_str(), out);
    json->clear();
  }
  if (a.normal) {
    std::fputs(fio::FioNormalReport(run, opts).c_str(), out);
    if (!capped.empty()) std::fputs(("\n" + capped).c_str(), out);
    if (cuts) std::fputs(("\n" + cuts->summary().Paragraph()).c_str(), out);
    if (!why.empty()) std::fputs(("\nWhere the bytes went: " + why + "\n").c_str(), out);
  }
  if (!a.report_csv.empty()) {
    st = report::WriteReportCsv(a.report_csv, report::ReportCsv(run, *sampler));
    if (!st.ok()) return -SimFail(st.message());
  }
  if (!a.report.empty()) {
    std::string jobs;
    for (const auto& f : a.job_files) jobs += (jobs.empty() ? "" : ", ") + f;
    if (jobs.empty()) jobs = "command-line jobs";
    report::ReportText text{.title = "storlab sim: " + jobs + " on " + a.host.stack,
                            .explanation = why,
                            .power_cuts = cuts ? cuts->summary().Paragraph() : "",
                            .cut_timeline = ""};
    if (cuts && tracer) {
      auto trace =
          a.trace.empty() ? ParseTrace(tracer->text(), "the run's trace") : ReadTrace(a.trace);
      if (!trace.ok()) return -SimFail("--report: " + trace.status().message());
      std::vector<Nanos> at;
      for (const auto& c : cuts->summary().cuts) at.push_back(c.at - cuts->summary().origin);
      text.cut_timeline = report::CutTimeline(*trace, at);
    }
    st = report::WriteReport(a.report, report::HtmlReport(run, *sampler, text),
                             report::ReportCsv(run, *sampler));
    if (!st.ok()) return -SimFail(st.message());
  }
  for (const auto& g : run.Groups(run.Reports())) {
    for (int d = 0; d < 2; ++d) {
      if (g.iobytes[d]) (*figures)[{g.groupid, d}] = static_cast<double>(g.agg[d]);
    }
  }
  st = AfterRun(a, **host);
  if (!st.ok()) return -SimFail(st.message());
  for (const auto& r : run.runners()) {
    if (r->stat().error || r->setup_failed()) return 1;
  }
  // A durable write lost is a failure, as a job's error is.
  if (cuts && !cuts->summary().ok()) return 1;
  return 0;
}

// The spread of --repeat's runs: each group's bandwidth, mean, min, max,
// standard deviation (over the runs, n - 1).
std::string Summary(const SimArgs& a, const std::vector<GroupFigures>& runs) {
  char buf[256];
  const uint64_t last = a.host.seed + static_cast<uint64_t>(a.repeat - 1) * a.seed_step;
  std::snprintf(buf, sizeof buf,
                "\nstorlab sim: %d runs, seeds %llu to %llu (step %llu): group bandwidth, MB/s "
                "(10^6 bytes/s)\n",
                a.repeat, static_cast<unsigned long long>(a.host.seed),
                static_cast<unsigned long long>(last),
                static_cast<unsigned long long>(a.seed_step));
  std::string s = buf;
  std::map<std::pair<int, int>, std::vector<double>> by;
  for (const auto& r : runs) {
    for (const auto& [k, v] : r) by[k].push_back(v / 1e6);
  }
  for (const auto& [k, v] : by) {
    double sum = 0, lo = v[0], hi = v[0];
    for (double x : v) {
      sum += x;
      lo = std::min(lo, x);
      hi = std::max(hi, x);
    }
    const double mean = sum / static_cast<double>(v.size());
    double ss = 0;
    for (double x : v) ss += (x - mean) * (x - mean);
    const double sd = v.size() > 1 ? std::sqrt(ss / static_cast<double>(v.size() - 1)) : 0;
    std::snprintf(buf, sizeof buf,
                  "  group %d %-5s mean %.5g, min %.5g, max %.5g, stdev %.3g (%.2f %%) over %zu "
                  "runs\n",
                  k.first, k.second == fio::kRead ? "READ" : "WRITE", mean, lo, hi, sd,
                  mean > 0 ? 100 * sd / mean : 0.0, v.size());
    s += buf;
  }
  return s;
}

int RunFioJobs(const SimArgs& a) {
  std::vector<std::string> notes;
  auto sections = ReadSections(a, &notes);
  if (!sections.ok()) return SimFail(sections.status().message());
  // Everything that can be checked is, before the simulation runs.
  auto check = fio::BuildJobs(*sections, a.host.seed);
  if (!check.ok()) return SimFail(check.status().message());
  for (const auto& spec : check->jobs) {
    auto logs = fio::JobLogs::Make(spec.opts, spec.name, spec.thread_number);
    Status st = logs ? logs->CheckWritable() : Status();
    if (st.ok() && !spec.opts.write_iolog.empty())
      st = fio::IologWriter(spec.opts.write_iolog).CheckWritable();
    if (!st.ok()) return SimFail(st.message());
  }
  Output out;
  if (!a.output.empty()) {
    out.f = std::fopen(a.output.c_str(), "w");
    if (!out.f) {
      return SimFail("--output: cannot write " + Quoted(a.output, 256) + ": " +
                     std::strerror(errno));
    }
  }
  if (!a.report.empty()) {
    Status st = report::CheckReportPath(a.report);
    if (!st.ok()) return SimFail(st.message());
  }
  if (!a.report_csv.empty()) {
    Status st = report::CheckReportCsvPath(a.report_csv);
    if (!st.ok()) return SimFail(st.message());
  }
  for (const auto& n : notes) std::fprintf(stderr, "%s\n", n.c_str());
  std::vector<GroupFigures> figures(static_cast<size_t>(a.repeat));
  std::vector<std::string> docs;
  int rc = 0;
  for (int r = 0; r < a.repeat; ++r) {
    const uint64_t seed = a.host.seed + static_cast<uint64_t>(r) * a.seed_step;
    if (a.repeat > 1 && a.normal) {
      std::fprintf(out.f, "%sRun %d of %d (seed %llu)\n", r ? "\n" : "", r + 1, a.repeat,
                   static_cast<unsigned long long>(seed));
    }
    std::string json;
    const int one = RunOnce(a, *sections, seed, out.f, &json, &figures[static_cast<size_t>(r)]);
    if (one < 0) return 1;
    rc = std::max(rc, one);
    if (a.json && !a.normal) docs.push_back(std::move(json));
  }
  if (a.json && !a.normal) {
    if (docs.size() == 1) {
      std::fputs(docs[0].c_str(), out.f);
    } else {
      std::string all = "[\n";
      for (size_t i = 0; i < docs.size(); ++i) all += (i ? ",\n" : "") + docs[i];
      std::fputs((all + "]\n").c_str(), out.f);
    }
  }
  if (a.repeat > 1) {
    std::string s = Summary(a, figures);
    std::fputs(s.c_str(), a.normal ? out.f : stderr);
  }
  if (std::fflush(out.f) != 0 || std::ferror(out.f)) {
    return SimFail("--output: cannot write " + Quoted(a.output, 256));
  }
  return rc;
}

}  // namespace

int SimCommand(const Args& args) {
  SimArgs a;
  int rc = ParseSimArgs(args, &a);
  if (rc >= 0) return rc;
  if (a.iozone) {
    if (a.iozone->find_first_not_of(" \t") == std::string::npos) {
      return SimFail("--iozone: give iozone's arguments, e.g. --iozone \"-t 4 -s 256m -r 4k -i0\"");
    }
    if (!a.job_files.empty() || !a.fio_args.empty() || !a.profile.empty()) {
      return SimFail("--iozone runs alone: no fio options or job files with it");
    }
    if (a.seed_step || !a.output.empty()) {
      return SimFail(
          "--iozone: --seed-step and --output are for fio jobs (iozone's --repeat "
          "runs on one stack)");
    }
    if (a.terse || a.json_plus || (a.json && a.normal)) {
      return SimFail("--iozone: its output is normal or json (terse and json+ are fio's)");
    }
    return RunIozoneCommand(a.host, *a.iozone, a.repeat, a.json);
  }
  if (a.job_files.empty() && a.fio_args.empty() && a.profile.empty()) {
    return SimFail("no jobs: give a job file or fio options (--name=...)\n" +
                   std::string(kSimUsage));
  }
  return RunFioJobs(a);
}

}  // namespace storlab::cli
