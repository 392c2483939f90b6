// A device for unit tests of the cache's parts (CacheDestager,
// CacheCommitter): records every request and completes it after a fixed
// latency, failing writes on demand.
#ifndef STORLAB_TESTS_SIM_CACHE_UNIT_UTIL_H_
#define STORLAB_TESTS_SIM_CACHE_UNIT_UTIL_H_

#include <string_view>
#include <vector>

#include "sim/node.h"

namespace storlab::testing {

class Recorder : public Node {
 public:
  Recorder(Engine& e, const char* name, Nanos latency, uint32_t sector = 512)
      : Node(e, name), latency_(latency) {
    geometry_.capacity = 1 << 30;
    geometry_.logical_block = sector;
  }
  std::string_view type() const override { return "recorder"; }
  struct Seen {
    Op op;
    uint32_t flags;
    uint64_t offset, length;
  };
  std::vector<Seen> seen;
  bool fail_writes = false;

 protected:
  void DoSubmit(Request req) override {
    seen.push_back({req.op, req.flags, req.offset, req.length});
    const bool fail = fail_writes && req.op == Op::kWrite;
    CompleteAfter(latency_, std::move(req), fail ? Status::IoError(name() + ": write") : Status());
  }

 private:
  Nanos latency_;
};

}  // namespace storlab::testing

#endif  // STORLAB_TESTS_SIM_CACHE_UNIT_UTIL_H_
