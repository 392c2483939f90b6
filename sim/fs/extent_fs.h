// ExtentFs: a file system layout over a node's address space — files of
// given sizes mapped to extents on the device — for workloads that run on
// files (fio's directory=/filename=, iozone) in virtual time.
//
// Space is handed out in blocks (4 KiB by default) from a free-extent map,
// first fit, so a file created on an empty device is one contiguous extent
// (no fragmentation is modelled) but capacity is honest: when the free space
// is gone, allocation fails with kNoSpace and whatever was allocated stays.
// No metadata is written to the device (directories, inodes and journals are
// not modelled); names are plain strings ("dir/file").
//
// It lives in sim/fs/, its own small library (storlab_fs, in the models tier:
// it needs only the core), so that both of its users see it: the simulated
// host of virtual-time runs (workloads/host/) and the FUSE export's tree
// mode (fusefs/), neither of which may include the other.
//
// Not thread-safe; one workload owns it.
#ifndef STORLAB_SIM_FS_EXTENT_FS_H_
#define STORLAB_SIM_FS_EXTENT_FS_H_

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sim/status.h"

namespace storlab {

class StateReader;
class StateWriter;

class ExtentFs {
 public:
  struct Extent {
    uint64_t file_offset;
    uint64_t device_offset;
    uint64_t length;
  };
  struct File {
    uint32_t id = 0;  // 1, 2, ... (0 is "no file")
    std::string name;
    uint64_t size = 0;            // bytes, as stat() shows it
    uint64_t allocated = 0;       // bytes of blocks it owns
    std::vector<Extent> extents;  // sorted by file_offset, non-overlapping
  };

  // A file system over [0, capacity) of a device. REQUIRES: block_size > 0.
  explicit ExtentFs(uint64_t capacity, uint32_t block_size = 4096);
  ExtentFs(const ExtentFs&) = delete;
  ExtentFs& operator=(const ExtentFs&) = delete;

  uint64_t capacity() const { return capacity_; }
  uint64_t free_bytes() const { return free_bytes_; }
  uint64_t used_bytes() const { return capacity_ - free_bytes_; }
  uint32_t block_size() const { return block_; }
  // Runs of free space (1 on an empty device: how fragmented it is).
  size_t free_extents() const { return free_.size(); }

  // The file's id, or 0.
  uint32_t Lookup(std::string_view name) const;
  // Creates an empty file (or returns the existing one's id).
  uint32_t Create(std::string_view name);
  // Frees a file's blocks and forgets it.
  void Remove(uint32_t id);
  // REQUIRES: id names a live file.
  const File& file(uint32_t id) const { return files_[id]; }
  std::vector<uint32_t> ids() const;

  // Allocates blocks for [0, size) (fallocate): contiguous when the free
  // space allows. Sets the size to at least `size`. On kNoSpace the blocks
  // that could be allocated are kept.
  Status Allocate(uint32_t id, uint64_t size);
  // The same without changing the size (fallocate's FALLOC_FL_KEEP_SIZE):
  // the blocks wait past the end for the writes that will grow the file.
  Status AllocateKeepSize(uint32_t id, uint64_t size);
  // Allocates blocks for [begin, end) of a file (fallocate(2) of a range,
  // fio's falloc engine): mode 0 extends the size to at least `end`,
  // `keep_size` (FALLOC_FL_KEEP_SIZE) leaves it. On kNoSpace the blocks that
  // could be allocated are kept and the size is not changed.
  Status AllocateRange(uint32_t id, uint64_t begin, uint64_t end, bool keep_size);
  // A write ending at `end` grows the size to it (blocks allocated with
  // AllocateKeepSize are past the size until then).
  void GrowSize(uint32_t id, uint64_t end);
  // Sets the file's size without allocating (ftruncate); shrinking frees
  // the blocks past the end.
  void Truncate(uint32_t id, uint64_t size);
  // Frees the blocks of [begin, end) of a file (fallocate's PUNCH_HOLE):
  // they read as holes again; the size stays. Appends each device range
  // freed (device offset, length) to `freed`. REQUIRES: begin and end are
  // multiples of the block size.
  void Punch(uint32_t id, uint64_t begin, uint64_t end,
             std::vector<std::pair<uint64_t, uint64_t>>* freed);

  // Maps [offset, offset+length) of a file to device extents, appended to
  // `out`. With `allocate`, holes are allocated first (a write) and the size
  // grows to cover the range; kNoSpace if they cannot be. Without it, holes
  // come back as extents with device_offset == kHole (they read as zeros).
  static constexpr uint64_t kHole = ~uint64_t{0};
  Status Map(uint32_t id, uint64_t offset, uint64_t length, bool allocate,
             std::vector<Extent>* out);
  // Fast path: the device offset of [offset, offset+length) when it lies
  // inside one allocated extent, else kHole.
  uint64_t MapContiguous(uint32_t id, uint64_t offset, uint64_t length) const;

  // storlab sim --state (extent_fs_state.cc): the files (ids, names,
  // sizes, extents) and the free-extent map, and back into a file system
  // of the same capacity and block size with no files yet; a restore
  // checks that the files' extents and the free space tile the device.
  void SaveState(StateWriter& w) const;
  Status RestoreState(StateReader& r);

 private:
  // Takes up to `bytes` (block multiple) of free space, preferring one piece
  // starting at or after `hint`; appends the pieces taken.
  uint64_t Take(uint64_t bytes, uint64_t hint, std::vector<std::pair<uint64_t, uint64_t>>* got);
  void Give(uint64_t dev, uint64_t len);
  Status AllocateRange(File& f, uint64_t begin, uint64_t end);
  static void Insert(File& f, Extent e);

  uint64_t capacity_;
  uint32_t block_;
  uint64_t free_bytes_;
  std::map<uint64_t, uint64_t> free_;  // device offset -> length
  std::vector<File> files_;            // by id; files_[0] and removed files have id 0
  std::map<std::string, uint32_t, std::less<>> names_;
};

}  // namespace storlab

#endif  // STORLAB_SIM_FS_EXTENT_FS_H_
