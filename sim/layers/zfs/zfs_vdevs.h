// ZfsVdevs: a ZFS pool's top-level vdev, its block allocator and the
// per-disk I/O scheduler (vdev_queue.c) in front of each member.
//
// Layouts: a mirror (every block on every member, reads from the least
// busy one), raidz1 (a block's sectors in rows across the members plus one
// parity sector per row; the rows are padded to full width, like raidz's
// skip sectors) and a stripe (each block on one member, moving to the next
// member every 512 KiB allocated, metaslab_aliquot). Blocks are allocated
// copy-on-write, next-fit from a cursor in the space the labels leave free
// (4 MiB at the front, 512 KiB at the end, as on disk). The I/O is timing
// only: the pool's data lives with the ZfsPool (see zfs.h).
//
// Each member has ZFS's I/O classes with their own limits on requests in
// flight (zfs_vdev_{sync_read,sync_write,async_read,async_write}_max_active
// = 10, 10, 3, 10), issued in that priority order; the async-write limit is
// raised from min_active (2) as dirty data grows (set by the pool). An
// optional separate log device (SLOG) takes ZIL blocks. Not thread-safe.
#ifndef STORLAB_SIM_LAYERS_ZFS_ZFS_VDEVS_H_
#define STORLAB_SIM_LAYERS_ZFS_ZFS_VDEVS_H_

#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <vector>

#include "sim/node.h"
#include "sim/slot_pool.h"
#include "sim/status.h"

namespace storlab {

class StateReader;
class StateWriter;

enum class ZfsLayout { kStripe, kMirror, kRaidz1 };
enum class ZfsIoClass { kSyncRead = 0, kSyncWrite = 1, kAsyncRead = 2, kAsyncWrite = 3 };

// Where a block lives: an offset on its member(s) and the bytes it takes
// on each member.
struct ZfsBp {
  uint64_t offset = 0;
  uint64_t asize = 0;   // per member
  uint32_t member = 0;  // stripe: the member holding it
  bool compressed = false;
  Nanos decompress_cpu;  // if compressed: what reading it back costs a core
};

// Next-fit extent allocator over [start, end).
class ExtentAllocator {
 public:
  ExtentAllocator(uint64_t start, uint64_t end);
  bool Allocate(uint64_t size, uint64_t* offset);
  void Free(uint64_t offset, uint64_t size);
  void Reset();  // everything free
  uint64_t free_bytes() const { return free_bytes_; }
  // storlab sim --state (zfs_state.cc): the free extents and the cursor.
  void SaveState(StateWriter& w) const;
  Status RestoreState(StateReader& r);

 private:
  uint64_t start_, end_, cursor_;
  uint64_t free_bytes_ = 0;
  std::map<uint64_t, uint64_t> free_;  // offset -> length
};

class ZfsVdevs {
 public:
  static constexpr uint64_t kSector = 4096;
  static constexpr uint64_t kFrontLabels = 4 << 20;  // 2 labels + boot block
  static constexpr uint64_t kEndLabels = 512 << 10;  // 2 labels
  struct Config {
    ZfsLayout layout = ZfsLayout::kMirror;
    std::array<uint32_t, 4> max_active = {10, 10, 3, 10};
    uint32_t async_write_min_active = 2;
  };

  // A member: a device, or a region of one (ZFS on partitions; a USB
  // enclosure showing two drives through one link). size 0: the whole device.
  struct MemberSpec {
    Node* node;
    uint64_t base = 0;
    uint64_t size = 0;
  };
  // REQUIRES: members non-empty; raidz1 needs >= 2 (3 for parity to pay).
  ZfsVdevs(const std::vector<MemberSpec>& members, Node* slog, const Config& config);
  ZfsVdevs(const ZfsVdevs&) = delete;
  ZfsVdevs& operator=(const ZfsVdevs&) = delete;

  // Bytes of data the pool can hold.
  uint64_t usable_bytes() const;
  // Allocates a block of `psize` bytes (a sector multiple). False: full.
  bool Allocate(uint64_t psize, ZfsBp* bp);
  void Free(const ZfsBp& bp);
  // Member bytes a block of `psize` takes, over all members.
  uint64_t RawBytes(uint64_t psize) const;

  // Writes a block (every mirror side / every raidz column); reads one
  // (one mirror side / the data columns).
  void Write(const ZfsBp& bp, ZfsIoClass cls, Callback<void(Status)> done);
  void Read(const ZfsBp& bp, ZfsIoClass cls, Callback<void(Status)> done);
  // Flushes every member's volatile cache.
  void FlushMembers(Callback<void(Status)> done);
  // The uberblock of `txg`: 4 KiB into each of the four labels of every member.
  void WriteUberblock(uint64_t txg, Callback<void(Status)> done);

  bool has_slog() const { return slog_ != nullptr; }
  // A ZIL block of `bytes` on the SLOG (a ring over the device).
  void SlogWrite(uint64_t bytes, Callback<void(Status)> done);
  void FlushSlog(Callback<void(Status)> done);

  // zfs_vdev_async_write_active_{min,max}_dirty_percent scaling, set by the
  // pool; raising it issues queued writes.
  void set_async_write_limit(uint32_t n);
  const Config& config() const { return config_; }
  uint64_t member_writes() const { return member_writes_; }
  // storlab sim --state (zfs_state.cc): the space maps (each allocator's
  // free extents and cursor), the stripe's rotor, the SLOG's ring cursor
  // and the async-write limit. REQUIRES: no member I/O queued or active.
  Status SaveState(StateWriter& w) const;
  Status RestoreState(StateReader& r);

  // A power cut: queues are gone and free space is rebuilt from the blocks
  // `for_each_used` reports as still referenced.
  void Reset(const std::function<void(const std::function<void(const ZfsBp&)>&)>& for_each_used);

 private:
  struct Member {
    Node* node;
    uint64_t base;
    std::array<std::deque<Request>, 4> queued;
    std::array<uint32_t, 4> active{};
  };
  Engine& engine() const { return members_.front().node->engine(); }
  // Queues one member request; `done` runs when it completes.
  void Enqueue(uint32_t member, ZfsIoClass cls, Op op, uint64_t offset, uint64_t length,
               Completion done);
  void Dispatch(uint32_t member);
  uint32_t Limit(ZfsIoClass cls) const;
  ExtentAllocator& AllocatorFor(uint32_t member) {
    return allocs_[allocs_.size() == 1 ? 0 : member];
  }

  Config config_;
  std::deque<Member> members_;  // (a deque: Member is not movable cheaply)
  Node* slog_;
  uint64_t member_capacity_;  // the smallest member
  std::vector<ExtentAllocator> allocs_;
  SlotPool<Completion> waiting_;  // the completions of member requests in flight
  uint32_t rotor_ = 0;            // stripe: member taking allocations
  uint64_t rotor_bytes_ = 0;      // allocated there since it took over
  uint64_t slog_cursor_ = 0;
  uint32_t async_write_limit_;
  uint64_t member_writes_ = 0;
};

}  // namespace storlab

#endif  // STORLAB_SIM_LAYERS_ZFS_ZFS_VDEVS_H_
