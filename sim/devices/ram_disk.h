// RamDisk: a device with no moving parts and, by default, no latency.
//
// Every request completes after a fixed latency, plus its transfer over one
// data path of `bandwidth` shared by all requests (both optional), with
// `queue_depth` requests in service and the rest waiting in FIFO order. Writes are durable when
// they complete: there is no volatile cache. The catalog's `ram`, and the simplest example of a
// device model. Not thread-safe.
#ifndef STORLAB_SIM_DEVICES_RAM_DISK_H_
#define STORLAB_SIM_DEVICES_RAM_DISK_H_

#include <deque>
#include <memory>

#include "sim/node.h"
#include "sim/store/store.h"

namespace storlab {

class RamDisk : public Node {
 public:
  struct Config {
    uint64_t capacity = uint64_t{1} << 30;
    uint32_t logical_block = 512;
    Nanos latency;           // per request
    double bytes_per_s = 0;  // 0: unlimited
    uint32_t queue_depth = 256;
  };
  RamDisk(Engine& engine, std::string name, const Config& p, std::unique_ptr<Store> store);
  static constexpr NodeKind kKind = NodeKind::kRam;
  NodeKind kind() const override { return kKind; }
  std::string_view type() const override { return "ram"; }
  // storlab sim --state (docs/state.md): its store and when its data path is next free.
  bool CanSaveState() const override { return true; }
  const Store* durable_store() const override { return store_.get(); }
  Status SaveState(StateWriter& w) const override;
  Status RestoreState(StateReader& r) override;
  Store& store() { return *store_; }

 protected:
  void DoSubmit(Request req) override;
  void OnPowerCut() override;

 private:
  void Start(Request req);
  void Finish(Request req);

  Config p_;
  std::unique_ptr<Store> store_;
  uint32_t busy_ = 0;
  Nanos bus_free_;  // when the shared data path is free
  std::deque<Request> waiting_;
};

}  // namespace storlab

#endif  // STORLAB_SIM_DEVICES_RAM_DISK_H_
