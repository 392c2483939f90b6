// ThinNode: the "thin" node type, an LVM-thin pool (dm-thin) and the thin
// volumes carved from it; its child is the pool's data device.
//
//   - The pool holds `volumes` thin volumes of virtual_size each, laid end to
//     end in this node's address space (volume i starts at i * virtual_size),
//     the way `concat` joins devices and zfs's member_regions splits them: a
//     request addresses one volume by its offset. Their sum may exceed the
//     pool (overcommit). One node, because they share one pool and one
//     metadata transaction: in dm-thin a FLUSH to any thin volume commits
//     the whole pool's metadata, so one volume's fsync makes its neighbours'
//     new mappings durable too.
//   - Space is taken in chunks (64 KiB by default) on the first write to
//     each; reads of a chunk never written return zeros without touching the
//     pool. A partial write to a new chunk zeroes the chunk first (LVM's
//     thin_pool_zero).
//   - When no chunk is free, a write that needs one first forces a commit,
//     which may free chunks discarded since the last one (alloc_data_block).
//     If the pool is still full it fails with ENOSPC at once
//     (error_if_no_space) or waits for space (dm-thin's default,
//     queue_if_no_space) until no_space_timeout (60 s) passes, then fails
//     with ENOSPC (do_no_space_timeout; the first kernels with the timeout
//     switched the pool read-only instead, so writes got EIO;
//     configurable). Writes to chunks already mapped go on.
//   - A discard unmaps whole chunks and passes down at once; the chunks
//     return to the pool after the next commit (dm-persistent-data's space
//     map does not reuse a block freed in the open transaction).
//   - The mapping is metadata, durable only when committed: on FLUSH, on a
//     FUA write while the pool has uncommitted changes, and every second
//     (dm-thin's COMMIT_PERIOD); each commit flushes the data device first
//     (Linux >= 5.2). After a power cut, chunks provisioned since the last
//     commit are unmapped again and read as zeros, although their data
//     reached the pool: real dm-thin behaviour. Hence volatile_cache.
//
// Volumes of the pool that are not modelled here are a byte count
// (`others_used`, or SetOtherVolumesUsage() at run time, e.g. another VM
// filling the pool), which takes free space away; pool usage is reported as
// lvs would. The metadata device's own I/O time is not modelled.
// Not thread-safe.
#ifndef STORLAB_SIM_LAYERS_THIN_THIN_NODE_H_
#define STORLAB_SIM_LAYERS_THIN_THIN_NODE_H_

#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sim/layers/range_lock.h"
#include "sim/layers/thin/thin_metadata.h"
#include "sim/node.h"

