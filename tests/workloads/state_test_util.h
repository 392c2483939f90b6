// Helpers for the --state tests (state_test.cc, state_layers_test.cc): a
// run restored from and saved to a state directory, the figures of a job
// that must match, and the equivalence check "A then B with --state equals
// A and B stonewalled in one run".
#ifndef STORLAB_TESTS_WORKLOADS_STATE_TEST_UTIL_H_
#define STORLAB_TESTS_WORKLOADS_STATE_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "tests/workloads/fio_test_util.h"
#include "workloads/host/host_state.h"

namespace storlab::fio::testing {

// One run of `args` on a host from `options`, with --state DIR when `dir`
// is given: restored before, saved after (through `env`).
struct StateRun {
  Sim sim;
  bool restored = false;
  Status save;
};

inline StateRun RunWithState(const HostOptions& options, const std::vector<std::string>& args,
                             const std::string& dir, Env* env = nullptr, bool reboot = false) {
  StateRun r;
  Sim& s = r.sim;
  auto host = SimHost::Create(options);
  if (!host.ok()) {
    s.status = host.status();
    return r;
  }
  s.host = std::move(*host);
  if (!dir.empty()) {
    s.status = CheckHostCanSave(*s.host);
    if (!s.status.ok()) return r;
    auto restored = RestoreHostState(*s.host, dir, env);
    if (!restored.ok()) {
      s.status = restored.status();
      return r;
    }
    r.restored = *restored;
    if (r.restored && reboot) s.host->stack().PowerCut();  // storlab sim --reboot
  }
  auto sections = ParseCommandLine(args);
  if (!sections.ok()) {
    s.status = sections.status();
    return r;
  }
  auto jobs = BuildJobs(*sections, options.seed);
  if (!jobs.ok()) {
    s.status = jobs.status();
    return r;
  }
  s.run = std::make_unique<FioRun>(*s.host, std::move(*jobs));
  s.status = s.run->Prepare();
  if (s.status.ok()) s.status = s.run->Run(nullptr);
  if (s.status.ok() && !dir.empty()) r.save = SaveHostState(*s.host, dir, env);
  return r;
}

// The figures of job `name` that must match: per direction bw, iops,
// latencies and their percentiles, and the job's runtime and latency
// distribution.
inline nlohmann::ordered_json Figures(const Sim& s, const std::string& name) {
  nlohmann::ordered_json out;
  const nlohmann::ordered_json doc = s.JsonObject();
  for (const auto& j : doc["jobs"]) {
    if (j["jobname"] != name) continue;
    for (const char* k : {"read", "write", "trim", "sync", "job_runtime", "latency_ns",
                          "latency_us", "latency_ms", "iodepth_level", "iodepth_complete"}) {
      if (j.contains(k)) out[k] = j[k];
    }
  }
  return out;
}

inline std::vector<std::string> Cat(std::vector<std::string> a, const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

// A then B with --state must equal A and B stonewalled in one run, in B's
// figures. `a` and `b` are one job each, named a and b. A state is saved
// once the stack is idle (writeback and destaging done), so B starts at
// that time: in the one run, B waits for it with a startdelay.
inline void ExpectSameAsOneRun(const HostOptions& options, const std::vector<std::string>& a,
                               const std::vector<std::string>& b) {
  TempDir tmp("storlab_state");
  const std::string dir = tmp.path + "/state";
  StateRun first = RunWithState(options, a, dir);
  ASSERT_TRUE(first.sim.status.ok()) << first.sim.status.ToString();
  ASSERT_TRUE(first.save.ok()) << first.save.ToString();
  EXPECT_FALSE(first.restored);
  StateRun second = RunWithState(options, b, dir);
  ASSERT_TRUE(second.sim.status.ok()) << second.sim.status.ToString();
  ASSERT_TRUE(second.save.ok()) << second.save.ToString();
  EXPECT_TRUE(second.restored);
  const Nanos b_start = second.sim.run->runners()[0]->extras().start;
  // The trailing options belong to job b: it waits for a (stonewall), then
  // for the stack to go idle, as the saved run did.
  const Nanos a_end = first.sim.run->runners()[0]->extras().end;
  ASSERT_GE(b_start, a_end);
  char delay[64];
  std::snprintf(delay, sizeof delay, "--startdelay=%lld.%09llds",
                static_cast<long long>((b_start - a_end).count() / 1'000'000'000),
                static_cast<long long>((b_start - a_end).count() % 1'000'000'000));
  StateRun one = RunWithState(options, Cat(Cat(a, b), {"--stonewall", delay}), "");
  ASSERT_TRUE(one.sim.status.ok()) << one.sim.status.ToString();
  EXPECT_EQ(one.sim.run->runners()[1]->extras().start, b_start);
  // A's figures too: the state machinery changes nothing in the first run.
  EXPECT_EQ(Figures(first.sim, "a").dump(1), Figures(one.sim, "a").dump(1));
  const auto want = Figures(one.sim, "b");
  ASSERT_FALSE(want.empty());
  EXPECT_EQ(Figures(second.sim, "b").dump(1), want.dump(1));
}

inline HostOptions Catalog(const std::string& stack) {
  HostOptions o;
  o.stack = stack;
  return o;
}

// Saves the state `a` leaves, restores it into a fresh host and saves that
// again at once: every file must come back byte for byte (a node reads
// back whole what it wrote). Returns the first state's directory listing.
inline std::vector<std::string> ExpectRoundTrip(const HostOptions& options,
                                                const std::vector<std::string>& a) {
  TempDir tmp("storlab_state");
  const std::string s = tmp.path + "/s", t = tmp.path + "/t";
  StateRun first = RunWithState(options, a, s);
  EXPECT_TRUE(first.sim.status.ok()) << first.sim.status.ToString();
  EXPECT_TRUE(first.save.ok()) << first.save.ToString();
  auto host = SimHost::Create(options);
  EXPECT_TRUE(host.ok());
  if (!host.ok()) return {};
  auto restored = RestoreHostState(**host, s);
  EXPECT_TRUE(restored.ok() && *restored) << restored.status().ToString();
  const Status saved = SaveHostState(**host, t);
  EXPECT_TRUE(saved.ok()) << saved.ToString();
  std::vector<std::string> files;
  for (const auto& e : std::filesystem::directory_iterator(s)) {
    const std::string name = e.path().filename().string();
    files.push_back(name);
    std::ifstream x(s + "/" + name, std::ios::binary), y(t + "/" + name, std::ios::binary);
    std::stringstream xs, ys;
    xs << x.rdbuf();
    ys << y.rdbuf();
    const std::string& x_bytes = xs.str();
    const std::string& y_bytes = ys.str();
    size_t at = 0;
    while (at < x_bytes.size() && at < y_bytes.size() && x_bytes[at] == y_bytes[at]) ++at;
    EXPECT_TRUE(x_bytes == y_bytes)
        << name << " changed in a save-restore-save round trip: " << x_bytes.size()
        << " bytes, then " << y_bytes.size() << ", first difference at offset " << at;
  }
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace storlab::fio::testing

#endif  // STORLAB_TESTS_WORKLOADS_STATE_TEST_UTIL_H_
