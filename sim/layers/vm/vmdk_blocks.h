// VmdkBlocks: the VMFS file blocks of an ESXi virtual disk (VMDK) that have
// not been zeroed yet, and the guest writes waiting for their blocks'
// zeroing. A lazy-zeroed thick or a thin VMDK on a VMFS datastore is zeroed
// on demand: "zeroed out on demand later on first write from the virtual
// machine" (VMware vSphere 7.0 Storage, "About Virtual Disk Provisioning
// Policies"), "the space is zeroed on demand as the space is used" (vSphere
// API reference, Ovf DiskProvisioningType `thick` and `thin`), and "before
// any new data is written to the virtual disk, ESXi will first zero out the
// block" (Dell EMC, "SC Series: Best Practices with VMware vSphere",
// 2060-M-BP-V, §12.1.1); an eager-zeroed thick VMDK was zeroed when it was
// created. A VMFS5/VMFS6 file block is 1 MiB ("Block size: Standard 1 MB",
// VMware vSphere 7.0 Storage, "VMFS Datastores").
//
// The virtual disk (virtual_disk.h) asks Wait() before it sends a guest
// write on; Wait() names the blocks whose zeroing must start and runs `go`
// once every block the write touches is zeroed. The zeroed blocks are VMFS
// metadata on the datastore: they survive a power cut and are saved with
// the stack's state; the zeroings in flight and their waiters do not.
// Not thread-safe.
#ifndef STORLAB_SIM_LAYERS_VM_VMDK_BLOCKS_H_
#define STORLAB_SIM_LAYERS_VM_VMDK_BLOCKS_H_

#include <cstdint>
#include <map>
#include <memory>
#include <vector>

#include "sim/callback.h"
#include "sim/state_coding.h"
#include "sim/status.h"

namespace storlab {

class VmdkBlocks {
 public:
  static constexpr uint64_t kBlockBytes = uint64_t{1} << 20;  // VMFS5/6 file block
  using StartZeroing = Callback<void(uint64_t offset, uint64_t length)>;
  using Go = Callback<void(Status)>;

  // A VMDK of `capacity` bytes with no block zeroed yet.
  explicit VmdkBlocks(uint64_t capacity);
  VmdkBlocks(const VmdkBlocks&) = delete;
  VmdkBlocks& operator=(const VmdkBlocks&) = delete;

  // Whether every block of [offset, offset + length) is zeroed.
  bool Zeroed(uint64_t offset, uint64_t length) const;
  // Runs `go` (from a later Done(), or at once if nothing is missing) when
  // every block of [offset, offset + length) is zeroed, with the first
  // error of their zeroings. Calls `start` for each block whose zeroing is
  // not in flight yet (the last block ends at the capacity); the caller
  // reports its end with Done().
  void Wait(uint64_t offset, uint64_t length, StartZeroing& start, Go go);
  // The zeroing of the block at `offset` ended with `st`: the block is
  // zeroed if `st` is ok; its waiters go once nothing else holds them.
  void Done(uint64_t offset, const Status& st);

  // Forgets the zeroings in flight and their waiters (a power cut).
  void DropInFlight();
  uint64_t blocks_zeroed() const { return blocks_zeroed_; }
  uint64_t waits() const { return waits_; }

  void Save(StateWriter& w) const;
  void Restore(StateReader& r);

 private:
  struct Waiter {
    uint32_t missing = 0;
    Status status;
    Go go;
  };
  bool IsZeroed(uint64_t block) const { return (zeroed_[block / 64] >> (block % 64)) & 1; }

  uint64_t capacity_;
  uint64_t blocks_;
  std::vector<uint64_t> zeroed_;  // one bit per block
  // Blocks being zeroed, each with the writes waiting for it.
  std::map<uint64_t, std::vector<std::shared_ptr<Waiter>>> in_flight_;
  uint64_t blocks_zeroed_ = 0;
  uint64_t waits_ = 0;
};

}  // namespace storlab

#endif  // STORLAB_SIM_LAYERS_VM_VMDK_BLOCKS_H_
