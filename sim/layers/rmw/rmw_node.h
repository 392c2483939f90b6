// RmwNode: the "rmw" node type, a block-size mismatch.
//
// The layer presents `logical_block` (512 or 4096) over a child that works
// in bigger units: a 512e drive with 4 KiB physical sectors, a zvol with a
// 64 KiB volblocksize, a file system record. A write that does not cover
// whole units costs a read of each partly written unit, then a write of the
// whole units (read-modify-write with the real bytes); reads read whole
// units too. Writes overlapping the same unit are serialised so none is
// lost. AppendStats reports the write amplification: bytes written to the
// child / bytes written by clients. Not thread-safe.
#ifndef STORLAB_SIM_LAYERS_RMW_RMW_NODE_H_
#define STORLAB_SIM_LAYERS_RMW_RMW_NODE_H_

#include <algorithm>
#include <limits>
#include <memory>
#include <string>

#include "sim/layers/range_lock.h"
#include "sim/node.h"

namespace storlab {

class RmwNode : public NodeWrapper {
 public:
  struct Config {
    uint64_t unit = 4096;          // the child's unit (512e: 4 KiB physical sector)
    uint32_t logical_block = 512;  // what clients see
    bool keeps_data = true;        // false: a timing-only run
  };
  // REQUIRES: unit is a multiple of logical_block and of the child's
  // logical block (MakeRmw checks).
  RmwNode(Engine& engine, std::string name, Node& child, const Config& config);
  static constexpr NodeKind kKind = NodeKind::kRmw;
  NodeKind kind() const override { return kKind; }
  std::string_view type() const override { return "rmw"; }
  void AppendStats(StatList& out) const override;
  // --state: nothing. Once idle no unit is locked or in flight, and the
  // layer keeps no data of its own (the child carries it).
  bool CanSaveState() const override { return true; }
  Status SaveState(StateWriter&) const override { return Status(); }
  Status RestoreState(StateReader&) override { return Status(); }

  uint64_t client_write_bytes() const { return client_write_bytes_; }
  uint64_t child_write_bytes() const { return child_write_bytes_; }
  uint64_t rmw_read_bytes() const { return rmw_read_bytes_; }
  uint64_t rmw_writes() const { return rmw_writes_; }
  // child_write_bytes / client_write_bytes (1 when nothing was written).
  double write_amplification() const;

 protected:
  void DoSubmit(Request req) override;
  void OnPowerCut() override;

 private:
  struct Pending;
  void Read(Request req);
  void Write(Request req);
  void Trim(Request req);
  void ReadUnits(const std::shared_ptr<Pending>& op);
  void WriteUnits(const std::shared_ptr<Pending>& op);
  void Finish(const std::shared_ptr<Pending>& op);
  uint64_t Down(uint64_t x) const { return x / config_.unit * config_.unit; }
  uint64_t Up(uint64_t x) const { return (x + config_.unit - 1) / config_.unit * config_.unit; }

  Config config_;
  RangeLock lock_;
  uint64_t epoch_ = 0;
  uint64_t client_write_bytes_ = 0;
  uint64_t child_write_bytes_ = 0;
  uint64_t rmw_read_bytes_ = 0;
  uint64_t rmw_writes_ = 0;
  uint64_t read_bytes_ = 0;
  uint64_t child_read_bytes_ = 0;
};

}  // namespace storlab

#endif  // STORLAB_SIM_LAYERS_RMW_RMW_NODE_H_
