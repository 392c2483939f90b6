// Helpers for the fio interpreter tests: a stack from TOML text, jobs from
// fio command-line words, run in virtual time.
#ifndef STORLAB_TESTS_WORKLOADS_FIO_TEST_UTIL_H_
#define STORLAB_TESTS_WORKLOADS_FIO_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "workloads/fio/fio_run.h"
#include "workloads/fio/iolog_write.h"
#include "workloads/fio/job_file.h"
#include "workloads/fio/output.h"
#include "workloads/host/sim_host.h"

namespace storlab::fio::testing {

// A RAM disk with a fixed per-request latency: results are exact.
inline std::string RamStack(const std::string& latency = "100us", const std::string& cap = "1GiB",
                            int qd = 256, const std::string& bandwidth = "") {
  return "[node.disk]\ntype = \"ram\"\ncapacity = \"" + cap + "\"\nlatency = \"" + latency +
         "\"\nqueue_depth = " + std::to_string(qd) + "\n" +
         (bandwidth.empty() ? "" : "bandwidth = \"" + bandwidth + "\"\n");
}

struct Sim {
  std::unique_ptr<SimHost> host;
  std::unique_ptr<FioRun> run;
  Status status;
  std::string Json() const { return FioJsonText(*run, {}); }
  nlohmann::ordered_json JsonObject() const { return FioJson(*run, {}); }
  std::string Normal() const { return FioNormalHeader(*run) + FioNormalReport(*run, {}); }
  const ThreadStat& Job(size_t i) const { return run->runners()[i]->stat(); }
};

inline Sim RunJobs(const std::string& stack_text, const std::vector<RawSection>& sections,
                   uint64_t seed = 1) {
  Sim s;
  HostOptions ho;
  ho.stack = "test.toml";
  ho.stack_text = stack_text;
  ho.seed = seed;
  auto host = SimHost::Create(ho);
  if (!host.ok()) {
    s.status = host.status();
    return s;
  }
  s.host = std::move(*host);
  auto jobs = BuildJobs(sections, seed);
  if (!jobs.ok()) {
    s.status = jobs.status();
    return s;
  }
  s.run = std::make_unique<FioRun>(*s.host, std::move(*jobs));
  s.status = s.run->Prepare();
  if (s.status.ok()) s.status = s.run->Run(nullptr);
  return s;
}

// Runs `args` (fio command-line words) on `stack_text`, on a host that keeps
// data when `keep_data`; `before_run(host)` runs after the layout, before
// the jobs (to schedule a fault at engine().now() + T).
inline Sim RunWithHost(const std::string& stack_text, const std::vector<std::string>& args,
                       bool keep_data, const std::function<void(SimHost&)>& before_run = {}) {
  Sim s;
  HostOptions ho;
  ho.stack = "test.toml";
  ho.stack_text = stack_text;
  ho.keep_data = keep_data;
  auto host = SimHost::Create(ho);
  EXPECT_TRUE(host.ok());
  s.host = std::move(*host);
  auto sections = ParseCommandLine(args);
  EXPECT_TRUE(sections.ok());
  auto jobs = BuildJobs(*sections, 1);
  if (!jobs.ok()) {
    s.status = jobs.status();
    return s;
  }
  s.run = std::make_unique<FioRun>(*s.host, std::move(*jobs));
  s.status = s.run->Prepare();
  if (before_run) before_run(*s.host);
  if (s.status.ok()) s.status = s.run->Run(nullptr);
  return s;
}

inline Sim RunArgs(const std::string& stack_text, const std::vector<std::string>& args,
                   uint64_t seed = 1) {
  auto sections = ParseCommandLine(args);
  if (!sections.ok()) {
    Sim s;
    s.status = sections.status();
    return s;
  }
  return RunJobs(stack_text, *sections, seed);
}

// The golden files of real fio 3.33 (tests/workloads/golden/). ctest sets
// STORLAB_SOURCE_DIR (__FILE__ may be relative: ccache's base_dir).
inline std::string GoldenDir() {
  const char* src = std::getenv("STORLAB_SOURCE_DIR");
  if (src) return std::string(src) + "/tests/workloads/golden/";
  std::string f = __FILE__;
  return f.substr(0, f.rfind('/')) + "/golden/";
}

// A block real fio 3.33 wrote with verify= (golden/verify/README.md).
inline std::vector<uint8_t> RealVerifyBlock(const std::string& name) {
  std::ifstream in(GoldenDir() + "/verify/" + name, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The n-byte little-endian number at `at` of `b`.
inline uint64_t LeAt(const std::vector<uint8_t>& b, size_t at, int n) {
  uint64_t v = 0;
  for (int i = n - 1; i >= 0; --i) v = v << 8 | b[at + static_cast<size_t>(i)];
  return v;
}

inline std::string ReadGolden(const std::string& name) {
  std::ifstream in(GoldenDir() + name);
  EXPECT_TRUE(in.good()) << name;
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The "op offset length" of every read/write line of an iolog.
inline std::vector<std::string> IologIos(const std::string& log) {
  std::istringstream in(log);
  std::vector<std::string> out;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream ls(line);
    std::string t, file, op, off, len;
    if (ls >> t >> file >> op >> off >> len && (op == "read" || op == "write" || op == "trim")) {
      out.push_back(op + " " + off + " " + len);
    }
  }
  return out;
}

// Words of a command line.
inline std::vector<std::string> Split(const std::string& args) {
  std::istringstream in(args);
  std::vector<std::string> out;
  std::string w;
  while (in >> w) out.push_back(w);
  return out;
}

// One job "t" in directory /d of the default RAM stack with `args`; the run
// must start.
inline Sim RunInDir(const std::string& args) {
  auto s = RunArgs(RamStack(), Split("--name=t --directory=/d " + args));
  EXPECT_TRUE(s.status.ok()) << s.status.ToString();
  return s;
}

// The iolog a one-job run of `args` records (write_iolog), as text.
inline std::string RecordedLog(const std::string& stack, const std::string& args) {
  auto s = RunArgs(stack, Split(args + " --write_iolog=/nonexistent/not-written.log"));
  EXPECT_TRUE(s.status.ok()) << s.status.ToString();
  if (!s.status.ok()) return "";
  const IologWriter* w = s.run->runners()[0]->iolog();
  return w ? w->text() : "";
}

// Every key path of a JSON document ("/jobs[]/read/clat_ns/percentile").
inline void KeyPaths(const nlohmann::json& j, const std::string& prefix,
                     std::set<std::string>* out) {
  if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it) {
      std::string p = prefix + "/" + it.key();
      out->insert(p);
      KeyPaths(it.value(), p, out);
    }
  } else if (j.is_array()) {
    for (const auto& v : j) KeyPaths(v, prefix + "[]", out);
  }
}

// A fresh directory under /tmp, removed with everything in it.
struct TempDir {
  std::string path;
  explicit TempDir(const char* prefix = "storlab_test") {
    std::string t = std::string("/tmp/") + prefix + "_XXXXXX";
    path = mkdtemp(t.data());
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  ~TempDir() { std::filesystem::remove_all(path); }
  // Writes `data` to the file `name` in it; returns its path.
  std::string Put(const std::string& name, const std::string& data) const {
    std::string p = path + "/" + name;
    std::ofstream(p, std::ios::binary) << data;
    return p;
  }
};

}  // namespace storlab::fio::testing

#endif  // STORLAB_TESTS_WORKLOADS_FIO_TEST_UTIL_H_