namespace storlab {

class ThinNode : public NodeWrapper {
 public:
  struct Config {
    uint64_t virtual_size = 0;                       // each volume
    uint32_t volumes = 1;                            // thin volumes in the pool
    uint64_t chunk = 64 * 1024;                      // lvmthin(7): default chunk size 64 KiB
    uint64_t pool_size = 0;                          // 0: the whole child
    uint64_t others_used = 0;                        // bytes of the pool used by other volumes
    bool queue_if_no_space = true;                   // dm-thin default
    Nanos no_space_timeout = Nanos(60'000'000'000);  // dm-thin no_space_timeout: 60 s
    bool enospc = true;                              // the error: ENOSPC, or EIO (early kernels)
    bool zero_new_chunks = true;                     // lvm.conf thin_pool_zero = 1
    Nanos commit_period = Nanos(1'000'000'000);      // dm-thin COMMIT_PERIOD (HZ); 0: never
    bool discard_passdown = true;                    // dm-thin default
    bool keeps_data = true;
  };

  // REQUIRES: a config checked by MakeThin.
  ThinNode(Engine& engine, std::string name, Node& child, const Config& config);
  static constexpr NodeKind kKind = NodeKind::kThin;
  NodeKind kind() const override { return kKind; }
  std::string_view type() const override { return "thin"; }
  void AppendStats(StatList& out) const override;
  // --state (thin_state.cc): the pool's metadata (both mappings, the space
  // map's hint, the open transaction) and whether the no-space timeout has
  // passed. The mappings are dm-thin's metadata device: a reboot keeps the
  // committed ones only, as a power cut does.
  bool CanSaveState() const override { return true; }
  Status SaveState(StateWriter& w) const override;
  Status RestoreState(StateReader& r) override;

  // --- Control ---
  // Bytes of the pool held by volumes not modelled here.
  void SetOtherVolumesUsage(uint64_t bytes);
  // lvextend of the pool. REQUIRES nothing; fails if smaller than now or
  // larger than the data device.
  Status ExtendPool(uint64_t bytes);

  // --- Status ---
  uint32_t volumes() const { return config_.volumes; }
  uint64_t volume_size() const { return config_.virtual_size; }
  // Where volume i starts in this node's address space.
  uint64_t volume_offset(uint32_t i) const { return i * config_.virtual_size; }
  // Bytes of volume i that are mapped (lvs Data% of the thin volume).
  uint64_t volume_mapped_bytes(uint32_t i) const;
  const ThinMetadata& metadata() const { return md_; }
  uint64_t chunk() const { return config_.chunk; }
  uint64_t mapped_bytes() const { return md_.mapped() * config_.chunk; }
  uint64_t pool_free_bytes() const { return md_.free_chunks() * config_.chunk; }
  // lvs Data% of the pool: its chunks in use, by every volume.
  double data_percent() const;
  size_t waiting_for_space() const { return no_space_queue_.size(); }
  uint64_t commits() const { return commits_; }

 protected:
  void DoSubmit(Request req) override;
  void OnPowerCut() override;

 private:
  // One request on its way through the layer.
  struct Io {
    Request req;
    uint64_t epoch = 0;
    uint64_t ticket = 0;
    bool whole_chunks = false;  // the lock covers whole chunks (provisioning, discard)
    bool commit_tried = false;  // the pool was full and a commit did not help
    int pending = 0;
    Status status;
    // Runs when `pending` drops to 0; takes the Io rather than capturing it
    // (a power cut would otherwise leave a cycle).
    Callback<void(const std::shared_ptr<Io>&)> next;
    std::vector<std::pair<uint64_t, uint64_t>> provisioned;  // volume chunk, pool chunk
  };
  struct Run {
    uint64_t offset, length;  // in the volume
    std::optional<uint64_t> pool_offset;
  };
  // The runs of [off, off+len): pieces whose chunks are unmapped, or mapped
  // to consecutive pool chunks. `extra` adds mappings not yet entered.
  std::vector<Run> Runs(uint64_t off, uint64_t len,
                        const std::vector<std::pair<uint64_t, uint64_t>>* extra = nullptr) const;
  bool AllMapped(uint64_t off, uint64_t len) const;
  uint64_t ChunkDown(uint64_t x) const { return x / config_.chunk * config_.chunk; }
  uint64_t ChunkUp(uint64_t x) const {
    return (x + config_.chunk - 1) / config_.chunk * config_.chunk;
  }

  void Read(const std::shared_ptr<Io>& io);
  void Write(const std::shared_ptr<Io>& io);
  void WriteData(const std::shared_ptr<Io>& io);
  void WriteDone(const std::shared_ptr<Io>& io);
  void FinishWrite(const std::shared_ptr<Io>& io);
  void WriteZeroes(const std::shared_ptr<Io>& io);
  void Discard(const std::shared_ptr<Io>& io);
  // Takes the lock on the request's bytes (whole chunks if asked).
  void Lock(const std::shared_ptr<Io>& io, bool whole_chunks, Callback<void()> then);
  void Unlock(const std::shared_ptr<Io>& io);
  // Sends one child request; io->next runs when the last one completes.
  void Issue(const std::shared_ptr<Io>& io, Op op, uint64_t off, uint64_t len, uint8_t* data,
             uint32_t flags);
  // Call after issuing: runs io->next from an event if nothing was sent.
  void WhenIssued(const std::shared_ptr<Io>& io);
  void Complete(const std::shared_ptr<Io>& io, Status st);

  // Commits (thin_commit.cc).
  void Changed();
  void RequestCommit(Callback<void(Status)> done);
  void StartCommit();
  void NoSpace(const std::shared_ptr<Io>& io);
  void SpaceFreed();
  Status SpaceError() const;

  Config config_;
  ThinMetadata md_;
  RangeLock lock_;
  std::vector<uint8_t> zeros_;  // one chunk of zeros
  uint64_t epoch_ = 0;
  // Commits.
  bool committing_ = false;
  bool commit_timer_ = false;
  std::vector<Callback<void(Status)>> commit_waiters_;  // for the next commit
  // No space.
  std::deque<std::shared_ptr<Io>> no_space_queue_;
  bool no_space_timer_ = false;
  Engine::EventId no_space_event_;
  bool no_space_failed_ = false;  // the timeout passed: fail at once
  // Counters.
  uint64_t commits_ = 0;
  uint64_t provisioned_ = 0;
  uint64_t zeroed_ = 0;
  uint64_t discarded_ = 0;
  uint64_t no_space_errors_ = 0;
};

}  // namespace storlab

#endif  // STORLAB_SIM_LAYERS_THIN_THIN_NODE_H_
