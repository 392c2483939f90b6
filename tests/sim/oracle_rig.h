// The oracle tests' disk: a small one with a volatile cache that can be
// told to lie, and a rig of it under an oracle.
#ifndef STORLAB_TESTS_SIM_ORACLE_RIG_H_
#define STORLAB_TESTS_SIM_ORACLE_RIG_H_

#include <algorithm>
#include <memory>

#include "sim/oracle.h"
#include "sim/stack.h"
#include "sim/store/overlay.h"
#include "sim/store/ram_store.h"
#include "sim/time.h"

namespace storlab {
namespace oracle_test {

using namespace time_literals;

// Writes land in a volatile cache; FLUSH drains it, FUA bypasses it.
// Misbehaviours: a flush that drains nothing, reads that ignore the cache.
// `claims_cache` false: it says it has no volatile cache (writes durable
// when they complete); `write_through`: it keeps that promise.
class CachedDisk : public Node {
 public:
  bool lie_on_flush = false;
  bool stale_reads = false;
  bool write_through = false;
  bool read_at_submit = false;  // a read takes the media's content at once, answers later
  uint32_t read_flags = 0;      // every flag a read carried
  uint64_t longest_read = 0;    // bytes
  int reads_in_flight = 0, most_reads_in_flight = 0;

  CachedDisk(Engine& e, uint64_t capacity, bool claims_cache = true)
      : Node(e, "disk"), cache_(true) {
    geometry_.capacity = capacity;
    caps_.volatile_cache = claims_cache;
    caps_.trim = true;
  }
  std::string_view type() const override { return "cached-disk"; }
  RamStore& media() { return media_; }

 protected:
  void DoSubmit(Request req) override {
    if (req.op == Op::kRead) {
      read_flags |= req.flags;
      longest_read = std::max(longest_read, req.length);
      most_reads_in_flight = std::max(most_reads_in_flight, ++reads_in_flight);
      req.done = [this, done = std::move(req.done)](Status st) mutable {
        --reads_in_flight;
        done(std::move(st));
      };
    }
    if (read_at_submit && req.op == Op::kRead) {
      (void)media_.Read(req.offset, req.length, req.data);
      engine_.After(20_us, [r = std::move(req)]() mutable { r.done(Status()); });
      return;
    }
    engine_.After(10_us, [this, r = std::move(req)]() mutable {
      switch (r.op) {
        case Op::kRead:
          (void)media_.Read(r.offset, r.length, r.data);
          if (!stale_reads) cache_.Patch(r.offset, r.length, r.data);
          break;
        case Op::kWrite:
          if (r.fua() || write_through) {
            cache_.Erase(r.offset, r.length);
            (void)media_.Write(r.offset, r.length, r.data);
          } else {
            cache_.Put(r.offset, r.length, r.data);
          }
          break;
        case Op::kWriteZeroes:
        case Op::kTrim:
          cache_.Erase(r.offset, r.length);
          (void)media_.Zero(r.offset, r.length);
          break;
        case Op::kFlush:
          if (!lie_on_flush) (void)cache_.DrainAllTo(media_);
          break;
      }
      r.done(Status());
    });
  }
  void OnPowerCut() override { cache_.Clear(); }

 private:
  RamStore media_;
  Overlay cache_;
};

struct Rig {
  Engine e;
  Stack stack{e, "rig", 1, DataMode()};
  CachedDisk* disk;
  Oracle* oracle;
  Rig() {
    disk = &stack.Adopt(std::make_unique<CachedDisk>(e, 1 << 24));
    oracle = &stack.Adopt(std::make_unique<Oracle>(e, *disk));
  }
};

}  // namespace oracle_test
}  // namespace storlab

#endif  // STORLAB_TESTS_SIM_ORACLE_RIG_H_
