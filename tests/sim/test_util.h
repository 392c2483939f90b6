// Helpers for tests that drive a node in virtual time.
#ifndef STORLAB_TESTS_SIM_TEST_UTIL_H_
#define STORLAB_TESTS_SIM_TEST_UTIL_H_

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "sim/engine.h"
#include "sim/node.h"
#include "sim/profile/catalog.h"
#include "sim/profile/loader.h"
#include "sim/random.h"
#include "sim/virtual_driver.h"

namespace storlab::testing {

struct IoResult {
  Status status;
  Nanos done_at;
  Nanos latency;
};

// Submits one request, runs the engine until it completes (and until idle
// if `drain`), returns its status and completion time.
inline IoResult DoIo(Engine& e, Node& n, Op op, uint64_t off, uint64_t len, uint8_t* data,
                     uint32_t flags = 0, uint32_t file_id = 0) {
  IoResult r{Status::Internal("never completed"), Nanos(-1), Nanos(-1)};
  bool done = false;
  Nanos start = e.now();
  Request req{.op = op,
              .flags = flags,
              .offset = off,
              .length = len,
              .data = data,
              .file_id = file_id,
              .done = [&](Status st) {
                r.status = std::move(st);
                r.done_at = e.now();
                r.latency = e.now() - start;
                done = true;
              }};
  n.Submit(std::move(req));
  VirtualDriver(e).RunWhile([&] { return !done; });
  return r;
}

inline IoResult Write(Engine& e, Node& n, uint64_t off, std::vector<uint8_t>& buf,
                      uint32_t flags = 0) {
  return DoIo(e, n, Op::kWrite, off, buf.size(), buf.data(), flags);
}
inline IoResult Read(Engine& e, Node& n, uint64_t off, std::vector<uint8_t>& buf) {
  return DoIo(e, n, Op::kRead, off, buf.size(), buf.data());
}
inline IoResult Flush(Engine& e, Node& n) { return DoIo(e, n, Op::kFlush, 0, 0, nullptr); }

inline std::vector<uint8_t> Pattern(uint64_t len, uint64_t seed) {
  std::vector<uint8_t> v(len);
  Random r(seed);
  r.Fill(v.data(), v.size());
  return v;
}

// The source tree (STORLAB_SOURCE_DIR, else the build's default).
inline std::string SourceDir() {
  const char* d = std::getenv("STORLAB_SOURCE_DIR");
#ifdef STORLAB_SOURCE_DIR_DEFAULT
  return d ? d : STORLAB_SOURCE_DIR_DEFAULT;
#else
  return d ? d : ".";
#endif
}

// Every catalog stack by name, then every tests/sim/conformance/*.toml by
// path, sorted: the stacks that together hold every node type.
inline std::vector<std::string> CatalogAndConformanceStacks() {
  std::vector<std::string> v;
  for (const auto& e : Catalog()) v.emplace_back(e.name);
  std::filesystem::path dir = std::filesystem::path(SourceDir()) / "tests/sim/conformance";
  std::vector<std::string> files;
  if (std::filesystem::exists(dir)) {
    for (const auto& f : std::filesystem::directory_iterator(dir))
      if (f.path().extension() == ".toml") files.push_back(f.path().string());
  }
  std::sort(files.begin(), files.end());
  v.insert(v.end(), files.begin(), files.end());
  return v;
}

// Loads a catalog stack or stack text; fails the test on error.
inline LoadedStack MustLoad(const std::string& name, Engine& e, uint64_t seed = 1,
                            DataMode::Kind kind = DataMode::Kind::kRam) {
  BuildOptions o;
  o.seed = seed;
  o.data_mode.kind = kind;
  auto r = LoadStack(name, e, o);
  if (!r.ok()) {
    ADD_FAILURE() << r.status().ToString();
    std::abort();
  }
  return std::move(r).value();
}
inline LoadedStack MustLoadText(const std::string& text, Engine& e, uint64_t seed = 1,
                                DataMode::Kind kind = DataMode::Kind::kRam) {
  BuildOptions o;
  o.seed = seed;
  o.data_mode.kind = kind;
  auto r = LoadStackText(text, "test.toml", ".", e, o);
  if (!r.ok()) {
    ADD_FAILURE() << r.status().ToString();
    std::abort();
  }
  return std::move(r).value();
}

}  // namespace storlab::testing

#endif  // STORLAB_TESTS_SIM_TEST_UTIL_H_
